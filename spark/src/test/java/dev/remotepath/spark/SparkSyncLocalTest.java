package dev.remotepath.spark;

import static dev.remotepath.spark.SparkTrees.contents;
import static dev.remotepath.spark.SparkTrees.tree;
import static dev.remotepath.spark.SparkTrees.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncRefusedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SparkSync between local trees on a {@code local[2,2]} Spark session. */
class SparkSyncLocalTest {

    static SparkContext spark;

    @TempDir
    Path temp;

    @BeforeAll
    static void start() {
        spark = SparkTrees.spark();
    }

    private static Location at(Path p) {
        return Location.of(p.toUri().toString());
    }

    private SparkSync.Builder sync(Path src, Path dst) {
        return SparkSync.builder(spark, at(src), at(dst));
    }

    @Test
    void firstSyncNoOpResyncAndChangesMatchASingleMachineRun() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 6, 4, 5);
        Path dst = temp.resolve("dst");
        SparkSyncReport first = sync(src, dst).build().run();
        assertThat(first.total().errors()).isEmpty();
        assertThat(contents(dst)).isEqualTo(contents(src));
        assertThat(first.total().filesCopied()).isEqualTo(3 + 6 + 6 * 4 * 5);
        assertThat(first.shards()).hasSizeGreaterThan(2); // cut into several shards
        assertThat(first.shards().stream().map(ShardReport::relativePath)).doesNotHaveDuplicates();

        SparkSyncReport noOp = sync(src, dst).build().run();
        assertThat(noOp.total().succeeded()).isTrue();
        assertThat(noOp.total().filesCopied()).isZero();
        assertThat(noOp.total().contentBytesRead()).isZero();
        assertThat(noOp.total().filesSkipped()).isEqualTo(first.total().filesCopied());
        long single = SparkTrees.singleNodeListings(RemotePaths.of(src), RemotePaths.of(dst), b -> b);
        assertThat(noOp.copyListings()).isEqualTo(single);

        write(src.resolve("top2/sub1/f0.bin"), "changed, and longer than before");
        write(src.resolve("top5/new.txt"), "new");
        SparkSyncReport changes = sync(src, dst).build().run();
        assertThat(changes.total().filesCopied()).isEqualTo(2);
        assertThat(contents(dst)).isEqualTo(contents(src));
    }

    @Test
    void deletionsWaitForEveryShardAndHonourAGlobalMaxDelete() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 4, 3, 3);
        Path dst = temp.resolve("dst");
        sync(src, dst).build().run();
        // Extraneous entries in four shards: 2 files, and a directory of 3 files (4 entries).
        Files.delete(src.resolve("top0/sub0/f0.bin"));
        Files.delete(src.resolve("top3/sub2/f1.bin"));
        for (int f = 0; f < 3; f++) {
            Files.delete(src.resolve("top1/sub1/f" + f + ".bin"));
        }
        Files.delete(src.resolve("top1/sub1"));
        write(dst.resolve("top2/sub0/extra.txt"), "extra");

        SparkSyncReport refused = sync(src, dst).deleteExtraneous(true).maxDelete(6).build().run();
        assertThat(refused.total().refusedForSafety()).isTrue();
        assertThat(refused.total().refusal().orElseThrow()).contains("7 deletions");
        assertThat(refused.total().filesDeleted()).isZero();
        assertThat(dst.resolve("top0/sub0/f0.bin")).exists();
        assertThat(dst.resolve("top1/sub1/f2.bin")).exists();

        SparkSyncReport done = sync(src, dst).deleteExtraneous(true).maxDelete(7).build().run();
        assertThat(done.total().succeeded()).isTrue();
        assertThat(done.total().filesDeleted()).isEqualTo(6);
        assertThat(done.total().directoriesDeleted()).isEqualTo(1);
        assertThat(contents(dst)).isEqualTo(contents(src));
        assertThat(done.shards().stream().filter(s -> s.phase() == ShardReport.Phase.DELETE)).isNotEmpty();
    }

    @Test
    void anErrorInOneShardKeepsEveryShardFromDeleting() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 3, 2, 2);
        Path dst = temp.resolve("dst");
        sync(src, dst).build().run();
        write(dst.resolve("top0/sub0/extra.txt"), "extra");
        Path unreadable = src.resolve("top2/sub1/f0.bin");
        write(unreadable, "now longer, and unreadable");
        unreadable.toFile().setReadable(false);
        try {
            SparkSyncReport r = sync(src, dst).deleteExtraneous(true).build().run();
            if (Files.isReadable(unreadable)) {
                return; // running as root: nothing is unreadable
            }
            assertThat(r.total().errors()).extracting(e -> e.relativePath()).contains("top2/sub1/f0.bin");
            assertThat(r.total().refusal().orElseThrow()).startsWith("deletions skipped");
            assertThat(dst.resolve("top0/sub0/extra.txt")).exists();
        } finally {
            unreadable.toFile().setReadable(true);
        }
    }

    @Test
    void anEmptySourceOrOverlappingRootsAreRefusedForTheWholeJob() throws Exception {
        Path src = temp.resolve("src");
        Files.createDirectories(src.resolve("a/b"));
        Path dst = temp.resolve("dst");
        write(dst.resolve("a/b/keep.txt"), "keep");
        write(dst.resolve("keep.txt"), "keep");
        assertThatThrownBy(() -> sync(src, dst).deleteExtraneous(true).build().run())
                .isInstanceOf(SyncRefusedException.class).hasMessageContaining("refusing to empty the target");
        assertThat(dst.resolve("a/b/keep.txt")).exists();
        assertThat(dst.resolve("keep.txt")).exists();

        assertThatThrownBy(() -> sync(dst, dst.resolve("a")).build().run())
                .isInstanceOf(SyncRefusedException.class).hasMessageContaining("overlap");
        assertThatThrownBy(() -> sync(temp.resolve("missing"), dst).build().run())
                .isInstanceOf(SyncRefusedException.class).hasMessageContaining("does not exist");
    }

    @Test
    void anchoredFiltersMeanTheSameInEveryShard() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 4, 3, 2);
        write(src.resolve("top1/sub2/skip.log"), "log");
        write(src.resolve("top1/keep.log"), "log");
        Path dst = temp.resolve("dst");
        write(dst.resolve("top3/sub0/local-only.txt"), "kept: excluded");
        SparkSyncReport r = sync(src, dst).exclude("/top1/sub2/*.log", "/top3/", "/top0/sub1/").deleteExtraneous(true)
                .shardsPerCore(8).build().run();
        assertThat(r.total().succeeded()).isTrue();
        assertThat(dst.resolve("top1/keep.log")).exists();
        assertThat(dst.resolve("top1/sub2/skip.log")).doesNotExist();
        assertThat(dst.resolve("top1/sub2/f0.bin")).exists();
        assertThat(dst.resolve("top3/readme.txt")).doesNotExist();
        assertThat(dst.resolve("top3/sub0/local-only.txt")).exists();
        assertThat(dst.resolve("top0/sub1")).doesNotExist();
        assertThat(dst.resolve("top0/sub0/f1.bin")).exists();
    }

    @Test
    void aWideDirectoryIsSplitByItsTaskAndNamesWithGlobCharactersStayWhole() throws Exception {
        Path src = temp.resolve("src");
        for (int d = 0; d < 12; d++) {
            write(src.resolve("wide/d" + d + "/x/f.txt"), "deep " + d);
            write(src.resolve("wide/d" + d + "/g.txt"), "g " + d);
        }
        write(src.resolve("wide/[odd]{,}*/f.txt"), "odd");
        write(src.resolve("wide/top.txt"), "top");
        Path dst = temp.resolve("dst");
        write(dst.resolve("wide/d3/x/extra.txt"), "extra");
        write(dst.resolve("wide/[odd]{,}*/extra.txt"), "extra");
        SparkSyncReport r = sync(src, dst).shardsPerCore(1).splitFanout(4).deleteExtraneous(true).build().run();
        assertThat(r.total().errors()).isEmpty();
        assertThat(contents(dst)).isEqualTo(contents(src));
        assertThat(r.total().filesDeleted()).isEqualTo(2);
        // wide's subdirectories were handed back as shards of their own
        assertThat(r.shards().stream().map(ShardReport::relativePath)).contains("wide/d0", "wide/d11", "wide/[odd]{,}*");
        assertThat(r.probeListings()).isPositive();
    }

    @Test
    void aDryRunPlansWithoutChangingAnything() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 3, 2, 2);
        Path dst = temp.resolve("dst");
        write(dst.resolve("top1/sub0/old.txt"), "old");
        List<SyncAction> plan = sync(src, dst).deleteExtraneous(true).build().plan();
        List<SyncAction> single = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true).build()
                .plan();
        assertThat(plan).extracting(a -> a.kind() + " " + a.relativePath())
                .containsExactlyInAnyOrderElementsOf(single.stream().map(a -> a.kind() + " " + a.relativePath()).toList());
        assertThat(contents(dst)).containsOnlyKeys("top1/", "top1/sub0/", "top1/sub0/old.txt");
    }

    /** Fails its first open on an executor thread: Spark runs the task again. */
    record FailsOnce(String uri, String key) implements Location {
        static final Map<String, AtomicInteger> OPENS = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        public RemotePath open() throws IOException {
            boolean executor = org.apache.spark.TaskContext.get() != null;
            if (executor && OPENS.computeIfAbsent(key, k -> new AtomicInteger()).getAndIncrement() == 0) {
                throw new java.net.ConnectException("refused once, as a restarting server would");
            }
            return RemotePaths.get(uri);
        }
    }

    @Test
    void aTaskThatFailsOnceIsRetriedAndCountedOnce() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 3, 2, 3);
        Path dst = temp.resolve("dst");
        String key = temp.toString();
        SparkSyncReport r = SparkSync.builder(spark, at(src), new FailsOnce(dst.toUri().toString(), key)).build().run();
        assertThat(r.total().succeeded()).isTrue();
        assertThat(r.total().filesCopied()).isEqualTo(3 + 3 + 3 * 2 * 3);
        assertThat(contents(dst)).isEqualTo(contents(src));
        assertThat(r.shards().stream().mapToInt(ShardReport::attempt).max().orElseThrow()).isEqualTo(1);
    }

    @Test
    void aJobCancelledMidwayLeavesNoPartialFileAndARerunCompletesTheMirror() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 4, 4, 4);
        for (int t = 0; t < 4; t++) {
            write(src.resolve("top" + t + "/big.bin"), "x".repeat(2_000_000));
        }
        Path dst = temp.resolve("dst");
        write(dst.resolve("top0/extra.txt"), "extra: only a finished job deletes it");
        Thread canceller = Thread.ofPlatform().start(() -> {
            try {
                while (!Files.exists(dst.resolve("top1")) && !Thread.currentThread().isInterrupted()) {
                    Thread.sleep(2);
                }
                spark.cancelAllJobs();
            } catch (InterruptedException e) {
                // the job ended first
            }
        });
        boolean cancelled;
        try {
            sync(src, dst).deleteExtraneous(true).bandwidthLimitPerTask(4_000_000).transfers(1).build().run();
            cancelled = false;
        } catch (IOException e) {
            assertThat(e).hasMessageContaining("nothing was deleted");
            cancelled = true;
        } finally {
            canceller.interrupt();
            canceller.join();
        }
        assertThat(dst.resolve("top0/extra.txt")).exists();
        Map<String, String> src0 = contents(src);
        for (Map.Entry<String, String> e : contents(dst).entrySet()) {
            if (!e.getKey().endsWith("/") && !e.getKey().contains(".rptmp") && !e.getKey().equals("top0/extra.txt")) {
                assertThat(e.getValue()).as(e.getKey() + " is whole").isEqualTo(src0.get(e.getKey()));
            }
        }
        SparkSyncReport rerun = sync(src, dst).deleteExtraneous(true).build().run();
        assertThat(rerun.total().succeeded()).isTrue();
        assertThat(contents(dst)).isEqualTo(contents(src));
        assertThat(cancelled || rerun.total().filesCopied() == 0).isTrue();
    }

    @Test
    void sparkSyncMainTakesRpathSyncsCommandLineAndPrintsItsJson() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 3, 2, 2);
        Path dst = temp.resolve("dst");
        write(dst.resolve("top0/extra.txt"), "extra");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SparkSyncMain.run(spark, dev.remotepath.cli.SyncCommandLine.parse(List.of(src.toString(), dst.toString(),
                "--delete", "--max-delete", "5", "--exclude", "*.tmp", "--transfers", "2")),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String json = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(json).startsWith("{\"filesCopied\":18,\"bytesCopied\":195,\"filesSkipped\":0,").contains("\"filesDeleted\":1,").doesNotContain("\n");
        assertThat(contents(dst)).isEqualTo(contents(src));

        ByteArrayOutputStream usage = new ByteArrayOutputStream();
        assertThat(SparkSyncMain.run(new String[] {src.toString()}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(usage, true, StandardCharsets.UTF_8))).isEqualTo(2);
        assertThat(usage.toString(StandardCharsets.UTF_8)).contains("DST");
    }
}
