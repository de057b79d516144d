package dev.remotepath.syncer;

import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.RemotePath;
import dev.remotepath.tree.Glob;
import dev.remotepath.tree.Retries;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Makes a target tree equal to a source tree, on any two backends, moving as few bytes and
 * making as few requests as they allow.
 *
 * <pre>{@code
 * SyncReport r = PathSyncer.builder(src, dst).deleteExtraneous(true).build().run();
 * List<SyncAction> wouldDo = PathSyncer.builder(src, dst).build().plan();   // dry run
 * }</pre>
 *
 * <p>What it promises:
 * <ul>
 *   <li>Decisions come from the two directory listings: an entry the listing described is
 *       never stat'ed again, so a no-op sync of N files in D directories makes D list calls
 *       per side, no stat and no read (into S3, whose listings lack mtimes: one HEAD for a
 *       file whose source's ctime cannot prove it unchanged since the upload).</li>
 *   <li>Directories get their source's times once their contents are written.</li>
 *   <li>Copies keep the source mtime wherever the target can set it, so the next run's
 *       quick-check sees them unchanged. Each file appears under its final name only when
 *       complete; a failed copy leaves the previous target file intact.</li>
 *   <li>Deletion (off by default) happens only after every copy of the run succeeded, never
 *       beyond {@code maxDelete}, and never when the source root is missing or empty.</li>
 *   <li>Nothing is written or deleted outside the target root, whatever names a listing
 *       returns: unsafe names fail their directory's listing.</li>
 *   <li>Transfers run in parallel on virtual threads ({@code transfers}, default 4); directories
 *       are walked by {@code checkers} walkers (default 8) over a bounded queue, so memory is
 *       bounded by the largest directory, the depth and the work in flight, never by the size
 *       of the tree. Both are the run's own; {@link dev.remotepath.BackendLimits} bounds what
 *       all runs of the JVM together ask of one backend.</li>
 *   <li>A failure that may pass (a dropped connection, a timeout) is retried before it is
 *       reported ({@code retries}, default 3); answers of the file system are not.</li>
 *   <li>Every failure is reported with its path; the run goes on past it.</li>
 * </ul>
 */
public final class PathSyncer {

    /** The start of {@link SyncReport#refusal()} when deletions exceeded {@code maxDelete}. */
    public static final String MAX_DELETE_REFUSAL = "max-delete exceeded";

    /** The wait before a failed operation's first retry; each next one waits twice as long. */
    static final java.time.Duration RETRY_BACKOFF = java.time.Duration.ofMillis(100);

    private final RemotePath source;
    private final RemotePath target;
    private final Options options;

    /** Everything the builder sets; immutable. */
    record Options(Comparison comparison, boolean deleteExtraneous, long maxDelete, boolean allowEmptySource,
            List<Glob> includes, List<Glob> excludes, SymlinkPolicy symlinks, int transfers,
            int checkers, Optional<ChecksumAlgorithm> checksumAlgorithm, SyncListener listener, boolean useServerModtime,
            Retries retries, java.util.OptionalLong bandwidthLimit, int flatListingBudget, List<String> filterPrefix) {
    }

    private PathSyncer(RemotePath source, RemotePath target, Options options) {
        this.source = source;
        this.target = target;
        this.options = options;
    }

    /** A builder for syncing {@code source} (a directory) into {@code target}. */
    public static Builder builder(RemotePath source, RemotePath target) {
        return new Builder(source, target);
    }

    /**
     * Everything a run would do, without changing anything (a dry run). Checksum comparisons,
     * where the mode needs them, are computed.
     *
     * @throws SyncRefusedException when the run would be refused
     */
    public List<SyncAction> plan() throws IOException {
        return SyncRun.plan(source, target, options);
    }

    /**
     * Runs the sync. Failures of single entries are in the report; only a refusal to start
     * at all is thrown.
     *
     * @throws SyncRefusedException when the source root is missing, not a directory, or empty
     *                              while deleting extraneous files
     */
    public SyncReport run() throws IOException {
        return SyncRun.run(source, target, options);
    }

    /**
     * Whether this syncer's filters leave an entry alone on both sides (neither copied nor
     * deleted), as the run decides it: {@code relativePath} is '/'-separated below the roots.
     * A directory not ignored may still hold ignored entries.
     */
    public boolean ignores(String relativePath, boolean directory) {
        Filters filters = new Filters(options.includes(), options.excludes(), options.filterPrefix());
        return filters.active() && !relativePath.isEmpty() && filters.ignored(List.of(relativePath.split("/")), directory);
    }

    public RemotePath source() {
        return source;
    }

    public RemotePath target() {
        return target;
    }

    /** Configures a {@link PathSyncer}. Defaults: quick-check, no deletion, 4 transfers, links skipped. */
    public static final class Builder {
        private final RemotePath source;
        private final RemotePath target;
        private Comparison comparison = Comparison.QUICK_CHECK;
        private boolean deleteExtraneous;
        private long maxDelete = Long.MAX_VALUE;
        private boolean allowEmptySource;
        private final List<Glob> includes = new ArrayList<>();
        private final List<Glob> excludes = new ArrayList<>();
        private SymlinkPolicy symlinks = SymlinkPolicy.SKIP;
        private int transfers = 4;
        private int checkers = 8;
        private ChecksumAlgorithm checksumAlgorithm;
        private SyncListener listener = SyncListener.NONE;
        private int flatListingBudget = dev.remotepath.tree.FlatIndex.DEFAULT_BUDGET;
        private boolean useServerModtime;
        private int retries = Retries.DEFAULT_RETRIES;
        private long bandwidthLimit;
        private List<String> filterPrefix = List.of();

        private Builder(RemotePath source, RemotePath target) {
            this.source = Objects.requireNonNull(source, "source");
            this.target = Objects.requireNonNull(target, "target");
            if (!source.isAbsolute() || !target.isAbsolute()) {
                throw new IllegalArgumentException("source and target must be absolute paths");
            }
        }

        /** How unchanged files are recognized (default {@link Comparison#QUICK_CHECK}). */
        public Builder comparison(Comparison c) {
            this.comparison = Objects.requireNonNull(c, "comparison");
            return this;
        }

        /** {@code true}: {@link Comparison#QUICK_CHECK}; {@code false}: {@link Comparison#CHECKSUM}. */
        public Builder quickCheck(boolean on) {
            return comparison(on ? Comparison.QUICK_CHECK : Comparison.CHECKSUM);
        }

        /** Delete target entries that the source lacks (default off), after all copies succeeded. */
        public Builder deleteExtraneous(boolean on) {
            this.deleteExtraneous = on;
            return this;
        }

        /** The most deletions a run may make; a run that would make more deletes nothing and says so. */
        public Builder maxDelete(long max) {
            if (max < 0) {
                throw new IllegalArgumentException("maxDelete must not be negative: " + max);
            }
            this.maxDelete = max;
            return this;
        }

        /** Let an empty source root empty the target when deleting extraneous files (refused by default). */
        public Builder allowEmptySource(boolean allow) {
            this.allowEmptySource = allow;
            return this;
        }

        /**
         * Only files matching one of the include globs are synced (directories are entered when
         * they could hold a match). Globs follow rclone: without '/', a pattern matches a name
         * at any depth ({@code *.jpg}); with a leading '/', it is anchored at the root
         * ({@code /docs/**}); {@code **} crosses directories.
         */
        public Builder include(String... globs) {
            for (String g : globs) {
                includes.add(Glob.compile(g));
            }
            return this;
        }

        /**
         * Entries matching an exclude glob are left alone on both sides: not copied, and not
         * deleted from the target. A pattern ending in '/' matches directories only. Excludes
         * win over includes.
         */
        public Builder exclude(String... globs) {
            for (String g : globs) {
                excludes.add(Glob.compile(g));
            }
            return this;
        }

        public Builder symlinks(SymlinkPolicy policy) {
            this.symlinks = Objects.requireNonNull(policy, "symlinks");
            return this;
        }

        /** How many files are transferred at once (default 4). */
        public Builder transfers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("transfers must be at least 1: " + n);
            }
            this.transfers = n;
            return this;
        }

        /**
         * How many directories are listed (and merged) at once (default 8, as rclone's
         * {@code --checkers}): each listing of a remote backend is a round trip, so more walkers
         * hide more latency; each holds one directory's listings in memory.
         */
        public Builder checkers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("checkers must be at least 1: " + n);
            }
            this.checkers = n;
            return this;
        }

        /** The algorithm for streamed checksum comparisons (default: one both sides have natively, else MD5). */
        public Builder checksumAlgorithm(ChecksumAlgorithm a) {
            this.checksumAlgorithm = Objects.requireNonNull(a, "checksumAlgorithm");
            return this;
        }

        /**
         * Quick-check into a target whose listing gives only the time each file was stored (S3):
         * with {@code true}, a file of the same size stored after the source's mtime is unchanged,
         * with no request per file and whatever the source can tell (rclone's
         * {@code --use-server-modtime}). It misses a same-size change whose mtime was set back to
         * before the upload (a restore, {@code cp -p} of an older file). Off by default: then
         * that rule holds only where the source's change time (ctime) proves nothing changed
         * since the upload, and other files cost one HEAD to compare the mtime stored with them.
         */
        public Builder useServerModtime(boolean on) {
            this.useServerModtime = on;
            return this;
        }

        /**
         * How many times a failed copy, listing, checksum or mtime fix is tried again before the
         * run reports it (default 3, as rclone's {@code --retries}), after 0.1, 0.2, 0.4 s...;
         * only failures that may pass (a dropped connection, a timeout, a server error), never
         * an answer of the file system (no such file, access denied), see {@link Retries}.
         */
        public Builder retries(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("retries must not be negative: " + n);
            }
            this.retries = n;
            return this;
        }

        /**
         * At most this many content bytes per second across all of the run's transfers
         * (rclone's {@code --bwlimit}); server-side copies, which move no byte through here, are
         * not slowed. Default: unlimited.
         */
        public Builder bandwidthLimit(long bytesPerSecond) {
            if (bytesPerSecond < 1) {
                throw new IllegalArgumentException("bandwidthLimit must be at least 1 byte per second: " + bytesPerSecond);
            }
            this.bandwidthLimit = bytesPerSecond;
            return this;
        }

        /**
         * The most entries a flat listing may hold in memory (default
         * {@value dev.remotepath.tree.FlatIndex#DEFAULT_BUDGET}); 0 never lists flat. A side whose
         * backend lists whole trees in a few requests ({@code FLAT_LISTING}: S3) is read that way
         * when the filters do not prune directories; a tree larger than the budget is listed per
         * directory instead (see docs/sync.md).
         */
        public Builder flatListingBudget(int entries) {
            if (entries < 0) {
                throw new IllegalArgumentException("flatListingBudget must not be negative: " + entries);
            }
            this.flatListingBudget = entries;
            return this;
        }

        /**
         * The roots are the subtree {@code relativePath} ({@code "a/b"}) of the trees the
         * {@link #include} and {@link #exclude} globs were written for: each entry is matched as
         * {@code a/b/} and its path below the roots, so anchored globs keep their meaning when
         * one subtree of a larger mirror is synced on its own (SparkSync's shards). The caller
         * checks that the filters do not leave the subtree itself out. Default: empty, the roots
         * themselves.
         */
        public Builder filterPrefix(String relativePath) {
            List<String> parts = new ArrayList<>();
            for (String part : relativePath.split("/")) {
                if (part.equals(".") || part.equals("..")) {
                    throw new IllegalArgumentException("filterPrefix must be a plain relative path: " + relativePath);
                }
                if (!part.isEmpty()) {
                    parts.add(part);
                }
            }
            this.filterPrefix = List.copyOf(parts);
            return this;
        }

        public Builder listener(SyncListener l) {
            this.listener = Objects.requireNonNull(l, "listener");
            return this;
        }

        public PathSyncer build() {
            if (source.sameFileSystemAs(target) && (target.startsWith(source) || source.startsWith(target))) {
                throw new IllegalArgumentException("source " + source + " and target " + target + " overlap");
            }
            return new PathSyncer(source, target, new Options(comparison, deleteExtraneous, maxDelete,
                    allowEmptySource, List.copyOf(includes), List.copyOf(excludes), symlinks, transfers,
                    checkers, Optional.ofNullable(checksumAlgorithm), listener, useServerModtime,
                    new Retries(retries, RETRY_BACKOFF),
                    bandwidthLimit > 0 ? java.util.OptionalLong.of(bandwidthLimit) : java.util.OptionalLong.empty(),
                    flatListingBudget, filterPrefix));
        }
    }
}
