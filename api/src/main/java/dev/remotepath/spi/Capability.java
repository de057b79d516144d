package dev.remotepath.spi;

/**
 * What a backend can do beyond reading and listing. The shared algorithms consult these to
 * choose a strategy (rename into place, or write directly; set mtime, or report it), and the
 * contract suite to decide which cases apply.
 */
public enum Capability {
    /** Files and directories can be created, written and deleted. */
    WRITE,
    /** {@code rename} is atomic and may replace an existing file: writes go through a temporary sibling. */
    ATOMIC_RENAME,
    /**
     * {@code rename} to a free name works and is atomic, but cannot replace an existing file (an
     * SFTP server without {@code posix-rename@openssh.com}). Writes still go through a temporary
     * sibling; a replacing rename first moves the old file aside and restores it on failure, so
     * nothing is lost, though the target is briefly absent.
     */
    RENAME,
    /** Symbolic links can be created and read. */
    SYMBOLIC_LINKS,
    /** A file's modification time can be set. */
    SET_LAST_MODIFIED_TIME,
    /**
     * {@code openWrite(file, mode, lastModified)} stores the modification time with the content,
     * so copies need no separate {@code setLastModifiedTime} request.
     */
    MTIME_ON_WRITE,
    /** POSIX permissions can be read and set. */
    POSIX_PERMISSIONS,
    /** Files can be copied within the file system without the bytes passing through the client. */
    SERVER_SIDE_COPY,
    /** Many files can be deleted in one request. */
    BATCH_DELETE,
    /**
     * A file can be written (or copied) where its parent directories do not exist: they exist
     * by implication as long as anything is under them (object stores, where a directory is a
     * key prefix). Without it, as in {@code java.nio.file}, such a write fails with
     * {@code NoSuchFileException}. Creating a directory still needs its parent.
     */
    IMPLICIT_DIRECTORIES,
    /**
     * {@link RemoteFileSystem#listTree} lists a whole tree in a few requests (S3's
     * {@code ListObjectsV2} without a delimiter: 1,000 keys a page, whatever the directories),
     * where a walk would list each directory on its own.
     */
    FLAT_LISTING,
    /** The server computes some checksums itself ({@link RemoteFileSystem#nativeChecksums()}). */
    NATIVE_CHECKSUM,
    /**
     * Listings and stats are system calls or memory reads in this process, not round trips to a
     * server: running two at once buys nothing beyond the cores, so an algorithm that overlaps
     * round trips (the syncer listing both sides of a directory at the same time) does them one
     * after the other here, without a thread per listing.
     */
    IN_PROCESS
}
