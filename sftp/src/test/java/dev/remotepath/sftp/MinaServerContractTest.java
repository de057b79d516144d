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

    private Path work;
    private TestSshServer server;
    private final AtomicInteger cases = new AtomicInteger();

    /** The server this class runs the contract against. */
    TestSshServer newServer(Path work) throws Exception {
        return new TestSshServer(work);
    }

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-sftp-");
        server = newServer(work);
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(server.uri("/"), server.options()).fileSystem().close();
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

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        String name = "case-" + cases.incrementAndGet();
        Files.createDirectories(server.root.resolve(name));
        return RemotePaths.get(server.uri("/" + name), server.options());
    }
}
