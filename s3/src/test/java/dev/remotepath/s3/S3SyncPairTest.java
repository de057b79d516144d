package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncerTest;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.provider.Arguments;

/** Every PathSyncer case over pairs with S3 on either side, and S3 to S3 (server-side copies). */
class S3SyncPairTest extends PathSyncerTest {

    private S3TestStore server;
    private S3Options options;
    private final AtomicInteger roots = new AtomicInteger();

    /** A fresh prefix in the test bucket. */
    private final class Bucket implements Backend {
        @Override
        public RemotePath newRoot(List<AutoCloseable> cleanup) throws Exception {
            return RemotePaths.get(URI.create("s3://pairs/root-" + roots.incrementAndGet() + "/"), options)
                    .createDirectory();
        }

        @Override
        public String toString() {
            return "S3";
        }
    }

    /** The store the pairs run against: s3proxy over jclouds' in-memory store. */
    S3TestStore newServer() throws Exception {
        return new TestS3Server();
    }

    @BeforeAll
    void start() throws Exception {
        server = newServer();
        server.createBucket("pairs");
        options = server.options();
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(URI.create("s3://pairs/"), options).fileSystem().close();
        server.close();
    }

    @Override
    protected Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Local.LOCAL, new Bucket()), Arguments.of(new Bucket(), Local.MEM),
                Arguments.of(new Bucket(), new Bucket()));
    }
}
