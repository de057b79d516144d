package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.jclouds.blobstore.domain.Blob;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the S3 backend asks the store, counted by an SDK interceptor: listings page by 1000
 * and never HEAD per object, recursive deletes batch by 1000, a no-op sync reads nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3RequestCountTest {

    private TestS3Server server;
    private final RequestCounter counter = new RequestCounter();
    private RemotePath bucket;

    @BeforeAll
    void start() throws Exception {
        server = new TestS3Server();
        server.createBucket("counted");
        bucket = RemotePaths.get(URI.create("s3://counted/"),
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

    /** Puts objects straight into the server's store: seeding is not what is counted. */
    private void seed(String prefix, int n) {
        for (int i = 0; i < n; i++) {
            Blob blob = server.blobStore.blobBuilder(prefix + "f" + i).payload(("object " + i).getBytes(StandardCharsets.UTF_8))
                    .build();
            server.blobStore.putBlob("counted", blob);
        }
    }

    @Test
    void theMultipartThresholdIsTheLargestSinglePut() throws Exception {
        // Defaults: 16 MiB threshold, 8 MiB parts (docs/s3.md).
        byte[] content = new byte[16 * 1024 * 1024];
        new java.util.Random(16).nextBytes(content);
        bucket.resolve("sizes/exactly-16.bin").write(content);
        assertThat(counter.count("PutObject")).as(counter.toString()).isEqualTo(1);
        assertThat(counter.count("CreateMultipartUpload")).as(counter.toString()).isZero();
        counter.reset();
        byte[] larger = java.util.Arrays.copyOf(content, 20 * 1024 * 1024);
        bucket.resolve("sizes/twenty.bin").write(larger);
        assertThat(counter.count("PutObject")).as(counter.toString()).isZero();
        assertThat(counter.count("CreateMultipartUpload")).as(counter.toString()).isEqualTo(1);
        assertThat(counter.count("UploadPart")).as("8 + 8 + 4 MiB: " + counter).isEqualTo(3);
        assertThat(bucket.resolve("sizes/twenty.bin").readAllBytes()).isEqualTo(larger);
        counter.reset();
        bucket.resolve("sizes/one-more.bin").write(java.util.Arrays.copyOf(content, 16 * 1024 * 1024 + 1));
        assertThat(counter.count("CreateMultipartUpload")).as(counter.toString()).isEqualTo(1);
        assertThat(counter.count("UploadPart")).as(counter.toString()).isEqualTo(3);
    }

    @Test
    void writingUnderANewPrefixNeedsNoParentAndChecksItsAncestorsOnce() throws Exception {
        counter.reset();
        bucket.resolve("fresh/prefix/first.txt").writeString("1");
        // A HEAD per ancestor (none of them may be a file) on top of an ordinary write's
        // requests; one PUT, and no marker for the new prefixes.
        int perWrite = counter.count("HeadObject") - 2;
        assertThat(counter.count("PutObject")).as(counter.toString()).isEqualTo(1);
        counter.reset();
        for (int i = 0; i < 10; i++) {
            bucket.resolve("fresh/prefix/more-" + i + ".txt").writeString("x");
        }
        assertThat(counter.count("HeadObject")).as("the prefixes are known now: " + counter).isEqualTo(10 * perWrite);
        assertThat(counter.count("PutObject")).isEqualTo(10);
        assertThat(bucket.resolve("fresh").isDirectory()).isTrue();
    }

    @Test
    void listing10kObjectsTakesTenPagesAndNoHead() throws Exception {
        seed("ten-k/", 10_000);
        counter.reset();
        List<DirEntry> entries = bucket.resolve("ten-k").list(ListDetail.FILE_STATS);
        assertThat(entries).hasSize(10_000);
        assertThat(entries).allSatisfy(e -> {
            assertThat(e.stat().size()).isPresent();
            assertThat(e.stat().storedAt()).isPresent();
        });
        assertThat(counter.count("ListObjectsV2")).as(counter.toString()).isEqualTo(10);
        assertThat(counter.count("HeadObject")).as(counter.toString()).isZero();
        assertThat(counter.total()).as(counter.toString()).isEqualTo(10);
    }

    @Test
    void walkingATreeListsEachDirectoryOnceAndHeadsNothing() throws Exception {
        // (A walk lists per directory: it is lazy and may stop early; the syncer and rm -r list flat.)
        for (int d = 0; d < 5; d++) {
            seed("walked/d" + d + "/", 20);
            seed("walked/d" + d + "/sub/", 3);
        }
        counter.reset();
        long files = bucket.resolve("walked").walk().filter(DirEntry::isRegularFile).count();
        assertThat(files).isEqualTo(5 * 23);
        assertThat(counter.count("HeadObject")).as(counter.toString()).isZero();
        assertThat(counter.count("GetObject")).as(counter.toString()).isZero();
        assertThat(counter.count("ListObjectsV2")).as(counter.toString()).isEqualTo(1 + 5 + 5);
    }

    @Test
    void deleting2500ObjectsTakesThreeBatchesAndTheMarker() throws Exception {
        seed("doomed/", 2_500);
        counter.reset();
        bucket.resolve("doomed").deleteRecursively();
        // Three batches of 1,000 objects at most, then the directory's marker (deleted whether or
        // not a listing showed it: some stores leave a prefix's own marker out of its listing).
        assertThat(counter.count("DeleteObjects")).as(counter.toString()).isEqualTo(4);
        assertThat(counter.count("DeleteObject")).as(counter.toString()).isZero();
        assertThat(counter.count("HeadObject")).as("only the start is stat'ed: " + counter).isEqualTo(1);
        assertThat(counter.count("ListObjectsV2")).as("the start's stat, one flat listing of 1,000 keys a page, the "
                + "emptiness check before the marker goes: " + counter).isEqualTo(1 + 3 + 1);
        assertThat(server.blobStore.list("counted", org.jclouds.blobstore.options.ListContainerOptions.Builder
                .inDirectory("doomed"))).isEmpty();
        assertThat(bucket.resolve("doomed").exists()).isFalse();
    }

    @Test
    void noOpSyncFromLocalMakesNoGetAndNoHeadPerObject() throws Exception {
        Path local = Files.createTempDirectory("rp-s3-sync-");
        try {
            int n = 300;
            Instant old = Instant.parse("2024-01-02T03:04:05.123456789Z");
            for (int i = 0; i < n; i++) {
                Path f = local.resolve("d" + (i % 3)).resolve("file-" + i + ".txt");
                Files.createDirectories(f.getParent());
                Files.writeString(f, "content " + i);
                Files.setLastModifiedTime(f, FileTime.from(old));
            }
            // Quick-check into S3 skips a HEAD only when the source's ctime is more than S3's one
            // second before the upload: a tree written the moment before would be HEADed (safely).
            Thread.sleep(2100);
            RemotePath source = RemotePaths.get(local.toUri());
            RemotePath target = bucket.resolve("mirror");
            SyncReport first = PathSyncer.builder(source, target).build().run();
            assertThat(first.succeeded()).as(first.errors().toString()).isTrue();
            assertThat(first.filesCopied()).isEqualTo(n);
            assertThat(counter.count("PutObject") - 4).as("one PUT per file (and per directory marker): " + counter)
                    .isEqualTo(n);
            assertThat(counter.count("CopyObject")).as("the mtime goes with the upload, not in a second request")
                    .isZero();
            assertThat(counter.count("ListObjectsV2") + counter.count("HeadObject"))
                    .as("no probe per written file in directories created or listed here: " + counter).isLessThan(20);
            assertThat(target.resolve("d1/file-1.txt").stat().lastModified()).hasValue(old);

            counter.reset();
            SyncReport again = PathSyncer.builder(source, target).build().run();
            assertThat(again.succeeded()).isTrue();
            assertThat(again.filesCopied()).isZero();
            assertThat(again.filesSkipped()).isEqualTo(n);
            assertThat(counter.count("GetObject")).as(counter.toString()).isZero();
            assertThat(counter.count("HeadObject")).as(counter.toString()).isZero();
            // One flat listing of the 304 keys (files and directory markers): one page.
            assertThat(counter.total()).as("one flat listing page: " + counter).isEqualTo(1);
            assertThat(counter.count("ListObjectsV2")).isEqualTo(1);

            // Back out of S3 into an empty directory: one GET per file, its mtime from the response.
            Path back = Files.createTempDirectory("rp-s3-back-");
            try {
                counter.reset();
                SyncReport down = PathSyncer.builder(target, RemotePaths.get(back.toUri())).build().run();
                assertThat(down.filesCopied()).isEqualTo(n);
                assertThat(counter.count("GetObject")).isEqualTo(n);
                assertThat(counter.count("HeadObject")).as(counter.toString()).isZero();
                assertThat(Files.getLastModifiedTime(back.resolve("d2/file-2.txt")).toInstant()).isEqualTo(old);
            } finally {
                LocalTrees.delete(back);
            }

            // A changed source file is still seen: newer mtime, same size.
            Path changed = local.resolve("d0/file-0.txt");
            Files.writeString(changed, "CONTENT 0");
            Files.setLastModifiedTime(changed, FileTime.from(Instant.now().plusSeconds(5)));
            SyncReport third = PathSyncer.builder(source, target).build().run();
            assertThat(third.filesCopied()).isEqualTo(1);
            assertThat(target.resolve("d0/file-0.txt").readString()).isEqualTo("CONTENT 0");
        } finally {
            LocalTrees.delete(local);
        }
    }

    /**
     * The T1 shape at a quarter of its size: a no-op sync of 2,500 files in 50 directories into
     * S3 is one flat listing and nothing else. Its first page of 1,000 keys reaches below the
     * first level, so it goes on by the first level: one delimited page, then each of the 50
     * directories flat (52 requests, eight at once); page after page it is 3 requests in a row
     * ({@code flatListingsByFirstLevel(false)}), per directory 51. With the filters pruning a
     * directory, the walk lists per directory again (and skips the pruned one); with a budget
     * smaller than the tree, too.
     */
    @Test
    void aNoOpSyncIsOneFlatListingOfAThousandKeysAPage() throws Exception {
        Path local = Files.createTempDirectory("rp-s3-flat-");
        try {
            int n = 2_500;
            for (int i = 0; i < n; i++) {
                Path f = local.resolve("d" + (i % 50)).resolve("file-" + i + ".txt");
                Files.createDirectories(f.getParent());
                Files.writeString(f, "content " + i);
            }
            Thread.sleep(2100); // stored after the source's ctime (by more than S3's one second)
            for (int i = 0; i < n; i++) {
                Blob blob = server.blobStore.blobBuilder("flat/d" + (i % 50) + "/file-" + i + ".txt")
                        .payload(("content " + i).getBytes(StandardCharsets.UTF_8)).build();
                server.blobStore.putBlob("counted", blob);
            }
            RemotePath source = RemotePaths.get(local.toUri());
            RemotePath target = bucket.resolve("flat");
            counter.reset();
            SyncReport r = PathSyncer.builder(source, target).build().run();
            assertThat(r.succeeded()).as(r.errors().toString()).isTrue();
            assertThat(r.filesSkipped()).isEqualTo(n);
            assertThat(r.filesCopied()).isZero();
            assertThat(counter.count("ListObjectsV2")).as(counter.toString()).isEqualTo(1 + 1 + 50);
            assertThat(counter.total()).as(counter.toString()).isEqualTo(1 + 1 + 50);

            // Page after page: three requests in a row.
            RemotePath pageByPage = RemotePaths.get(URI.create("s3://counted/flat"), server.options(b -> b
                    .flatListingsByFirstLevel(false)
                    .clientCustomizer(c -> c.overrideConfiguration(o -> o.addExecutionInterceptor(counter)))));
            counter.reset();
            assertThat(PathSyncer.builder(source, pageByPage).build().run().filesSkipped()).isEqualTo(n);
            assertThat(counter.total()).as(counter.toString()).isEqualTo(3);
            counter.reset();
            SyncReport smallPaged = PathSyncer.builder(source, pageByPage).flatListingBudget(1_000).build().run();
            assertThat(smallPaged.filesSkipped()).isEqualTo(n);
            assertThat(counter.count("ListObjectsV2")).as("a page past the budget, then per directory: " + counter)
                    .isEqualTo(2 + 1 + 50);
            pageByPage.fileSystem().close();

            counter.reset();
            SyncReport pruned = PathSyncer.builder(source, target).exclude("d7/").build().run();
            assertThat(pruned.filesSkipped()).isEqualTo(n - 50);
            assertThat(counter.count("ListObjectsV2")).as("per directory, d7 not at all: " + counter).isEqualTo(1 + 49);

            // A store told to list per directory (S3Options.flatListings(false)): 1 + 50, as before flat listings.
            RemotePath perDirectory = RemotePaths.get(URI.create("s3://counted/flat"), server.options(b -> b.flatListings(false)
                    .clientCustomizer(c -> c.overrideConfiguration(o -> o.addExecutionInterceptor(counter)))));
            counter.reset();
            assertThat(PathSyncer.builder(source, perDirectory).build().run().filesSkipped()).isEqualTo(n);
            assertThat(counter.count("ListObjectsV2")).as(counter.toString()).isEqualTo(1 + 50);
            perDirectory.fileSystem().close();

            counter.reset();
            SyncReport small = PathSyncer.builder(source, target).flatListingBudget(1_000).build().run();
            assertThat(small.filesSkipped()).isEqualTo(n);
            // The first page, the delimited one, directories fetched ahead until the budget ran
            // out (how many had gone out by then depends on timing), then per directory.
            assertThat(counter.count("ListObjectsV2")).as("past the budget, then per directory: " + counter)
                    .isBetween(2 + 21 + 1 + 50, 2 + 50 + 1 + 50);
        } finally {
            LocalTrees.delete(local);
        }
    }

    /**
     * A same-size edit whose mtime is set back to before the upload (a restore, {@code cp -p} of
     * an older file): the storage time alone would call it unchanged. The default sees it (the
     * ctime moved, so the object is HEADed and its stored mtime compared); the explicit fast
     * rule, {@code useServerModtime}, misses it, as rclone's {@code --use-server-modtime} does.
     */
    @Test
    void aBackdatedSameSizeEditIsCopiedByDefaultAndMissedOnlyByTheServerModtimeRule() throws Exception {
        Path local = Files.createTempDirectory("rp-s3-backdated-");
        try {
            Path f = Files.writeString(local.resolve("f.txt"), "version 1");
            Instant old = Instant.parse("2020-01-01T00:00:00Z");
            Files.setLastModifiedTime(f, FileTime.from(old));
            Thread.sleep(2100); // the ctime well before the upload, so that only the edit below counts
            RemotePath source = RemotePaths.get(local.toUri());
            RemotePath target = bucket.resolve("backdated");
            PathSyncer.builder(source, target).build().run();
            counter.reset();
            assertThat(PathSyncer.builder(source, target).build().run().filesCopied()).isZero();
            assertThat(counter.count("HeadObject")).as("unchanged since the upload, by its ctime").isZero();

            Files.writeString(f, "version 2"); // same size
            Files.setLastModifiedTime(f, FileTime.from(old.plusSeconds(60))); // and an mtime from before the upload
            assertThat(PathSyncer.builder(source, target).useServerModtime(true).build().run().filesCopied()).isZero();
            assertThat(target.resolve("f.txt").readString()).isEqualTo("version 1");
            counter.reset();
            SyncReport byDefault = PathSyncer.builder(source, target).build().run();
            assertThat(byDefault.filesCopied()).isEqualTo(1);
            assertThat(counter.count("HeadObject")).as("one HEAD: the changed file's stored mtime").isEqualTo(1);
            assertThat(target.resolve("f.txt").readString()).isEqualTo("version 2");
            assertThat(target.resolve("f.txt").stat().lastModified()).hasValue(old.plusSeconds(60));
        } finally {
            LocalTrees.delete(local);
        }
    }
}
