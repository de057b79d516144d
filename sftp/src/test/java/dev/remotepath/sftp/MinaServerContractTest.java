package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The whole contract suite over SFTP (MINA client) against an in-process MINA SSHD server. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MinaServerContractTest extends RemoteFileSystemContract {

    /** The server sends uid and gid with every file's attributes. */
    @Override
    protected boolean reportsOwners() {
        return true;
    }

    private Path work;
    private TestSshServer server;
    /** One options value for the class, so that every case reuses one connection, as a user's would. */
    private SftpOptions options;
    private final AtomicInteger cases = new AtomicInteger();

    /** The client library this class runs the contract through. */
    SftpOptions.Client client() {
        return SftpOptions.Client.MINA;
    }

    /** The server this class runs the contract against. */
    TestSshServer newServer(Path work) throws Exception {
        return new TestSshServer(work);
    }

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-sftp-");
        server = newServer(work);
        options = server.options(client());
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(server.uri("/"), options).fileSystem().close();
        server.close();
        LocalTrees.delete(work);
    }

    /** Every stream and listing a case opened must have been closed on the server too. */
    @AfterEach
    void noHandleLeft() throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L; // CLOSE is asynchronous on the server
        while (server.openHandles.get() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(server.openHandles.get()).as("SFTP handles left open on the server").isZero();
    }

    /** The leak check above can fail: an open stream is a handle the server counts. */
    @Test
    void leakCheckSeesAnOpenStream() throws Exception {
        RemotePath file = dir.resolve("open.txt").writeString("x");
        try (InputStream in = file.newInputStream()) {
            assertThat(in.read()).isEqualTo('x');
            assertThat(server.openHandles.get()).isEqualTo(1);
        }
    }

    @Test
    void runsThroughTheChosenClient() throws Exception {
        assertThat(((SftpFileSystem) dev.remotepath.testkit.NioFacadeFileSystem.backendOf(dir.fileSystem())).client()).isEqualTo(client().name().toLowerCase(java.util.Locale.ROOT));
    }

    /** Both clients see the same server the same way: same capabilities, same listing, same stat. */
    @Test
    void bothClientsAgree() throws Exception {
        dir.resolve("f.txt").writeString("same");
        dir.resolve("d").createDirectory();
        for (SftpOptions.Client other : SftpOptions.Client.values()) {
            RemotePath there = other == client() ? dir : RemotePaths.get(dir.toUri(), server.options(other));
            try {
                assertThat(there.fileSystem().capabilities()).isEqualTo(dir.fileSystem().capabilities());
                assertThat(there.fileSystem().nativeChecksums()).isEqualTo(dir.fileSystem().nativeChecksums());
                assertThat(there.list()).extracting(e -> e.name(), e -> e.stat())
                        .isEqualTo(dir.list().stream().map(e -> org.assertj.core.groups.Tuple.tuple(e.name(), e.stat())).toList());
                assertThat(there.resolve("f.txt").stat()).isEqualTo(dir.resolve("f.txt").stat());
                var md5 = there.resolve("f.txt").checksum(dev.remotepath.ChecksumAlgorithm.SHA256);
                assertThat(md5.hex()).isEqualTo("0967115f2813a3541eaef77de9d9d5773f1c0c04314b0bbfe4ff3b3b1c55b5d5");
                assertThat(md5.origin()).isEqualTo(there.fileSystem().nativeChecksums().isEmpty()
                        ? dev.remotepath.Checksum.Origin.STREAMED : dev.remotepath.Checksum.Origin.NATIVE);
            } finally {
                if (there.fileSystem() != dir.fileSystem()) {
                    there.fileSystem().close();
                }
            }
        }
    }

    /** The in-process server's file channels count too (besides its handle count above). */
    @Override
    protected java.util.Optional<java.nio.file.Path> diskDirectoryOf(RemotePath dir) {
        return java.util.Optional.of(java.nio.file.Path.of(dir.pathString()));
    }

    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        String name = "closing-" + cases.incrementAndGet();
        Files.createDirectories(server.root.resolve(name));
        Files.writeString(server.root.resolve(name).resolve("f"), "x");
        // Options of its own (a password supplier of its own): another file system and connection.
        return RemotePaths.get(server.uri("/" + name), server.options(client()));
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        String name = "case-" + cases.incrementAndGet();
        Files.createDirectories(server.root.resolve(name));
        return RemotePaths.get(server.uri("/" + name), options);
    }

    /**
     * MINA SSHD's server (2.20) writes SFTP v3 times with {@code Buffer.putInt(long)}, which
     * refuses any past 2038-01-19 ("Invalid INT32 value"): it closes the channel instead of
     * answering a stat of such a file. A server defect (SftpHelper.writeTime), not the client's;
     * OpenSSH and gesftpserver answer, and both clients read them (the contract runs there).
     */
    @Override
    protected boolean serverKeepsTimesPast2038() {
        return false;
    }
}
