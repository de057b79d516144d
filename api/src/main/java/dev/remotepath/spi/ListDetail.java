package dev.remotepath.spi;

/**
 * How much metadata a caller needs from a listing. A backend that pays per entry for
 * metadata (the local disk: one {@code statx} each) does only what was asked; a backend whose
 * listing carries everything anyway (SFTP, S3, mem) may return more than asked, never less.
 */
public enum ListDetail {
    /** Names and types only: what walk, glob and recursive remove need. */
    TYPES,
    /**
     * Types for all, plus size and modification time for regular files and the modification
     * time of directories: what copy and sync need (they give each directory its source's
     * time once its contents are written; directories are few, so this costs little).
     * A backend whose listing cannot carry a file's own mtime (S3 keeps it in metadata that
     * only a HEAD returns) gives {@link dev.remotepath.FileStat#storedAt()} instead.
     */
    FILE_STATS,
    /** A full stat of every entry. */
    ALL_STATS;

    /** True when an entry of this type needs more than its type at this level of detail. */
    public boolean wantsStat(dev.remotepath.FileType type) {
        return this == ALL_STATS || (this == FILE_STATS
                && (type == dev.remotepath.FileType.FILE || type == dev.remotepath.FileType.DIRECTORY));
    }
}
