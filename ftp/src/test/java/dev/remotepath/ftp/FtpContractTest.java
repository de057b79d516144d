package dev.remotepath.ftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.NioFacadeFileSystem;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The whole contract suite over FTP, against one real server a subclass names, plain or with TLS. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FtpContractTest extends RemoteFileSystemContract {

    private Path work;
    private FtpServers.Running server;
    private FtpOptions options;
    private final AtomicInteger cases = new AtomicInteger();

    /** The server, by {@link FtpServers#start}'s name. */
    abstract String server();

    /** TLS, as the server offers it; none by default. */
    FtpServers.Tls tls() {
        return FtpServers.Tls.NONE;
    }

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-ftp-");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path root = Files.createDirectories(work.resolve("root"));
        server = FtpServers.start(server(), root, work, tls());
        options = server.options().build();
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            RemotePaths.get(URI.create(server.base() + "/"), options).fileSystem().close();
            server.close();
        }
        dev.remotepath.testkit.LocalTrees.delete(work);
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        return RemotePaths.get(URI.create(server.base() + "/case-" + cases.incrementAndGet() + "/"), options)
                .createDirectory();
    }

    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        FtpOptions own = server.options().connections(2).build();
        RemotePath root = RemotePaths.get(URI.create(server.base() + "/closing-" + cases.incrementAndGet() + "/"), own);
        root.createDirectory();
        root.resolve("f").writeString("x");
        return root;
    }

    /**
     * A name that is not UTF-8 (bytes kept as escapes, from a local tree) has no UTF-8 form: the
     * encoder's '?' in its place stored "bad??name.txt", another file, and every resync wrote it
     * again. It is refused, naming the file, and nothing is stored.
     */
    @org.junit.jupiter.api.Test
    void aNameThatIsNotUtf8IsRefusedNotStoredUnderAnotherName() throws Exception {
        RemotePath bad = dir.child("bad\udcff\udcfename.txt");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> bad.writeString("x"))
                .isInstanceOf(java.nio.file.FileSystemException.class)
                .hasMessageContaining("FTP cannot name this file as it is");
        RemotePath source = RemotePaths.get("mem://ftp-names-" + cases.get() + "/");
        source.child("bad\udcff.txt").writeString("x");
        source.child("ok.txt").writeString("ok");
        dev.remotepath.syncer.SyncReport r = dev.remotepath.syncer.PathSyncer.builder(source, dir).build().run();
        assertThat(r.filesCopied()).isEqualTo(1);
        assertThat(r.errors()).hasSize(1);
        assertThat(dir.list()).extracting(e -> e.name()).containsExactly("ok.txt");
    }

    /** No case leaves a read or write stream open. */
    @AfterEach
    void noStreamLeftOpen() {
        assertThat(((FtpFileSystem) NioFacadeFileSystem.backendOf(dir.fileSystem())).openStreams())
                .as("FTP streams left open").isZero();
    }
}
