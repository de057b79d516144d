package dev.remotepath.s3;

import java.net.URI;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * An in-process S3 server (s3proxy over jclouds' in-memory blob store, or its file system one)
 * on 127.0.0.1 and a random port, with SigV4 authentication, for tests and benchmarks.
 */
public final class TestS3Server implements S3TestStore {

    public static final String ACCESS_KEY = "rp-test-access";
    public static final String SECRET_KEY = "rp-test-secret-0123456789";

    private final S3Proxy proxy;
    private final BlobStoreContext context;
    public final BlobStore blobStore;
    public final URI endpoint;

    public TestS3Server() throws Exception {
        this("transient", new Properties(), null);
    }

    /**
     * s3proxy over jclouds' file system provider, on a temporary directory of its own that
     * {@link #close()} deletes: a store that keeps directories as directories (an empty one
     * lists as a prefix with nothing inside).
     */
    public static TestS3Server onDisk() throws Exception {
        java.nio.file.Path root = java.nio.file.Files.createTempDirectory("s3-on-disk");
        Properties p = new Properties();
        p.setProperty("jclouds.filesystem.basedir", root.toString());
        return new TestS3Server("filesystem", p, root);
    }

    /** The directory an {@link #onDisk()} server stores under and deletes when closed, or null. */
    private final java.nio.file.Path ownRoot;

    private TestS3Server(String provider, Properties properties, java.nio.file.Path ownRoot) throws Exception {
        this.ownRoot = ownRoot;
        context = ContextBuilder.newBuilder(provider).credentials("identity", "credential")
                .overrides(properties).build(BlobStoreContext.class);
        blobStore = context.getBlobStore();
        proxy = S3Proxy.builder()
                .blobStore(blobStore)
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .ignoreUnknownHeaders(true) // DeleteObjects always carries x-amz-checksum-crc32
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("s3proxy did not start: " + proxy.getState());
            }
            Thread.sleep(5);
        }
        endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    @Override
    public String createBucket(String name) {
        blobStore.createContainerInLocation(null, name);
        return name;
    }

    @Override
    public URI endpoint() {
        return endpoint;
    }

    @Override
    public String accessKey() {
        return ACCESS_KEY;
    }

    @Override
    public String secretKey() {
        return SECRET_KEY;
    }

    public int port() {
        return proxy.getPort();
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
        context.close();
        if (ownRoot != null) {
            try (var walk = java.nio.file.Files.walk(ownRoot)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
