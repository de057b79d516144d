package dev.remotepath.spark;

import dev.remotepath.syncer.SyncReport;
import java.util.Objects;

/**
 * What one shard's task did in one phase of a {@link SparkSync}: its own {@link SyncReport}
 * (paths relative to the sync's roots), the directory listings it made on both sides, and the
 * Spark attempt whose result this is (counts are that attempt's: a retried task's files
 * copied by the failed attempt are counted by the retry as unchanged, never twice).
 *
 * @param relativePath the shard's subtree below the roots ({@code "."} for the roots)
 * @param whole        false when some of its subdirectories were shards of their own
 * @param phase        which phase of the job
 * @param report       the shard's counts and errors
 * @param listings     list calls its sync made of either side (directory and flat listings)
 * @param probeListings list calls made to decide whether to split the shard (its top directory,
 *                     both sides), overhead a single-machine sync does not have
 * @param attempt      Spark's attempt number of the task (0 for the first)
 */
public record ShardReport(String relativePath, boolean whole, Phase phase, SyncReport report, long listings,
        long probeListings, int attempt) {

    public ShardReport {
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(report, "report");
    }

    /** The phases of a distributed sync. */
    public enum Phase {
        /** Copies, with every deletion deferred. */
        COPY,
        /** Deletions, run only when every copy of every shard succeeded, within maxDelete. */
        DELETE,
        /** A dry run's planning. */
        PLAN
    }
}
