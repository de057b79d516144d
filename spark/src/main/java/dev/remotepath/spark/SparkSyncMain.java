package dev.remotepath.spark;

import dev.remotepath.RemotePath;
import dev.remotepath.cli.SyncCommandLine;
import dev.remotepath.syncer.SyncRefusedException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/**
 * {@code spark-submit ... dev.remotepath.spark.SparkSyncMain SRC DST [options]}: a
 * {@link SparkSync} with {@code rpath sync}'s options and backend flags, printing its report as
 * {@code rpath sync --json}'s one line and exiting as rpath does (0, 1 some failed, 2 usage,
 * 3 refused for safety). The master comes from Spark's configuration ({@code --master} of
 * spark-submit, {@code spark.master}), or {@code --master URL} among the arguments.
 * Spark's options: {@code spark.remotepath.sync.shardsPerCore} (4) and
 * {@code spark.remotepath.sync.splitFanout} (64).
 */
public final class SparkSyncMain {

    private SparkSyncMain() {
    }

    /** A side of the sync as executors open it: the URI with the command line's backend flags. */
    record CommandLineLocation(String uri, SyncCommandLine line) implements Location {
        CommandLineLocation {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(line, "line");
        }

        @Override
        public RemotePath open() throws IOException {
            return line.open(uri);
        }

        @Override
        public String toString() {
            return uri;
        }
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the job; the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        String master = null;
        for (int i = 0; i < rest.size(); i++) {
            String a = rest.get(i);
            if (a.equals("--master") && i + 1 < rest.size()) {
                master = rest.remove(i + 1);
                rest.remove(i);
                i--;
            } else if (a.startsWith("--master=")) {
                master = a.substring("--master=".length());
                rest.remove(i);
                i--;
            }
        }
        SyncCommandLine line;
        try {
            line = SyncCommandLine.parse(rest);
        } catch (IllegalArgumentException e) {
            err.println("SparkSyncMain: " + e.getMessage());
            return SyncCommandLine.USAGE_ERROR;
        }
        SparkConf conf = new SparkConf().setAppName("rpath sync");
        if (master != null) {
            conf.setMaster(master);
        }
        if (!conf.contains("spark.master")) {
            err.println("SparkSyncMain: no Spark master: give --master URL (or run it with spark-submit)");
            return SyncCommandLine.USAGE_ERROR;
        }
        SparkContext spark = SparkContext.getOrCreate(conf);
        try {
            return run(spark, line, out, err);
        } finally {
            spark.stop();
        }
    }

    static int run(SparkContext spark, SyncCommandLine line, PrintStream out, PrintStream err) {
        SparkConf conf = spark.getConf();
        SparkSync.Builder b = SparkSync.builder(spark, new CommandLineLocation(line.source(), line),
                        new CommandLineLocation(line.target(), line))
                .comparison(line.comparison()).deleteExtraneous(line.delete()).allowEmptySource(line.allowEmptySource())
                .include(line.includes().toArray(String[]::new)).exclude(line.excludes().toArray(String[]::new))
                .symlinks(line.symlinks()).transfers(line.transfers()).checkers(line.checkers())
                .useServerModtime(line.useServerModtime())
                .shardsPerCore(conf.getInt("spark.remotepath.sync.shardsPerCore", 4))
                .splitFanout(conf.getInt("spark.remotepath.sync.splitFanout", 64));
        line.maxDelete().ifPresent(b::maxDelete);
        line.retries().ifPresent(b::retries);
        line.bandwidthLimit().ifPresent(b::bandwidthLimitPerTask);
        SparkSync sync = b.build();
        try {
            if (line.dryRun()) {
                out.println(SyncCommandLine.planJson(sync.plan()));
                return 0;
            }
            SparkSyncReport report = sync.run();
            out.println(SyncCommandLine.reportJson(report.total()));
            return SyncCommandLine.exitCode(report.total());
        } catch (SyncRefusedException e) {
            err.println("SparkSyncMain: " + e.getMessage());
            return SyncCommandLine.REFUSED;
        } catch (IOException e) {
            err.println("SparkSyncMain: " + e.getMessage());
            return SyncCommandLine.SOME_FAILED;
        }
    }
}
