package dev.remotepath.spark;

import dev.remotepath.FileSystemCall;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ObservedFileSystem;
import dev.remotepath.syncer.PathSyncer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/** Trees, a shared Spark session and single-machine baselines for the spark module's tests. */
final class SparkTrees {

    private SparkTrees() {
    }

    private static SparkContext spark;

    /**
     * One {@code local[2,2]} session for every test class (two cores; a failed task is tried once
     * more), on 127.0.0.1 with no UI: starting Spark costs seconds, so it is made once.
     */
    static synchronized SparkContext spark() {
        if (spark == null) {
            SparkConf conf = new SparkConf().setMaster("local[2,2]").setAppName("remotepath-spark-tests")
                    .set("spark.ui.enabled", "false").set("spark.driver.host", "127.0.0.1")
                    .set("spark.driver.bindAddress", "127.0.0.1").set("spark.sql.shuffle.partitions", "2");
            spark = SparkContext.getOrCreate(conf);
        }
        return spark;
    }

    /**
     * {@code top} directories of {@code sub} subdirectories of {@code files} files each, plus
     * three files at the root and one file per top directory: contents name their path.
     */
    static void tree(Path root, int top, int sub, int files) throws IOException {
        write(root.resolve("root-a.txt"), "root a");
        write(root.resolve("root-b.txt"), "root b");
        write(root.resolve("root c [x].txt"), "root c");
        for (int t = 0; t < top; t++) {
            Path dir = root.resolve("top" + t);
            write(dir.resolve("readme.txt"), "top " + t);
            for (int s = 0; s < sub; s++) {
                for (int f = 0; f < files; f++) {
                    write(dir.resolve("sub" + s).resolve("f" + f + ".bin"), "file " + t + "/" + s + "/" + f + " ".repeat(f * 7));
                }
            }
        }
    }

    static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    /** Every file below {@code root} by its relative path, with its content. */
    static Map<String, String> contents(Path root) throws IOException {
        Map<String, String> all = new TreeMap<>();
        if (!Files.exists(root)) {
            return all;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p)) {
                    all.put(root.relativize(p).toString().replace('\\', '/'), Files.readString(p, StandardCharsets.UTF_8));
                } else if (Files.isDirectory(p) && !p.equals(root)) {
                    all.put(root.relativize(p).toString().replace('\\', '/') + "/", "");
                }
            }
        }
        return all;
    }

    /** The listings a single-machine {@link PathSyncer} run makes with {@code options} between two roots. */
    static long singleNodeListings(RemotePath source, RemotePath target, java.util.function.UnaryOperator<PathSyncer.Builder> options)
            throws IOException {
        AtomicLong listings = new AtomicLong();
        FileSystemEvents count = new FileSystemEvents() {
            @Override
            public void started(FileSystemCall call) {
                if (call.operation() == FileSystemCall.Operation.LIST || call.operation() == FileSystemCall.Operation.LIST_TREE) {
                    listings.incrementAndGet();
                }
            }
        };
        options.apply(PathSyncer.builder(ObservedFileSystem.observe(source, count), ObservedFileSystem.observe(target, count)))
                .build().run();
        return listings.get();
    }
}
