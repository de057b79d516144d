package dev.remotepath.syncer;

import java.io.IOException;

/**
 * Observes a running sync. Every action gets {@code started} and then exactly one of
 * {@code finished} or {@code failed}; copies report their bytes as they go. Called from the
 * sync's worker threads: implementations must be thread-safe and quick.
 */
public interface SyncListener {

    /** An action was queued by the traversal; totals of scheduled work give progress bars their ETA. */
    default void scheduled(SyncAction action) {
    }

    default void started(SyncAction action) {
    }

    /**
     * The traversal is over: every action of the walk has been {@link #scheduled}, so the
     * totals are final (deletions, decided afterwards, may still follow).
     */
    default void traversalFinished() {
    }

    /**
     * An extraneous entry to delete, or an entry whose type changed to replace, that the run
     * leaves to its deletion phase (done, or refused, after every copy): called as the
     * traversal finds it, before {@link #traversalFinished}. A sharded run (SparkSync) collects
     * these to count deletions across shards before any is made.
     */
    default void deletionDeferred(SyncAction action) {
    }

    default void progress(SyncAction action, long bytes) {
    }

    default void finished(SyncAction action) {
    }

    default void failed(SyncAction action, IOException error) {
    }

    /**
     * A failure of the run, as it happens: every {@link SyncReport#errors()} entry is passed here
     * first (a failed action also gets {@link #failed}), so a long run can show its errors live.
     */
    default void error(SyncError error) {
    }

    /** A symbolic link left out, or another entry deliberately not acted on. */
    default void skipped(String relativePath, String why) {
    }

    /** A listener that ignores everything. */
    SyncListener NONE = new SyncListener() {
    };
}
