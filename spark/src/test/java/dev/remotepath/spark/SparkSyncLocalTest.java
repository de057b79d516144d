package dev.remotepath.spark;

import static dev.remotepath.spark.SparkTrees.contents;
import static dev.remotepath.spark.SparkTrees.tree;
import static dev.remotepath.spark.SparkTrees.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncRefusedException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SparkSync's own rules between local trees on a {@code local[2,2]} session (the pair contract,
 * {@link SparkSyncPairContract}, covers the rest): errors, refusals, filters across shards,
 * splitting, dry runs and SparkSyncMain.
 */
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
    void aLinkPutWhereAShardsDirectoryWasListedIsNotSyncedThrough() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 2, 2, 2);
        Path dst = temp.resolve("dst");
        Path outside = Files.createDirectories(temp.resolve("outside"));
        write(outside.resolve("keep.txt"), "outside the target");
        Files.createDirectories(dst);
        // As if the target's top1 became a link between the driver's cut and the task's run.
        Files.createSymbolicLink(dst.resolve("top1"), outside);
        SyncSettings settings = new SyncSettings(dev.remotepath.syncer.Comparison.QUICK_CHECK, true, Long.MAX_VALUE,
                false, List.of(), List.of(), dev.remotepath.syncer.SymlinkPolicy.SKIP, 4, 8, -1, false, 0);
        ShardOutcome o = new ShardTask(at(src), at(dst), settings, ShardReport.Phase.COPY, 64)
                .call(new ShardTask.Work(Shard.subtree("top1/sub0", false), 0));
        assertThat(o.errors()).singleElement().satisfies(e -> assertThat(e.message()).contains("symbolic link"));
        assertThat(o.counts()[ShardOutcome.FILES_COPIED]).isZero();
        assertThat(contents(outside)).containsOnlyKeys("keep.txt");
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
