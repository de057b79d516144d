package dev.remotepath.spark;

import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/**
 * The {@code spark} benchmark suite (benchmarks/spark/suite.sh): SparkSync on {@code local[N]}
 * against single-machine PathSyncer in one process, samples interleaved, on T1 (10,000 files of
 * 0-8 KiB in 100 directories) and a tree of 10^5 files (1,000 directories); first sync and no-op
 * resync, local to local. Prints medians, ratios, the job's overhead and the shards' balance.
 * A main, not a test: figures are never asserted by the build.
 */
public final class SparkSyncBenchmark {

    private SparkSyncBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int samples = 5;
        String master = "local[2]";
        Path work = Path.of("target/spark-bench");
        List<String> trees = new ArrayList<>(List.of("t1", "100k"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--samples" -> samples = Integer.parseInt(args[++i]);
                case "--master" -> master = args[++i];
                case "--work" -> work = Path.of(args[++i]);
                case "--trees" -> trees = List.of(args[++i].split(","));
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (--samples N, --master local[N], --work DIR, --trees t1,100k)");
            }
        }
        SparkContext spark = SparkContext.getOrCreate(new SparkConf().setMaster(master).setAppName("spark-bench")
                .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1"));
        System.out.println("# SparkSync vs PathSyncer, " + master + ", " + samples + " samples each, interleaved; "
                + Runtime.getRuntime().availableProcessors() + " cores; Java " + Runtime.version());
        try {
            for (String tree : trees) {
                Path src = work.resolve("src-" + tree);
                if (!Files.isDirectory(src)) {
                    switch (tree) {
                        case "t1" -> build(src, 100, 1, 100, 8192);
                        case "100k" -> build(src, 100, 10, 100, 1024);
                        default -> throw new IllegalArgumentException("tree t1 or 100k: " + tree);
                    }
                }
                measure(spark, tree, src, work, samples);
            }
        } finally {
            spark.stop();
        }
    }

    /** {@code top} directories of {@code sub} subdirectories (1: none) of {@code files} files of 0..maxSize bytes. */
    static void build(Path root, int top, int sub, int files, int maxSize) throws IOException {
        Random random = new Random(42);
        for (int t = 0; t < top; t++) {
            for (int s = 0; s < sub; s++) {
                Path dir = sub == 1 ? root.resolve("d" + t) : root.resolve("d" + t).resolve("s" + s);
                Files.createDirectories(dir);
                for (int f = 0; f < files; f++) {
                    byte[] content = new byte[random.nextInt(maxSize + 1)];
                    random.nextBytes(content);
                    Files.write(dir.resolve("f" + f + ".bin"), content);
                }
            }
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static void measure(SparkContext spark, String tree, Path src, Path work, int samples) throws Exception {
        Path single = work.resolve("dst-single-" + tree);
        Path sharded = work.resolve("dst-spark-" + tree);
        long[][] nanos = new long[4][samples];
        SparkSyncReport lastFirst = null;
        SparkSyncReport lastNoOp = null;
        for (int i = -1; i < samples; i++) { // -1: warm-up, not recorded
            delete(single);
            delete(sharded);
            long t0 = System.nanoTime();
            SyncReport a = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(single)).build().run();
            long t1 = System.nanoTime();
            SparkSyncReport b = SparkSync.builder(spark, Location.of(src.toUri().toString()),
                    Location.of(sharded.toUri().toString())).build().run();
            long t2 = System.nanoTime();
            SyncReport c = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(single)).build().run();
            long t3 = System.nanoTime();
            SparkSyncReport d = SparkSync.builder(spark, Location.of(src.toUri().toString()),
                    Location.of(sharded.toUri().toString())).build().run();
            long t4 = System.nanoTime();
            if (!a.succeeded() || !b.total().succeeded() || c.filesCopied() != 0 || d.total().filesCopied() != 0
                    || a.filesCopied() != b.total().filesCopied()) {
                throw new IllegalStateException("runs disagree: " + a + " / " + b.total() + " / " + c + " / " + d.total());
            }
            if (i >= 0) {
                nanos[0][i] = t1 - t0;
                nanos[1][i] = t2 - t1;
                nanos[2][i] = t3 - t2;
                nanos[3][i] = t4 - t3;
                lastFirst = b;
                lastNoOp = d;
            }
        }
        String[] names = {"first sync, PathSyncer", "first sync, SparkSync", "no-op resync, PathSyncer", "no-op resync, SparkSync"};
        System.out.println("## tree " + tree + " (" + lastFirst.total().filesCopied() + " files)");
        for (int k = 0; k < 4; k++) {
            long[] n = nanos[k].clone();
            Arrays.sort(n);
            System.out.printf("%-26s median %8.1f ms  (min %8.1f, max %8.1f)%n", names[k], n[n.length / 2] / 1e6, n[0] / 1e6,
                    n[n.length - 1] / 1e6);
        }
        System.out.printf("ratio PathSyncer/SparkSync: first %.2fx, no-op %.2fx (above 1: SparkSync faster)%n",
                median(nanos[0]) / median(nanos[1]), median(nanos[2]) / median(nanos[3]));
        balance("first sync", lastFirst);
        balance("no-op resync", lastNoOp);
    }

    private static double median(long[] n) {
        long[] s = n.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** The shards' task times, and the job's time outside them (planning, scheduling, rounds). */
    private static void balance(String what, SparkSyncReport r) {
        long[] tasks = r.shards().stream().mapToLong(s -> s.report().duration().toMillis()).sorted().toArray();
        long sum = Arrays.stream(tasks).sum();
        System.out.printf("%s: %d shards, task ms min %d / median %d / max %d, sum %d; job %d ms; listings: shards %d "
                        + "(copy phase), driver %d, split probes %d%n", what, tasks.length, tasks[0], tasks[tasks.length / 2],
                tasks[tasks.length - 1], sum, r.total().duration().toMillis(), r.copyListings(), r.plannedListings(),
                r.probeListings());
    }
}
