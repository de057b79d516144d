package dev.remotepath.webdav;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncerTest;
import dev.remotepath.testkit.WebDavServers;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.provider.Arguments;

/** Every PathSyncer case over local → WebDAV, WebDAV → local and WebDAV → WebDAV (COPY), against one real server. */
abstract class WebDavSyncPairTest extends PathSyncerTest {

    private Path work;
    private WebDavServers.Running server;
    private final WebDavOptions options = WebDavOptions.defaults();
    private final AtomicInteger roots = new AtomicInteger();

    /** The server, by {@link WebDavServers#start}'s name. */
    abstract String server();

    /** A fresh directory on the server. */
    private final class Dav implements Backend {
        @Override
        public RemotePath newRoot(List<AutoCloseable> cleanup) throws Exception {
            return RemotePaths.get(URI.create(server.base() + "/root-" + roots.incrementAndGet() + "/"), options)
                    .createDirectory();
        }

        @Override
        public String toString() {
            return "WebDAV (" + server() + ")";
        }
    }

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-dav-pairs-");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
        server = WebDavServers.start(server(), Files.createDirectories(work.resolve("root")), work);
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(URI.create(server.base() + "/"), options).fileSystem().close();
        server.close();
        dev.remotepath.testkit.LocalTrees.delete(work);
    }

    @Override
    protected Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Local.LOCAL, new Dav()), Arguments.of(new Dav(), Local.LOCAL),
                Arguments.of(new Dav(), new Dav()));
    }
}
