package dev.remotepath.syncer;

/** What {@link PathSyncer} does with symbolic links in the source. */
public enum SymlinkPolicy {
    /** Leave them out, counting each in {@link SyncReport#linksSkipped()} (rclone's default). */
    SKIP,
    /** Recreate them as links with the same target text; a target that cannot hold links reports an error per link. */
    PRESERVE,
    /** Mirror what they point to; directory loops are detected and reported. */
    FOLLOW
}
