package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The whole contract suite over S3 against s3proxy's file system provider: a store that keeps
 * directories as directories, so an emptied prefix stays listed by its parent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3OnDiskContractTest extends RemoteFileSystemContract {

    private Path root;
    private TestS3Server server;
    private S3Options options;
    private final AtomicInteger cases = new AtomicInteger();

    @BeforeAll
    void start() throws Exception {
        root = Files.createTempDirectory("s3-on-disk");
        server = TestS3Server.onDisk(root);
        server.createBucket("contract");
        options = server.options(b -> b.partSize(S3Options.MIN_PART_SIZE).multipartThreshold(S3Options.MIN_PART_SIZE));
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(java.net.URI.create("s3://contract/"), options).fileSystem().close();
        server.close();
        try (var walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        return RemotePaths.get(java.net.URI.create("s3://contract/case-" + cases.incrementAndGet() + "/"), options)
                .createDirectory();
    }
}
