package dev.remotepath.s3;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.testkit.NetworkNamespace;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Adobe S3Mock (the Spring Boot application Maven publishes as {@code com.adobe.testing:s3mock},
 * classifier {@code exec}) on a store directory of its own. It binds every interface on ports
 * 9090 and 9191, so it runs in a network namespace of its own and is reached only through
 * {@link NetworkNamespace}'s forwarded port on 127.0.0.1. S3Mock takes any keys.
 */
final class S3MockServer implements S3TestStore {

    /** S3Mock's plain-HTTP port, inside its namespace. */
    private static final int HTTP_PORT = 9090;

    private final Path work;
    private final NetworkNamespace namespace;
    private final URI endpoint;

    private S3MockServer(Path work, NetworkNamespace namespace) {
        this.work = work;
        this.namespace = namespace;
        this.endpoint = URI.create("http://127.0.0.1:" + namespace.localPort(HTTP_PORT));
    }

    /**
     * Starts S3Mock; skips the calling class where its jar (copied by the build) or network
     * namespaces are missing, and fails it under {@code CI=true}, where both must be there.
     */
    static S3MockServer start() throws Exception {
        String jar = System.getProperty("s3mock.jar", "");
        require(!jar.isEmpty() && Files.isRegularFile(Path.of(jar)),
                "S3Mock's jar is missing (" + jar + "); the s3 module's build copies it from Maven");
        require(NetworkNamespace.available(),
                "this machine cannot make a network namespace (unshare -n / -rn), which S3Mock needs");
        Path work = Files.createTempDirectory("rp-s3mock-");
        String java = ProcessHandle.current().info().command().orElse("java");
        // C1 only: on two cores the contract class took 56 s so, 74 s with C2 compiling beside it.
        List<String> cmd = List.of(java, "-XX:+UseSerialGC", "-Xmx512m", "-XX:TieredStopAtLevel=1", "-jar", jar,
                "--com.adobe.testing.s3mock.store.root=" + work.resolve("store"),
                "--logging.level.root=WARN", "--spring.main.banner-mode=off");
        NetworkNamespace ns = NetworkNamespace.start(cmd, List.of(HTTP_PORT), work.resolve("s3mock.log"),
                Duration.ofSeconds(90));
        return new S3MockServer(work, ns);
    }

    private static void require(boolean there, String what) {
        if (!there && "true".equals(System.getenv("CI"))) {
            throw new AssertionError(what + " (.ci/run provides it)");
        }
        assumeTrue(there, what + ": this S3Mock run is skipped");
    }

    @Override
    public URI endpoint() {
        return endpoint;
    }

    @Override
    public String accessKey() {
        return "rp-s3mock";
    }

    @Override
    public String secretKey() {
        return "rp-s3mock-secret";
    }

    /** S3Mock answers 412 to {@code If-None-Match: *} over an existing key. */
    @Override
    public boolean honoursConditionalWrites() {
        return true;
    }

    @Override
    public String createBucket(String name) {
        try (S3Client c = rawClient()) {
            c.createBucket(b -> b.bucket(name));
        }
        return name;
    }

    @Override
    public void close() throws Exception {
        namespace.close();
        try (var walk = Files.walk(work)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
