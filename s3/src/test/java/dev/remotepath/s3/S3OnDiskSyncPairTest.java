package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncerTest;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Every PathSyncer case with s3proxy's file system provider on either side: a store that keeps
 * directories, lists an empty one as a prefix with nothing inside and leaves markers out of
 * their own listings.
 */
class S3OnDiskSyncPairTest extends PathSyncerTest {

    private Path disk;
    private TestS3Server server;
    private S3Options options;
    private final AtomicInteger roots = new AtomicInteger();

    private final class Bucket implements Backend {
        @Override
        public RemotePath newRoot(List<AutoCloseable> cleanup) throws Exception {
            return RemotePaths.get(URI.create("s3://pairs/root-" + roots.incrementAndGet() + "/"), options)
                    .createDirectory();
        }

        @Override
        public String toString() {
            return "S3 (s3proxy filesystem)";
        }
    }

    @BeforeAll
    void start() throws Exception {
        disk = Files.createTempDirectory("s3-on-disk-pairs");
        server = TestS3Server.onDisk(disk);
        server.createBucket("pairs");
        options = server.options();
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(URI.create("s3://pairs/"), options).fileSystem().close();
        server.close();
        try (var walk = Files.walk(disk)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Override
    protected Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Local.LOCAL, new Bucket()), Arguments.of(new Bucket(), Local.MEM));
    }
}
