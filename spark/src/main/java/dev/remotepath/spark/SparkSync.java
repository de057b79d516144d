package dev.remotepath.spark;

import dev.remotepath.RemotePath;
import dev.remotepath.syncer.Comparison;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SymlinkPolicy;
import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncRefusedException;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.tree.RealPaths;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * {@link PathSyncer} across a Spark cluster: the trees are cut into subtree shards, each synced
 * by a task with {@link PathSyncer}, and the results summed into one report.
 *
 * <pre>{@code
 * SparkSyncReport r = SparkSync.builder(spark, Location.of("s3://bucket/data"), Location.of("/mnt/mirror"))
 *         .deleteExtraneous(true).maxDelete(1000).build().run();
 * }</pre>
 *
 * <p>What it promises, across the cluster as {@link PathSyncer} does on one machine:
 * <ul>
 *   <li>Deletions are a second phase, run only when every copy of every shard succeeded and
 *       the deletions planned by all shards together (counted recursively) are within
 *       {@code maxDelete}; an empty source (after filters) empties nothing unless allowed.</li>
 *   <li>Source and target that overlap are refused before any task runs.</li>
 *   <li>A file appears under its final name only when complete: a task killed midway, or a
 *       job cancelled, leaves at most temporaries, which the next run removes; running the job
 *       again completes the mirror. A task Spark retries counts what its own attempt did.</li>
 *   <li>Executors open both sides from their {@link Location}s, with their own credentials;
 *       no secret is in a task, a log line or the UI.</li>
 * </ul>
 */
public final class SparkSync {

    private final JavaSparkContext spark;
    private final Location source;
    private final Location target;
    private final SyncSettings settings;
    private final int shardsPerCore;
    private final int splitFanout;

    private SparkSync(Builder b) {
        this.spark = b.spark;
        this.source = b.source;
        this.target = b.target;
        this.settings = new SyncSettings(b.comparison, b.deleteExtraneous, b.maxDelete, b.allowEmptySource,
                b.includes, b.excludes, b.symlinks, b.transfers, b.checkers, b.retries, b.useServerModtime,
                b.bandwidthLimit);
        this.shardsPerCore = b.shardsPerCore;
        this.splitFanout = b.splitFanout;
    }

    /** A builder syncing {@code source} (a directory) into {@code target} on {@code spark}. */
    public static Builder builder(SparkContext spark, Location source, Location target) {
        return new Builder(JavaSparkContext.fromSparkContext(spark), source, target);
    }

    /**
     * Runs the sync: copies in shards, then (with {@code deleteExtraneous}) deletions, when safe.
     *
     * @throws SyncRefusedException when the source is missing or not a directory, the two
     *                              overlap, or an empty source would empty the target
     * @throws IOException          when a root cannot be opened, or the Spark job failed (its
     *                              tasks failed more often than Spark retries them)
     */
    public SparkSyncReport run() throws IOException {
        return new Job().run();
    }

    /**
     * Everything a run would do, without changing anything (a dry run), planned by the shards
     * in parallel and ordered by path; deletions are listed, and not checked against maxDelete.
     */
    public List<SyncAction> plan() throws IOException {
        Job job = new Job();
        List<ShardOutcome> outcomes = job.rounds(job.shards(), ShardReport.Phase.PLAN);
        RemotePath dst = target.open();
        RemotePath src = source.open();
        List<SyncAction> all = new ArrayList<>();
        for (ShardOutcome o : outcomes) {
            for (ShardOutcome.Planned p : o.plan()) {
                boolean reads = p.kind() != SyncAction.Kind.DELETE_FILE && p.kind() != SyncAction.Kind.DELETE_DIRECTORY;
                all.add(new SyncAction(p.kind(), p.relativePath(),
                        reads ? Optional.of(Subtrees.below(src, p.relativePath())) : Optional.empty(),
                        Subtrees.below(dst, p.relativePath()), p.size() < 0 ? OptionalLong.empty() : OptionalLong.of(p.size()),
                        p.reason()));
            }
        }
        all.sort((a, b) -> {
            int byPath = a.relativePath().compareTo(b.relativePath());
            return byPath != 0 ? byPath : a.kind().compareTo(b.kind());
        });
        return all;
    }

    /** One run or plan: the checks, the shards, the rounds of tasks and the deletion decision. */
    private final class Job {
        private final String group = "remotepath-sync-" + UUID.randomUUID();
        private final Instant start = Instant.now();
        private long plannedListings;

        List<Shard> shards() throws IOException {
            // The driver's own paths: executors open theirs (in local mode, the same JVM's cache
            // would otherwise hand them the driver's).
            RemotePath src = source.open();
            RemotePath dst = target.open();
            String scheme = target.uri().toLowerCase(Locale.ROOT);
            if (scheme.startsWith("zip:") || scheme.startsWith("tar:")) {
                throw new SyncRefusedException("target " + target.uri() + " is an archive, written as one stream: "
                        + "sync into it with PathSyncer, not in shards");
            }
            PathSyncer probe;
            try {
                probe = settings.builder(src, dst).build();
            } catch (IllegalArgumentException overlap) {
                throw new SyncRefusedException(overlap.getMessage() + ": refusing to sync");
            }
            Optional<String> overlap = RealPaths.overlap(src, dst);
            if (overlap.isPresent()) {
                throw new SyncRefusedException(overlap.get() + ": refusing to sync");
            }
            ShardPlanner planner = new ShardPlanner(probe, src, dst);
            int cores = Math.max(1, spark.defaultParallelism());
            List<Shard> shards = planner.plan(cores * shardsPerCore, MAX_PLANNING_DEPTH);
            plannedListings = planner.listings();
            return shards;
        }

        /** Runs shards in rounds until no task hands any back. */
        List<ShardOutcome> rounds(List<Shard> shards, ShardReport.Phase phase) throws IOException {
            List<ShardOutcome> all = new ArrayList<>();
            List<ShardTask.Work> pending = new ArrayList<>();
            for (Shard s : shards) {
                pending.add(new ShardTask.Work(s, 0));
            }
            int round = 0;
            while (!pending.isEmpty()) {
                round++;
                List<ShardOutcome> outcomes = submit(pending, phase, phase.name().toLowerCase(Locale.ROOT) + " round " + round);
                all.addAll(outcomes);
                pending = new ArrayList<>();
                for (ShardOutcome o : outcomes) {
                    for (Shard s : o.newShards()) {
                        pending.add(new ShardTask.Work(s, 0));
                    }
                }
            }
            return all;
        }

        List<ShardOutcome> submit(List<ShardTask.Work> work, ShardReport.Phase phase, String what) throws IOException {
            // The description is what the UI shows: URIs and counts, never an option's value.
            spark.setJobGroup(group, "rpath sync " + source.uri() + " " + target.uri() + ": " + what + " ("
                    + work.size() + " shards)", true);
            try {
                return spark.parallelize(work, work.size()).map(new ShardTask(source, target, settings, phase, splitFanout))
                        .collect();
            } catch (Exception e) { // SparkException is checked, and thrown undeclared by Scala
                throw new IOException("sync of " + source.uri() + " to " + target.uri() + ": the Spark job's " + what
                        + " failed, nothing was deleted (run it again to complete the mirror): " + e.getMessage(), e);
            } finally {
                spark.clearJobGroup();
            }
        }

        SparkSyncReport run() throws IOException {
            List<Shard> shards = shards();
            List<ShardOutcome> copies = rounds(shards, ShardReport.Phase.COPY);
            List<ShardReport> reports = new ArrayList<>();
            long[] totals = new long[ShardOutcome.COUNTS];
            List<ShardOutcome.Error> errors = new ArrayList<>();
            long planned = 0;
            long sourceEntries = 0;
            List<ShardTask.Work> deletions = new ArrayList<>();
            for (ShardOutcome o : copies) {
                add(o, totals, errors, reports);
                planned += o.deletionsPlanned();
                sourceEntries += o.sourceEntries();
                if (o.deletionsPlanned() > 0) {
                    deletions.add(new ShardTask.Work(o.shard(), o.deletionsPlanned()));
                }
            }
            Optional<String> refusal = Optional.empty();
            if (settings.deleteExtraneous() && planned > 0) {
                if (!errors.isEmpty()) {
                    refusal = Optional.of("deletions skipped: " + errors.size() + " error(s) in the copy phase ("
                            + planned + " deletions pending)");
                } else if (sourceEntries == 0 && !settings.allowEmptySource()) {
                    throw new SyncRefusedException("source " + source.uri() + " has no files"
                            + (settings.includes().isEmpty() && settings.excludes().isEmpty() ? "" : " after filters")
                            + " and " + planned + " target entries would be deleted: refusing to empty the target "
                            + "(allowEmptySource to allow it)");
                } else if (planned > settings.maxDelete()) {
                    refusal = Optional.of(PathSyncer.MAX_DELETE_REFUSAL + ": " + planned + " deletions needed across "
                            + deletions.size() + " shard(s) (files and directories, counted recursively), at most "
                            + settings.maxDelete() + " allowed; nothing was deleted");
                } else {
                    for (ShardOutcome o : submit(deletions, ShardReport.Phase.DELETE, "deletions")) {
                        add(o, totals, errors, reports);
                        if (!o.refusal().isEmpty() && refusal.isEmpty()) {
                            // PathSyncer's own words first: refusedForSafety() reads their start.
                            refusal = Optional.of(o.refusal() + " (shard " + o.shard() + ")");
                        }
                    }
                }
            }
            SyncReport total = ShardOutcome.report(totals, errors, refusal, Duration.between(start, Instant.now()));
            return new SparkSyncReport(total, reports, plannedListings);
        }

        private void add(ShardOutcome o, long[] totals, List<ShardOutcome.Error> errors, List<ShardReport> reports) {
            for (int i = 0; i < totals.length; i++) {
                // The deletion phase runs a shard's sync again: what it found unchanged was
                // counted by the copy phase already; what it changed (deleted, replaced) was not.
                boolean again = o.phase() == ShardReport.Phase.DELETE && (i == ShardOutcome.FILES_SKIPPED
                        || i == ShardOutcome.LINKS_SKIPPED || i == ShardOutcome.CHECKSUMS_NATIVE
                        || i == ShardOutcome.CHECKSUMS_STREAMED);
                totals[i] += again ? 0 : o.counts()[i];
            }
            errors.addAll(o.errors());
            reports.add(new ShardReport(o.shard().global(""), o.shard().ownShards().isEmpty(), o.phase(), o.report(),
                    o.listings(), o.probeListings(), o.attempt()));
        }
    }

    /** How many directory levels the driver opens at most when cutting the trees into shards. */
    static final int MAX_PLANNING_DEPTH = 4;

    /** Configures a {@link SparkSync}; the sync options and their defaults are {@link PathSyncer.Builder}'s. */
    public static final class Builder {
        private final JavaSparkContext spark;
        private final Location source;
        private final Location target;
        private Comparison comparison = Comparison.QUICK_CHECK;
        private boolean deleteExtraneous;
        private long maxDelete = Long.MAX_VALUE;
        private boolean allowEmptySource;
        private final List<String> includes = new ArrayList<>();
        private final List<String> excludes = new ArrayList<>();
        private SymlinkPolicy symlinks = SymlinkPolicy.SKIP;
        private int transfers = 4;
        private int checkers = 8;
        private int retries = -1;
        private boolean useServerModtime;
        private long bandwidthLimit;
        private int shardsPerCore = 4;
        private int splitFanout = 64;

        private Builder(JavaSparkContext spark, Location source, Location target) {
            this.spark = Objects.requireNonNull(spark, "spark");
            this.source = Objects.requireNonNull(source, "source");
            this.target = Objects.requireNonNull(target, "target");
        }

        /** {@link PathSyncer.Builder#comparison}. */
        public Builder comparison(Comparison c) {
            this.comparison = Objects.requireNonNull(c, "comparison");
            return this;
        }

        /** {@link PathSyncer.Builder#deleteExtraneous}: in a second phase, after every shard's copies succeeded. */
        public Builder deleteExtraneous(boolean on) {
            this.deleteExtraneous = on;
            return this;
        }

        /** The most deletions of the whole job, all shards together (counted recursively). */
        public Builder maxDelete(long max) {
            if (max < 0) {
                throw new IllegalArgumentException("maxDelete must not be negative: " + max);
            }
            this.maxDelete = max;
            return this;
        }

        /** {@link PathSyncer.Builder#allowEmptySource}, decided on the whole source. */
        public Builder allowEmptySource(boolean allow) {
            this.allowEmptySource = allow;
            return this;
        }

        /** {@link PathSyncer.Builder#include}: globs relative to the roots, whatever shard applies them. */
        public Builder include(String... globs) {
            for (String g : globs) {
                dev.remotepath.tree.Glob.compile(g); // fails here, on the driver, when malformed
                includes.add(g);
            }
            return this;
        }

        /** {@link PathSyncer.Builder#exclude}: globs relative to the roots, whatever shard applies them. */
        public Builder exclude(String... globs) {
            for (String g : globs) {
                dev.remotepath.tree.Glob.compile(g);
                excludes.add(g);
            }
            return this;
        }

        public Builder symlinks(SymlinkPolicy policy) {
            this.symlinks = Objects.requireNonNull(policy, "symlinks");
            return this;
        }

        /** Files transferred at once by each task (default 4): a cluster moves tasks × transfers at once. */
        public Builder transfers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("transfers must be at least 1: " + n);
            }
            this.transfers = n;
            return this;
        }

        /** Directories listed at once by each task (default 8). */
        public Builder checkers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("checkers must be at least 1: " + n);
            }
            this.checkers = n;
            return this;
        }

        /** {@link PathSyncer.Builder#retries}, within each task (Spark's own task retries are apart). */
        public Builder retries(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("retries must not be negative: " + n);
            }
            this.retries = n;
            return this;
        }

        /** {@link PathSyncer.Builder#useServerModtime}. */
        public Builder useServerModtime(boolean on) {
            this.useServerModtime = on;
            return this;
        }

        /** At most this many content bytes per second for each task (not the job: tasks run apart). */
        public Builder bandwidthLimitPerTask(long bytesPerSecond) {
            if (bytesPerSecond < 1) {
                throw new IllegalArgumentException("bandwidthLimit must be at least 1 byte per second: " + bytesPerSecond);
            }
            this.bandwidthLimit = bytesPerSecond;
            return this;
        }

        /**
         * How many shards the driver cuts for each core of the cluster (default 4, from
         * {@code spark.default.parallelism}): more, smaller shards balance better and cost a
         * few more listings on the driver.
         */
        public Builder shardsPerCore(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("shardsPerCore must be at least 1: " + n);
            }
            this.shardsPerCore = n;
            return this;
        }

        /**
         * A task that finds at least this many subdirectories in its subtree's top directory
         * syncs that directory's files and hands the subdirectories back as new shards (default
         * 64), so one wide directory does not serialise the job.
         */
        public Builder splitFanout(int n) {
            if (n < 2) {
                throw new IllegalArgumentException("splitFanout must be at least 2: " + n);
            }
            this.splitFanout = n;
            return this;
        }

        public SparkSync build() {
            return new SparkSync(this);
        }
    }
}
