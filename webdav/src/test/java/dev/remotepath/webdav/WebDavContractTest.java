package dev.remotepath.webdav;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.NioFacadeFileSystem;
import dev.remotepath.testkit.RemoteFileSystemContract;
import dev.remotepath.testkit.WebDavServers;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The whole contract suite over WebDAV, against one real server a subclass names. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WebDavContractTest extends RemoteFileSystemContract {

    private Path work;
    private WebDavServers.Running server;
    private WebDavOptions options;
    private final AtomicInteger cases = new AtomicInteger();

    /** The server, by {@link WebDavServers#start}'s name. */
    abstract String server();

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-dav-");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path root = Files.createDirectories(work.resolve("root"));
        server = WebDavServers.start(server(), root, work);
        options = WebDavOptions.builder().build();
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(URI.create(server.base() + "/"), options).fileSystem().close();
        server.close();
        dev.remotepath.testkit.LocalTrees.delete(work);
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        return RemotePaths.get(URI.create(server.base() + "/case-" + cases.incrementAndGet() + "/"), options)
                .createDirectory();
    }

    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        WebDavOptions own = WebDavOptions.builder().userAgent("RemotePath/closing").build();
        RemotePath root = RemotePaths.get(URI.create(server.base() + "/closing-" + cases.incrementAndGet() + "/"), own);
        root.createDirectory();
        root.resolve("f").writeString("x");
        return root;
    }

    /** No case leaves a read or write stream open. */
    @AfterEach
    void noStreamLeftOpen() {
        assertThat(((WebDavFileSystem) NioFacadeFileSystem.backendOf(dir.fileSystem())).openStreams())
                .as("WebDAV streams left open").isZero();
    }
}
