package dev.remotepath.ftp;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncerTest;
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

/** Every PathSyncer case over local → FTP and FTP → mem, against one real server a subclass names. */
abstract class FtpSyncPairTest extends PathSyncerTest {

    private Path work;
    private FtpServers.Running server;
    private FtpOptions options;
    private final AtomicInteger roots = new AtomicInteger();

    /** The server, by {@link FtpServers#start}'s name. */
    abstract String server();

    /** A fresh directory on the server. */
    private final class Ftp implements Backend {
        @Override
        public RemotePath newRoot(List<AutoCloseable> cleanup) throws Exception {
            return RemotePaths.get(URI.create(server.base() + "/root-" + roots.incrementAndGet() + "/"), options)
                    .createDirectory();
        }

        @Override
        public String toString() {
            return "FTP (" + server() + ")";
        }
    }

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-ftp-pairs-");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
        server = FtpServers.start(server(), Files.createDirectories(work.resolve("root")), work, FtpServers.Tls.NONE);
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
    protected Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Local.LOCAL, new Ftp()), Arguments.of(new Ftp(), Local.MEM));
    }
}
