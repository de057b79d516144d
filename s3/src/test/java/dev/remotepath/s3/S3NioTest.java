package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.FileSystemCall;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.nio.RemoteNio;
import dev.remotepath.spi.ObservedFileSystem;
import dev.remotepath.testkit.ZipFixtures;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The java.nio.file provider over S3 (s3proxy): the JDK's zip file system reads a zip stored in
 * a bucket through ranged GETs, and a walk lists each prefix once and asks nothing per object,
 * counted at the wire.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3NioTest {

    private TestS3Server server;
    private final RequestCounter counter = new RequestCounter();
    private final AtomicLong bytesRead = new AtomicLong();
    /** The Range header of every GetObject sent. */
    private final java.util.List<String> ranges = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    private final software.amazon.awssdk.core.interceptor.ExecutionInterceptor rangeRecorder =
            new software.amazon.awssdk.core.interceptor.ExecutionInterceptor() {
                @Override
                public void beforeExecution(software.amazon.awssdk.core.interceptor.Context.BeforeExecution context,
                        software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
                    if (context.request() instanceof software.amazon.awssdk.services.s3.model.GetObjectRequest g) {
                        ranges.add(String.valueOf(g.range()));
                    }
                }
            };
    private RemotePath bucket;

    @BeforeAll
    void start() throws Exception {
        server = new TestS3Server();
        server.createBucket("nio");
        RemotePath plain = RemotePaths.get(URI.create("s3://nio/"),
                server.options(b -> b.clientCustomizer(c -> c.overrideConfiguration(o -> o.addExecutionInterceptor(counter)
                        .addExecutionInterceptor(rangeRecorder)))));
        bucket = ObservedFileSystem.observe(plain, new FileSystemEvents() {
            @Override
            public void finished(FileSystemCall call, long amount, Duration took) {
                if (call.operation() == FileSystemCall.Operation.READ) {
                    bytesRead.addAndGet(amount);
                }
            }
        });
    }

    @AfterAll
    void stop() throws Exception {
        ((ObservedFileSystem) bucket.fileSystem()).observed().close();
        server.close();
    }

    @Test
    void theJdksZipFileSystemReadsAZipInABucketWithoutDownloadingIt() throws Exception {
        byte[] bulk = new byte[8 << 20];
        new Random(3).nextBytes(bulk);
        byte[] zipped = ZipFixtures.bulkThenReadme(bulk, "read me");
        RemotePath archive = bucket.resolve("zip-" + UUID.randomUUID() + "/x.zip").write(zipped);
        counter.reset();
        bytesRead.set(0);
        ranges.clear();
        try (FileSystem zip = FileSystems.newFileSystem(RemoteNio.of(archive))) {
            assertThat(Files.readString(zip.getPath("/docs/readme.txt"))).isEqualTo("read me");
        }
        assertThat(bytesRead.get()).as("bytes read of a %d-byte zip", zipped.length).isLessThan(512 * 1024);
        assertThat(counter.count("GetObject")).as(counter.toString()).isBetween(1, 16);
        // Each GET asks a bounded range (the channel's window), so the store sends no more.
        assertThat(ranges).isNotEmpty().allMatch(r -> r.matches("bytes=\\d+-\\d+"), "bounded ranges");
    }

    @Test
    void aWalkListsEachPrefixOnceAndAsksNothingPerObject_andATreeCopiesToMem() throws Exception {
        RemotePath top = bucket.resolve("walk-" + UUID.randomUUID());
        for (int d = 0; d < 3; d++) {
            for (int f = 0; f < 10; f++) {
                top.resolve("d" + d + "/f" + f + ".txt").writeString("file " + d + f);
            }
        }
        Path root = RemoteNio.of(top);
        counter.reset();
        long files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> !Files.isDirectory(p)).count();
        }
        assertThat(files).isEqualTo(30);
        assertThat(counter.count("ListObjectsV2")).as(counter.toString()).isLessThanOrEqualTo(1 + 3 + 2);
        assertThat(counter.count("HeadObject") + counter.count("GetObject")).as(counter.toString()).isLessThanOrEqualTo(2);

        Path mem = Path.of(URI.create("mem://s3-nio-" + UUID.randomUUID() + "/copy"));
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws java.io.IOException {
                Files.createDirectories(mem.resolve(root.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws java.io.IOException {
                assertThat(attrs.size()).isEqualTo(7);
                Files.copy(file, mem.resolve(root.relativize(file).toString()));
                return FileVisitResult.CONTINUE;
            }
        });
        assertThat(Files.readString(mem.resolve("d2/f9.txt"))).isEqualTo("file 29");
    }
}
