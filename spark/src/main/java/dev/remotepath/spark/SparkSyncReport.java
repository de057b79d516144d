package dev.remotepath.spark;

import dev.remotepath.syncer.SyncReport;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link SparkSync} did: the totals as one {@link SyncReport} (the fields
 * {@code rpath sync --json} prints, errors with their paths below the roots), and each shard's
 * own report per phase.
 *
 * @param total           the sums over every shard and phase; its refusal says why deletions
 *                        were not made, when they were not
 * @param shards          every task's report, copy phase first
 * @param plannedListings listings the driver made to cut the trees into shards
 */
public record SparkSyncReport(SyncReport total, List<ShardReport> shards, long plannedListings) {

    public SparkSyncReport {
        Objects.requireNonNull(total, "total");
        shards = List.copyOf(shards);
    }

    /** Listings the tasks made to decide whether to split their shards, summed. */
    public long probeListings() {
        return shards.stream().mapToLong(ShardReport::probeListings).sum();
    }

    /** Listings made by the shards' syncs in the copy phase, summed: a single-machine sync's count. */
    public long copyListings() {
        return shards.stream().filter(s -> s.phase() == ShardReport.Phase.COPY).mapToLong(ShardReport::listings).sum();
    }
}
