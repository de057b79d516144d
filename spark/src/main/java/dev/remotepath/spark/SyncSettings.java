package dev.remotepath.spark;

import dev.remotepath.RemotePath;
import dev.remotepath.syncer.Comparison;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SymlinkPolicy;
import java.io.Serializable;
import java.util.List;

/**
 * The {@link PathSyncer} options of a distributed sync, as they travel to executors; the
 * deletion options are the driver's, never a shard's (each shard defers its deletions).
 * {@code retries} -1 and {@code bandwidthLimit} 0 leave PathSyncer's defaults (plain numbers:
 * {@code OptionalInt} is not serialisable).
 */
record SyncSettings(Comparison comparison, boolean deleteExtraneous, long maxDelete, boolean allowEmptySource,
        List<String> includes, List<String> excludes, SymlinkPolicy symlinks, int transfers, int checkers,
        int retries, boolean useServerModtime, long bandwidthLimit) implements Serializable {

    SyncSettings {
        includes = List.copyOf(includes);
        excludes = List.copyOf(excludes);
    }

    /** A builder for {@code source} to {@code target} with everything but the deletion options. */
    PathSyncer.Builder builder(RemotePath source, RemotePath target) {
        PathSyncer.Builder b = PathSyncer.builder(source, target).comparison(comparison)
                .include(includes.toArray(String[]::new)).exclude(excludes.toArray(String[]::new))
                .symlinks(symlinks).transfers(transfers).checkers(checkers).useServerModtime(useServerModtime);
        if (retries >= 0) {
            b.retries(retries);
        }
        if (bandwidthLimit > 0) {
            b.bandwidthLimit(bandwidthLimit);
        }
        return b;
    }
}
