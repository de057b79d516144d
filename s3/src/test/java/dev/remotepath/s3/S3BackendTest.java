package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.DirEntry;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** What is particular to S3: metadata mtimes, markers, clashes, server-side copies, MD5 ETags, multipart. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3BackendTest {

    private TestS3Server server;
    private final RequestCounter counter = new RequestCounter();
    private RemotePath root;
    private S3Client raw;
    private final AtomicInteger cases = new AtomicInteger();
    private RemotePath dir;
    private String prefix;

    @BeforeAll
    void start() throws Exception {
        server = new TestS3Server();
        server.createBucket("particular");
        root = RemotePaths.get(URI.create("s3://particular/"), server.options(b -> b
                .partSize(S3Options.MIN_PART_SIZE).multipartThreshold(S3Options.MIN_PART_SIZE)
                .clientCustomizer(c -> c.overrideConfiguration(o -> o.addExecutionInterceptor(counter)))));
        raw = server.rawClient();
    }

    @AfterAll
    void stop() throws Exception {
        raw.close();
        root.fileSystem().close();
        server.close();
    }

    @BeforeEach
    void freshDirectory() throws Exception {
        prefix = "case-" + cases.incrementAndGet() + "/";
        dir = root.resolve(prefix).createDirectory();
        counter.reset();
    }

    private Map<String, String> metadataOf(String key) {
        return raw.headObject(h -> h.bucket("particular").key(prefix + key)).metadata();
    }

    @Test
    void writesStoreTheMtimeAsRcloneDoes() throws Exception {
        RemotePath source = RemotePaths.get("mem://s3-mtime/f.txt").writeString("timed");
        Instant t = Instant.parse("2020-05-06T07:08:09.123456789Z");
        source.setLastModifiedTime(t);
        source.copyTo(dir.resolve("f.txt"));
        assertThat(metadataOf("f.txt")).containsEntry("mtime", "1588748889.123456789");
        assertThat(dir.resolve("f.txt").stat().lastModified()).hasValue(t);
        assertThat(counter.count("CopyObject")).as("the mtime went with the upload").isZero();
    }

    @Test
    void objectsWrittenByOtherToolsAreReadBothWays() throws Exception {
        raw.putObject(p -> p.bucket("particular").key(prefix + "rclone.txt").metadata(Map.of("mtime", "1700000000.5")),
                RequestBody.fromString("from rclone"));
        raw.putObject(p -> p.bucket("particular").key(prefix + "plain.txt"), RequestBody.fromString("no metadata"));
        assertThat(dir.resolve("rclone.txt").stat().lastModified()).hasValue(Instant.ofEpochSecond(1_700_000_000L, 500_000_000));
        var plain = dir.resolve("plain.txt").stat();
        assertThat(plain.lastModified()).isEqualTo(plain.storedAt()); // no mtime kept: the upload time
    }

    @Test
    void settingTheMtimeIsASelfCopyThatKeepsContentAndMetadata() throws Exception {
        raw.putObject(p -> p.bucket("particular").key(prefix + "m.txt").contentType("text/plain")
                .metadata(Map.of("owner", "ops")), RequestBody.fromString("keep me"));
        Instant t = Instant.parse("2011-01-01T00:00:00Z");
        dir.resolve("m.txt").setLastModifiedTime(t);
        assertThat(dir.resolve("m.txt").readString()).isEqualTo("keep me");
        assertThat(dir.resolve("m.txt").stat().lastModified()).hasValue(t);
        assertThat(metadataOf("m.txt")).containsEntry("owner", "ops");
        assertThat(raw.headObject(h -> h.bucket("particular").key(prefix + "m.txt")).contentType()).isEqualTo("text/plain");
    }

    @Test
    void directoriesAreMarkersOrPrefixes() throws Exception {
        dir.resolve("made").createDirectory();
        assertThat(raw.headObject(h -> h.bucket("particular").key(prefix + "made/")).contentLength()).isZero();
        raw.putObject(p -> p.bucket("particular").key(prefix + "implicit/deep/file.txt"), RequestBody.fromString("x"));
        assertThat(dir.resolve("implicit").isDirectory()).isTrue();
        assertThat(dir.resolve("implicit/deep").isDirectory()).isTrue();
        assertThat(dir.list()).extracting(DirEntry::name, DirEntry::type).containsExactly(
                org.assertj.core.groups.Tuple.tuple("implicit", FileType.DIRECTORY),
                org.assertj.core.groups.Tuple.tuple("made", FileType.DIRECTORY));
        // A file can be written into an implicit directory.
        dir.resolve("implicit/second.txt").writeString("y");
        assertThat(dir.resolve("implicit").list()).hasSize(2);
    }

    @Test
    void aFileAndADirectoryOfTheSameNameFailTheirDirectorysListing() throws Exception {
        raw.putObject(p -> p.bucket("particular").key(prefix + "twin"), RequestBody.fromString("file"));
        raw.putObject(p -> p.bucket("particular").key(prefix + "twin/inner.txt"), RequestBody.fromString("inner"));
        // Which of the two a copy would write through cannot be known: the directory is not trusted.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> dir.list())
                .isInstanceOf(dev.remotepath.UnsafeNameException.class)
                .hasMessageContaining("'twin'").hasMessageContaining("listed twice");
        assertThat(dir.resolve("twin/inner.txt").readString()).isEqualTo("inner");
    }

    @Test
    void copyAndMoveWithinTheBucketAreServerSide() throws Exception {
        byte[] content = "server side".getBytes(StandardCharsets.UTF_8);
        RemotePath a = dir.resolve("a.txt").write(content);
        Instant t = Instant.parse("2019-02-03T04:05:06Z");
        a.setLastModifiedTime(t);
        counter.reset();
        a.copyTo(dir.resolve("b.txt"));
        assertThat(counter.count("CopyObject")).as(counter.toString()).isEqualTo(1);
        assertThat(counter.count("GetObject")).as(counter.toString()).isZero();
        assertThat(dir.resolve("b.txt").readAllBytes()).isEqualTo(content);
        assertThat(dir.resolve("b.txt").stat().lastModified()).hasValue(t);

        dir.resolve("tree/sub").createDirectories();
        dir.resolve("tree/sub/x.txt").writeString("x");
        dir.resolve("tree/y.txt").writeString("y");
        counter.reset();
        dir.resolve("tree").moveTo(dir.resolve("moved"));
        assertThat(counter.count("GetObject")).as(counter.toString()).isZero();
        assertThat(counter.count("PutObject")).as("only the two directory markers: " + counter).isEqualTo(2);
        assertThat(dir.resolve("moved/sub/x.txt").readString()).isEqualTo("x");
        assertThat(dir.resolve("tree").exists()).isFalse();
    }

    @Test
    void singlePartEtagIsTheMd5AndNeedsNoRead() throws Exception {
        byte[] content = "checksummed".getBytes(StandardCharsets.UTF_8);
        RemotePath f = dir.resolve("c.txt").write(content);
        String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content));
        assertThat(dir.list(dev.remotepath.spi.ListDetail.FILE_STATS).getFirst().stat().checksums())
                .containsEntry(ChecksumAlgorithm.MD5, md5);
        counter.reset();
        Checksum c = f.checksum(ChecksumAlgorithm.MD5);
        assertThat(c.hex()).isEqualTo(md5);
        assertThat(c.origin()).isNotEqualTo(Checksum.Origin.STREAMED);
        assertThat(counter.count("GetObject")).isZero();
    }

    @Test
    void largeWritesGoInBoundedPartsAndMultipartEtagsAreNotMd5() throws Exception {
        byte[] content = new byte[3 * S3Options.MIN_PART_SIZE + 12345];
        new Random(7).nextBytes(content);
        RemotePath f = dir.resolve("big.bin");
        try (OutputStream out = f.newOutputStream()) {
            for (int off = 0; off < content.length; off += 100_000) {
                out.write(content, off, Math.min(100_000, content.length - off));
            }
        }
        assertThat(counter.count("CreateMultipartUpload")).isEqualTo(1);
        assertThat(counter.count("UploadPart")).isEqualTo(4);
        assertThat(counter.count("CompleteMultipartUpload")).isEqualTo(1);
        assertThat(f.readAllBytes()).isEqualTo(content);
        assertThat(f.stat().size()).hasValue(content.length);
        String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content));
        assertThat(f.checksum(ChecksumAlgorithm.MD5).hex()).isEqualTo(md5); // streamed, never a wrong ETag
    }

    @Test
    void appendRewritesTheObjectWithTheOldContentFirst() throws Exception {
        RemotePath f = dir.resolve("log").writeString("one,");
        f.writeString("two", java.nio.file.StandardOpenOption.APPEND);
        assertThat(f.readString()).isEqualTo("one,two");
    }

    @Test
    void optionsNeverShowTheSecret() {
        S3Options o = server.options();
        assertThat(o.toString()).doesNotContain(TestS3Server.SECRET_KEY).contains(TestS3Server.ACCESS_KEY);
        assertThat(root.fileSystem().toString()).doesNotContain(TestS3Server.SECRET_KEY);
    }

    @Test
    void badUrisAreRefusedClearly() {
        assertThatThrownBy(() -> RemotePaths.get("s3://key:secret@bucket/x")).isInstanceOf(InvalidPathException.class)
                .hasMessageContaining("credentials in the URI");
        assertThatThrownBy(() -> RemotePaths.get("s3:///no-bucket")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> RemotePaths.get("s3://bucket:99/x")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> RemotePaths.get("s3://bucket/x?versionId=1")).isInstanceOf(InvalidPathException.class);
    }

    @Test
    void uriWithoutOptionsReachesTheOpenFileSystem() throws Exception {
        RemotePath f = dir.resolve("round trip.txt").writeString("same");
        RemotePath again = RemotePaths.get(f.toString());
        assertThat(again).isEqualTo(f);
        assertThat(again.readString()).isEqualTo("same");
    }

    @Test
    void overlongKeysAreRefusedBeforeAnyRequest() {
        String name = "n".repeat(250);
        RemotePath deep = dir.resolve(name + "/" + name + "/" + name + "/" + name + "/" + name);
        counter.reset();
        assertThatThrownBy(() -> deep.writeString("x")).isInstanceOf(java.nio.file.FileSystemException.class)
                .hasMessageContaining("1024 bytes");
        assertThat(counter.total()).isZero();
    }

    @Test
    void largeServerSideCopiesGoPartByPart() throws Exception {
        RemotePath small = RemotePaths.get(URI.create("s3://particular/" + prefix), server.options(b -> b
                .partSize(S3Options.MIN_PART_SIZE).multipartThreshold(S3Options.MIN_PART_SIZE)
                .multipartCopyThreshold(S3Options.MIN_PART_SIZE)
                .clientCustomizer(c -> c.overrideConfiguration(o -> o.addExecutionInterceptor(counter)))));
        try {
            byte[] content = new byte[2 * S3Options.MIN_PART_SIZE + 4321];
            new Random(11).nextBytes(content);
            RemotePath src = small.resolve("big-src.bin").write(content);
            Instant t = Instant.parse("2018-08-08T08:08:08Z");
            src.setLastModifiedTime(t);
            counter.reset();
            src.copyTo(small.resolve("big-dst.bin"));
            assertThat(counter.count("UploadPartCopy")).as(counter.toString()).isEqualTo(3);
            assertThat(counter.count("CopyObject")).isZero();
            assertThat(counter.count("GetObject")).isZero();
            assertThat(small.resolve("big-dst.bin").readAllBytes()).isEqualTo(content);
            assertThat(small.resolve("big-dst.bin").stat().lastModified()).hasValue(t);
            assertThat(raw.listMultipartUploads(l -> l.bucket("particular")).uploads()).isEmpty();
        } finally {
            small.fileSystem().close();
        }
    }
}
