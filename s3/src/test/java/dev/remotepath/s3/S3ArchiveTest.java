package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.archive.ArchiveFileSystem;
import dev.remotepath.archive.NewArchiveFileSystem;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.ZipFixtures;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archive paths over S3 (docs/archives.md), counted at the wire: one entry of a 32 MiB zip is
 * a HEAD and two ranged GETs; a tar.gz on S3 is indexed and mirrored in one GET.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3ArchiveTest {

    private TestS3Server server;
    private final RequestCounter counter = new RequestCounter();
    private RemotePath bucket;

    @TempDir
    Path tmp;

    @BeforeAll
    void start() throws Exception {
        server = new TestS3Server();
        server.createBucket("archives");
        bucket = RemotePaths.get(URI.create("s3://archives/"),
                server.options(b -> b.clientCustomizer(c -> c.overrideConfiguration(o -> o.addExecutionInterceptor(counter)))));
    }

    @AfterAll
    void stop() throws Exception {
        bucket.fileSystem().close();
        server.close();
    }

    @BeforeEach
    void resetCounts() {
        counter.reset();
    }

    @Test
    void oneEntryOfALargeZipIsAFewRangedGets() throws Exception {
        RemotePath zip = bucket.resolve("big.zip").write(ZipFixtures.bulkThenReadme(new byte[32 << 20], "read me"));
        counter.reset();
        ArchiveFileSystem fs = ArchiveFileSystem.zip(zip);
        assertThat(fs.path("/").list()).hasSize(2);
        assertThat(fs.path("/docs/readme.txt").readString()).isEqualTo("read me");
        assertThat(counter.count("GetObject")).as(counter.toString()).isEqualTo(2); // tail; local header and data
        assertThat(counter.count("HeadObject")).as(counter.toString()).isEqualTo(1);
        assertThat(counter.total()).as(counter.toString()).isEqualTo(3);
    }

    @Test
    void aTarOnS3IsIndexedInOneGetAndMirrored() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("src/docs"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Files.writeString(tmp.resolve("src/b.txt"), "bravo");
        Path tgz = tmp.resolve("site.tgz");
        Process p = new ProcessBuilder("tar", "-czf", tgz.toString(), "-C", tmp.resolve("src").toString(), ".")
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(log).isZero();
        RemotePath archive = bucket.resolve("site.tgz").write(Files.readAllBytes(tgz));
        counter.reset();
        ArchiveFileSystem fs = ArchiveFileSystem.tar(archive);
        assertThat(counter.count("GetObject")).as(counter.toString()).isEqualTo(1);
        RemotePath target = RemotePaths.get("mem://s3-archive-" + UUID.randomUUID() + "/out");
        SyncReport first = PathSyncer.builder(fs.path("/"), target).build().run();
        assertThat(first.succeeded()).as(first.toString()).isTrue();
        assertThat(first.filesCopied()).isEqualTo(2);
        assertThat(target.resolve("docs/a.txt").readString()).isEqualTo("alpha");
        // decompressed into a local copy as it was indexed: the entries cost no request
        assertThat(counter.count("GetObject")).as(counter.toString()).isEqualTo(1);
        counter.reset();
        SyncReport again = PathSyncer.builder(fs.path("/"), target).build().run();
        assertThat(again.filesCopied()).isZero();
        assertThat(counter.total()).as("a no-op reads nothing of the archive: " + counter).isZero();
    }

    @Test
    void aNewZipIsUploadedWholeOnCloseAndNothingOnAbort() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("new/docs"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        byte[] big = new byte[12 << 20]; // a multipart upload at the S3 backend's part size
        new java.util.Random(7).nextBytes(big);
        Files.write(tmp.resolve("new/big.bin"), big);
        NewArchiveFileSystem zip = NewArchiveFileSystem.zip(bucket.resolve("new.zip"));
        SyncReport report = PathSyncer.builder(RemotePaths.of(tmp.resolve("new")), zip.path("/")).build().run();
        assertThat(report.succeeded()).as(report.toString()).isTrue();
        assertThat(bucket.resolve("new.zip").exists()).as("not visible before close").isFalse();
        zip.close();
        RemotePath read = ArchiveFileSystem.zip(bucket.resolve("new.zip")).path("/");
        assertThat(read.resolve("docs/a.txt").readString()).isEqualTo("alpha");
        assertThat(read.resolve("big.bin").readAllBytes()).isEqualTo(big);
        SyncReport again = PathSyncer.builder(RemotePaths.of(tmp.resolve("new")), read).build().run();
        assertThat(again.filesCopied()).as(again.toString()).isZero();

        NewArchiveFileSystem aborted = NewArchiveFileSystem.tar(bucket.resolve("aborted.tar"));
        aborted.path("/big.bin").write(big);
        assertThat(aborted.abort()).isTrue();
        assertThat(bucket.resolve("aborted.tar").exists()).isFalse();
        assertThat(bucket.list().stream().map(dev.remotepath.DirEntry::name)).doesNotContain("aborted.tar");
    }

    @Test
    void aZipOfManySmallEntriesIsSyncedOutInAFewReadsAhead() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.util.Random random = new java.util.Random(13);
        byte[][] contents = new byte[300][];
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(bytes)) {
            for (int i = 0; i < contents.length; i++) {
                contents[i] = new byte[1024];
                random.nextBytes(contents[i]);
                zip.putNextEntry(new java.util.zip.ZipEntry(String.format("d/f%03d.bin", i)));
                zip.write(contents[i]);
                zip.closeEntry();
            }
        }
        RemotePath archive = bucket.resolve("many.zip").write(bytes.toByteArray());
        counter.reset();
        RemotePath target = RemotePaths.get("mem://s3-zip-many-" + UUID.randomUUID() + "/out");
        SyncReport r = PathSyncer.builder(ArchiveFileSystem.zip(archive).path("/"), target).build().run();
        assertThat(r.filesCopied()).as(r.toString()).isEqualTo(300);
        for (int i : new int[] {0, 150, 299}) {
            assertThat(target.resolve(String.format("d/f%03d.bin", i)).readAllBytes()).isEqualTo(contents[i]);
        }
        // the directory, then windows that double while the reads go forward: not a GET an entry
        // (6 when the 4 transfers read in order; parallel readers out of order cost a few more)
        assertThat(counter.count("GetObject")).as(counter.toString()).isLessThanOrEqualTo(20);
    }
}
