package dev.remotepath.spark;

import static dev.remotepath.spark.SparkTrees.tree;
import static dev.remotepath.spark.SparkTrees.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What SparkSync promises for one pair of backends, on the shared {@code local[2,2]} session:
 * first sync, no-op resync (nothing copied or read, the shards' listings summed equal to a
 * single-machine run's), change detection, deletions under a global maxDelete, a task Spark
 * retries, and a job cancelled midway then run again. The source tree is written on the local
 * disk (a server serves it where the source is remote); the target is read through its backend.
 */
abstract class SparkSyncPairContract {

    static SparkContext spark;

    @TempDir
    Path temp;

    @BeforeAll
    static void startSpark() {
        spark = SparkTrees.spark();
    }

    /** The source side, reading the local directory {@code dir} (directly or through a server). */
    abstract Location source(Path dir) throws Exception;

    /** A fresh, empty target of this pair, named {@code name}. */
    abstract Location target(String name) throws Exception;

    /**
     * What the shards of a no-op resync list together, given what a single-machine run lists:
     * the same where both sides list per directory (each directory once per side).
     */
    long expectedShardListings(long singleNode, SparkSyncReport noOp) {
        return singleNode;
    }

    private static Map<String, String> files(RemotePath root) throws IOException {
        Map<String, String> all = new TreeMap<>();
        if (!root.exists()) {
            return all;
        }
        try (var walk = root.walk()) {
            for (DirEntry e : (Iterable<DirEntry>) walk::iterator) {
                if (e.isRegularFile()) {
                    all.put(root.relativize(e.path()).pathString(), new String(e.path().readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        return all;
    }

    private Map<String, String> sourceFiles(Path dir) throws Exception {
        return files(dev.remotepath.RemotePaths.of(dir));
    }

    @Test
    void firstSyncNoOpResyncAndChanges() throws Exception {
        Path dir = temp.resolve("src");
        tree(dir, 5, 3, 4);
        Location src = source(dir);
        Location dst = target("first");
        SparkSyncReport first = SparkSync.builder(spark, src, dst).build().run();
        assertThat(first.total().errors()).isEmpty();
        assertThat(first.total().filesCopied()).isEqualTo(3 + 5 + 5 * 3 * 4);
        assertThat(files(dst.open())).isEqualTo(sourceFiles(dir));

        SparkSyncReport noOp = SparkSync.builder(spark, src, dst).build().run();
        assertThat(noOp.total().succeeded()).isTrue();
        assertThat(noOp.total().filesCopied()).isZero();
        assertThat(noOp.total().contentBytesRead()).isZero();
        assertThat(noOp.total().filesSkipped()).isEqualTo(first.total().filesCopied());
        assertThat(noOp.copyListings()).isEqualTo(expectedShardListings(
                SparkTrees.singleNodeListings(src.open(), dst.open(), b -> b), noOp));

        write(dir.resolve("top3/sub2/f1.bin"), "changed, and of another size");
        write(dir.resolve("top0/new.txt"), "new");
        SparkSyncReport changes = SparkSync.builder(spark, src, dst).build().run();
        assertThat(changes.total().filesCopied()).isEqualTo(2);
        assertThat(files(dst.open())).isEqualTo(sourceFiles(dir));
    }

    @Test
    void deletionsHonourOneMaxDeleteAcrossShards() throws Exception {
        Path dir = temp.resolve("src");
        tree(dir, 4, 3, 3);
        Location src = source(dir);
        Location dst = target("delete");
        SparkSync.builder(spark, src, dst).build().run();
        Files.delete(dir.resolve("top0/sub0/f0.bin"));
        Files.delete(dir.resolve("top2/sub2/f2.bin"));
        Files.delete(dir.resolve("root-a.txt"));
        SparkSyncReport refused = SparkSync.builder(spark, src, dst).deleteExtraneous(true).maxDelete(2).build().run();
        assertThat(refused.total().refusedForSafety()).isTrue();
        assertThat(refused.total().refusal().orElseThrow()).contains("3 deletions");
        assertThat(refused.total().filesDeleted()).isZero();
        assertThat(dst.open().child("root-a.txt").exists()).isTrue();
        assertThat(dst.open().child("top0").child("sub0").child("f0.bin").exists()).isTrue();

        SparkSyncReport done = SparkSync.builder(spark, src, dst).deleteExtraneous(true).maxDelete(3).build().run();
        assertThat(done.total().succeeded()).isTrue();
        assertThat(done.total().filesDeleted()).isEqualTo(3);
        assertThat(done.total().filesSkipped()).isEqualTo(3 + 4 + 4 * 3 * 3 - 3);
        assertThat(files(dst.open())).isEqualTo(sourceFiles(dir));
    }

    /** Refuses its first open on an executor (a server restarting): Spark runs the task again. */
    record FailsOnce(Location inner, String key) implements Location {
        static final Map<String, AtomicInteger> OPENS = new ConcurrentHashMap<>();

        @Override
        public String uri() {
            return inner.uri();
        }

        @Override
        public RemotePath open() throws IOException {
            if (org.apache.spark.TaskContext.get() != null
                    && OPENS.computeIfAbsent(key, k -> new AtomicInteger()).getAndIncrement() == 0) {
                throw new java.net.ConnectException("connection refused, once");
            }
            return inner.open();
        }
    }

    @Test
    void aTaskThatFailsOnceIsRetriedAndCountedOnce() throws Exception {
        Path dir = temp.resolve("src");
        tree(dir, 3, 2, 3);
        Location dst = target("retried");
        SparkSyncReport r = SparkSync.builder(spark, source(dir), new FailsOnce(dst, temp.toString())).build().run();
        assertThat(r.total().succeeded()).isTrue();
        assertThat(r.total().filesCopied()).isEqualTo(3 + 3 + 3 * 2 * 3);
        assertThat(r.shards().stream().mapToInt(ShardReport::attempt).max().orElseThrow()).isEqualTo(1);
        assertThat(files(dst.open())).isEqualTo(sourceFiles(dir));
    }

    @Test
    void aJobCancelledMidwayIsCompletedByARerunWithNoPartialFile() throws Exception {
        Path dir = temp.resolve("src");
        tree(dir, 4, 3, 3);
        for (int t = 0; t < 4; t++) {
            write(dir.resolve("top" + t + "/big.bin"), "x".repeat(1_500_000));
        }
        Location src = source(dir);
        Location dst = target("cancelled");
        RemotePath dstRoot = dst.open();
        // An extraneous file: only a job that finished every copy may delete it.
        dstRoot.createDirectories().child("extra.txt").writeString("extra");
        Thread canceller = Thread.ofPlatform().start(() -> {
            try {
                while (files(dstRoot).size() < 6) {
                    Thread.sleep(2);
                }
                spark.cancelAllJobs();
            } catch (InterruptedException | IOException e) {
                // the job ended first
            }
        });
        boolean cancelled = false;
        try {
            SparkSync.builder(spark, src, dst).deleteExtraneous(true).bandwidthLimitPerTask(3_000_000).transfers(1).build()
                    .run();
        } catch (IOException e) {
            assertThat(e).hasMessageContaining("nothing was deleted");
            cancelled = true;
        } finally {
            canceller.interrupt();
            canceller.join();
        }
        Map<String, String> expected = sourceFiles(dir);
        for (Map.Entry<String, String> e : files(dstRoot).entrySet()) {
            if (!e.getKey().contains(".rptmp") && !e.getKey().equals("extra.txt")) {
                assertThat(e.getValue()).as(e.getKey() + " is whole").isEqualTo(expected.get(e.getKey()));
            }
        }
        if (cancelled) {
            assertThat(dstRoot.child("extra.txt").exists()).isTrue();
        }
        SparkSyncReport rerun = SparkSync.builder(spark, src, dst).deleteExtraneous(true).build().run();
        assertThat(rerun.total().succeeded()).isTrue();
        assertThat(files(dstRoot)).isEqualTo(expected);
    }
}
