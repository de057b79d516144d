package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;

/** Broken connections, wrong keys, missing buckets and dead endpoints: clear errors, nothing half-written. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class S3FaultTest {

    private TestS3Server server;
    private CuttingProxy proxy;
    private S3Client raw;

    @BeforeAll
    void start() throws Exception {
        server = new TestS3Server();
        server.createBucket("faults");
        proxy = new CuttingProxy(server.port());
        raw = server.rawClient();
    }

    @AfterAll
    void stop() throws Exception {
        raw.close();
        proxy.close();
        server.close();
    }

    @org.junit.jupiter.api.BeforeEach
    void disarm() {
        proxy.disarm();
    }

    /** The bucket through the cutting proxy, with no retries so that one cut is one failure. */
    private RemotePath viaProxy(String bucket, int retries) throws IOException {
        S3Options o = server.options(b -> b.endpoint(URI.create("http://127.0.0.1:" + proxy.port()))
                .partSize(S3Options.MIN_PART_SIZE).multipartThreshold(S3Options.MIN_PART_SIZE).maxRetries(retries)
                .uploadConcurrency(2));
        return RemotePaths.get(URI.create("s3://" + bucket + "/"), o);
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    @Test
    void closingTheFileSystemAbortsUploadsUnderWay() throws Exception {
        // What happens at JVM exit (SIGTERM, Ctrl-C): file systems close, and must not leave
        // an unfinished multipart upload in the bucket.
        RemotePath root = viaProxy("faults", 0);
        OutputStream out = root.fileSystem().openWrite(root.resolve("cut-short.bin"),
                dev.remotepath.spi.WriteMode.CREATE_OR_TRUNCATE);
        out.write(random(3 * S3Options.MIN_PART_SIZE)); // past the threshold: parts are on their way
        assertThat(raw.listMultipartUploads(l -> l.bucket("faults")).uploads()).isNotEmpty();
        root.fileSystem().close();
        assertThat(raw.listMultipartUploads(l -> l.bucket("faults")).uploads()).isEmpty();
        assertThat(raw.listObjectsV2(l -> l.bucket("faults").prefix("cut-short")).contents()).isEmpty();
    }

    /** What a writer killed with SIGKILL mid-upload leaves: an upload begun, a part sent, never completed. */
    private String killedUpload(String key) {
        String id = raw.createMultipartUpload(c -> c.bucket("faults").key(key)).uploadId();
        raw.uploadPart(u -> u.bucket("faults").key(key).uploadId(id).partNumber(1),
                software.amazon.awssdk.core.sync.RequestBody.fromBytes(random(S3Options.MIN_PART_SIZE)));
        return id;
    }

    private java.util.List<String> uploadsOf(String key) {
        return raw.listMultipartUploads(l -> l.bucket("faults").prefix(key)).uploads().stream()
                .filter(u -> u.key().equals(key)).map(software.amazon.awssdk.services.s3.model.MultipartUpload::uploadId)
                .toList();
    }

    @Test
    void theNextUploadOfAKeyAbortsWhatAKilledWriterLeftOfIt() throws Exception {
        killedUpload("killed.bin");
        killedUpload("killed.bin");
        String neighbour = killedUpload("killed.bin.other");
        assertThat(uploadsOf("killed.bin")).isNotEmpty();
        RemotePath root = viaProxy("faults", 0);
        byte[] content = random(3 * S3Options.MIN_PART_SIZE);
        root.resolve("killed.bin").write(content);
        assertThat(root.resolve("killed.bin").readAllBytes()).isEqualTo(content);
        assertThat(uploadsOf("killed.bin")).isEmpty();
        // Another key that shares the name as a prefix is not this key: its upload is left alone.
        assertThat(uploadsOf("killed.bin.other")).containsExactly(neighbour);
        raw.abortMultipartUpload(a -> a.bucket("faults").key("killed.bin.other").uploadId(neighbour));
        root.fileSystem().close();
    }

    @Test
    void staleUploadsAreKeptWhenTheOptionIsOff() throws Exception {
        String stale = killedUpload("kept.bin");
        S3Options o = server.options(b -> b.endpoint(URI.create("http://127.0.0.1:" + proxy.port()))
                .partSize(S3Options.MIN_PART_SIZE).multipartThreshold(S3Options.MIN_PART_SIZE).abortStaleUploads(false));
        RemotePath root = RemotePaths.get(URI.create("s3://faults/"), o);
        root.resolve("kept.bin").write(random(2 * S3Options.MIN_PART_SIZE));
        assertThat(uploadsOf("kept.bin")).containsExactly(stale);
        raw.abortMultipartUpload(a -> a.bucket("faults").key("kept.bin").uploadId(stale));
        root.fileSystem().close();
    }

    @Test
    void aSyncIntoAStoreThatStopsAnsweringEndsByItself() throws Exception {
        S3Options o = server.options(b -> b.endpoint(URI.create("http://127.0.0.1:" + proxy.port())).maxRetries(1)
                .requestTimeout(java.time.Duration.ofSeconds(2)));
        RemotePath root = RemotePaths.get(URI.create("s3://faults/paused/"), o);
        RemotePath src = RemotePaths.get("mem://s3-paused-" + java.util.UUID.randomUUID() + "/");
        for (int d = 0; d < 10; d++) {
            src.resolve("d" + d).createDirectory();
            for (int f = 0; f < 20; f++) {
                src.resolve("d" + d + "/f" + f).writeString("x");
            }
        }
        dev.remotepath.tree.FileTransfer.createDirectories(root); // the root exists: the run goes on to copy
        java.util.concurrent.atomic.AtomicBoolean paused = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            dev.remotepath.syncer.SyncReport r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    java.time.Duration.ofSeconds(60), () -> dev.remotepath.syncer.PathSyncer.builder(src, root)
                            .listener(new dev.remotepath.syncer.SyncListener() {
                                @Override
                                public void started(dev.remotepath.syncer.SyncAction a) {
                                    if (!paused.getAndSet(true)) {
                                        proxy.stall(true);
                                    }
                                }
                            }).build().run());
            assertThat(r.refusal()).hasValueSatisfying(m -> assertThat(m).contains("gave up"));
            assertThat(r.errors()).isNotEmpty().hasSizeLessThan(50)
                    .anySatisfy(e -> assertThat(e.message()).contains("did not answer in time"));
        } finally {
            proxy.stall(false);
            root.fileSystem().close();
            src.fileSystem().close();
        }
    }

    @Test
    void connectionDroppedDuringMultipartUploadLeavesNoObjectAndNoPendingUpload() throws Exception {
        RemotePath root = viaProxy("faults", 0);
        RemotePath file = root.resolve("dropped.bin");
        byte[] content = random(4 * S3Options.MIN_PART_SIZE);
        proxy.cutRequestAfter(S3Options.MIN_PART_SIZE + S3Options.MIN_PART_SIZE / 2L);
        assertThatThrownBy(() -> {
            try (OutputStream out = root.fileSystem().openWrite(file, dev.remotepath.spi.WriteMode.CREATE_OR_TRUNCATE)) {
                out.write(content);
            }
        }).isInstanceOf(IOException.class).hasMessageContaining("s3://faults/dropped.bin");
        assertThat(proxy.cuts.get()).isPositive();
        assertThat(file.exists()).isFalse();
        assertThat(raw.listMultipartUploads(l -> l.bucket("faults")).uploads()).isEmpty();
        root.fileSystem().close();
    }

    @Test
    void failedCopyIntoS3AbortsTheUploadAndKeepsTheOldObject() throws Exception {
        RemotePath root = viaProxy("faults", 0);
        RemotePath target = root.resolve("kept.bin").writeString("old version");
        RemotePath source = RemotePaths.get("mem://s3-fault-src/big.bin").write(random(3 * S3Options.MIN_PART_SIZE));
        proxy.cutRequestAfter(S3Options.MIN_PART_SIZE + 1000L);
        assertThatThrownBy(() -> source.copyTo(target, java.nio.file.StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(IOException.class);
        assertThat(target.readString()).isEqualTo("old version");
        assertThat(raw.listMultipartUploads(l -> l.bucket("faults")).uploads()).isEmpty();
        root.fileSystem().close();
    }

    @Test
    void readResumesAfterADroppedConnection() throws Exception {
        RemotePath root = viaProxy("faults", 0);
        byte[] content = random(3 * 1024 * 1024);
        RemotePath file = root.resolve("resumed.bin").write(content);
        proxy.cutResponseAfter(1024 * 1024);
        byte[] read;
        try (InputStream in = file.newInputStream()) {
            read = in.readAllBytes();
        }
        assertThat(proxy.cuts.get()).isPositive();
        assertThat(Arrays.equals(read, content)).as("content after a resumed read").isTrue();
        root.fileSystem().close();
    }

    @Test
    void readOfAnObjectReplacedMidwayFailsInsteadOfMixingVersions() throws Exception {
        RemotePath root = viaProxy("faults", 0);
        // Larger than the socket buffers on both sides of the relay, so the cut meets bytes still in flight.
        RemotePath file = root.resolve("changing.bin").write(random(48 * 1024 * 1024));
        long cutsBefore = proxy.cuts.get();
        try (InputStream in = file.newInputStream()) {
            in.readNBytes(1000);
            raw.putObject(p -> p.bucket("faults").key("changing.bin"),
                    software.amazon.awssdk.core.sync.RequestBody.fromBytes(random(1024)));
            proxy.cutResponseAfter(0);
            assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class)
                    .hasMessageContaining("s3://faults/changing.bin").hasMessageContaining("changed on the server");
        }
        assertThat(proxy.cuts.get()).isGreaterThan(cutsBefore);
        root.fileSystem().close();
    }

    @Test
    void wrongCredentialsAreAccessDeniedNamingThePath() throws Exception {
        S3Options o = server.options(b -> b.credentials(S3Credentials.of(TestS3Server.ACCESS_KEY, "wrong-secret")));
        RemotePath p = RemotePaths.get(URI.create("s3://faults/x.txt"), o);
        try {
            assertThatThrownBy(p::readString).isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("s3://faults/x.txt").hasMessageContaining("credentials refused");
            assertThatThrownBy(() -> p.parent().list()).isInstanceOf(AccessDeniedException.class);
        } finally {
            p.fileSystem().close();
        }
    }

    @Test
    void missingBucketIsNoSuchFileSayingSo() throws Exception {
        RemotePath p = RemotePaths.get(URI.create("s3://no-such-bucket/a/b.txt"), server.options());
        try {
            assertThatThrownBy(() -> p.parent().list()).isInstanceOf(NoSuchFileException.class)
                    .hasMessageContaining("no such bucket").hasMessageContaining("s3://no-such-bucket/a");
            assertThatThrownBy(() -> p.root().stat()).isInstanceOf(NoSuchFileException.class);
            assertThatThrownBy(() -> p.root().list()).isInstanceOf(NoSuchFileException.class)
                    .hasMessageContaining("no such bucket");
            assertThatThrownBy(() -> p.writeString("x")).isInstanceOf(NoSuchFileException.class)
                    .hasMessageContaining("no such bucket");
            assertThatThrownBy(() -> p.parent().createDirectory()).isInstanceOf(NoSuchFileException.class);
            assertThat(p.root().exists()).isFalse();
        } finally {
            p.fileSystem().close();
        }
    }

    @Test
    void mkdirOfABucketRootCreatesTheBucket() throws Exception {
        RemotePath root = RemotePaths.get(URI.create("s3://made-by-mkdir/"), server.options());
        try {
            assertThat(root.exists()).isFalse();
            root.createDirectory();
            assertThat(raw.headBucket(h -> h.bucket("made-by-mkdir")).sdkHttpResponse().isSuccessful()).isTrue();
            assertThat(root.isDirectory()).isTrue();
            assertThat(root.list()).isEmpty();
            assertThatThrownBy(root::createDirectory).isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
            root.createDirectories(); // an existing directory is fine for -p
            root.resolve("a/b.txt").writeString("in the new bucket");
            assertThat(root.resolve("a/b.txt").readString()).isEqualTo("in the new bucket");
        } finally {
            root.fileSystem().close();
        }
    }

    @Test
    void aBucketNameS3RefusesIsRefusedNamingTheRule() throws Exception {
        RemotePath root = RemotePaths.get(URI.create("s3://ab/"), server.options());
        try {
            assertThatThrownBy(root::createDirectory).isExactlyInstanceOf(java.nio.file.FileSystemException.class)
                    .hasMessageContaining("s3://ab/").hasMessageContaining("cannot create a bucket of this name")
                    .hasMessageContaining("3 and 63 characters");
            assertThatThrownBy(() -> root.resolve("d").createDirectories()).isInstanceOf(java.nio.file.FileSystemException.class)
                    .hasMessageContaining("cannot create a bucket of this name");
        } finally {
            root.fileSystem().close();
        }
    }

    @Test
    void deadEndpointFailsPromptlyNamingThePath() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) {
            dead = s.getLocalPort();
        }
        S3Options o = server.options(b -> b.endpoint(URI.create("http://127.0.0.1:" + dead)).maxRetries(1)
                .apiCallTimeout(Duration.ofSeconds(20)));
        RemotePath p = RemotePaths.get(URI.create("s3://faults/x.txt"), o);
        long t0 = System.nanoTime();
        try {
            assertThatThrownBy(p::stat).isInstanceOf(IOException.class)
                    .hasMessageContaining("s3://faults/x.txt").hasMessageContaining("cannot reach");
        } finally {
            p.fileSystem().close();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void unsafeKeysFailTheListing() throws Exception {
        raw.putObject(p -> p.bucket("faults").key("hostile/../escape.txt"),
                software.amazon.awssdk.core.sync.RequestBody.fromString("x"));
        RemotePath dir = RemotePaths.get(URI.create("s3://faults/hostile"), server.options());
        try {
            assertThatThrownBy(dir::list).isInstanceOf(dev.remotepath.UnsafeNameException.class);
            assertThatThrownBy(dir::deleteRecursively).isInstanceOf(dev.remotepath.UnsafeNameException.class);
        } finally {
            dir.fileSystem().close();
        }
    }
}
