package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The whole contract suite over S3 against an in-process s3proxy. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3ContractTest extends RemoteFileSystemContract {

    private S3TestStore server;
    private S3Options options;
    private final AtomicInteger cases = new AtomicInteger();

    /** The store the suite runs against: s3proxy over jclouds' in-memory store. */
    S3TestStore newServer() throws Exception {
        return new TestS3Server();
    }

    @BeforeAll
    void start() throws Exception {
        server = newServer();
        server.createBucket("contract");
        // Small parts so that the large-file cases go through multipart uploads.
        options = server.options(b -> b.partSize(S3Options.MIN_PART_SIZE).multipartThreshold(S3Options.MIN_PART_SIZE));
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(java.net.URI.create("s3://contract/"), options).fileSystem().close();
        server.close();
    }

    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        // Options of its own: another file system, and SDK client, than the one the cases share.
        S3Options own = server.options(b -> b.partSize(S3Options.MIN_PART_SIZE).maxRetries(0));
        RemotePath root = RemotePaths.get(java.net.URI.create("s3://contract/closing-" + cases.incrementAndGet() + "/"), own);
        root.resolve("f").writeString("x");
        return root;
    }

    /** No case leaves a read or write stream open: each holds a connection of the SDK's pool, or buffered parts. */
    @org.junit.jupiter.api.AfterEach
    void noStreamLeftOpen() {
        org.assertj.core.api.Assertions.assertThat(((S3FileSystem) dev.remotepath.testkit.NioFacadeFileSystem.backendOf(dir.fileSystem())).openStreams())
                .as("S3 streams left open").isZero();
    }

    /** The check above can fail: a stream held open is counted. */
    @org.junit.jupiter.api.Test
    void leakCheckSeesAStreamHeldOpen() throws Exception {
        RemotePath f = dir.resolve("held.txt").writeString("held");
        try (java.io.InputStream in = f.newInputStream();
                java.io.OutputStream out = dir.resolve("w.txt").newOutputStream()) {
            org.assertj.core.api.Assertions.assertThat(in.read()).isEqualTo('h');
            org.assertj.core.api.Assertions.assertThat(((S3FileSystem) dev.remotepath.testkit.NioFacadeFileSystem.backendOf(dir.fileSystem())).openStreams()).isEqualTo(2);
        }
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        return RemotePaths.get(java.net.URI.create("s3://contract/case-" + cases.incrementAndGet() + "/"), options)
                .createDirectory();
    }
}
