package dev.remotepath.archive;

import java.io.IOException;
import java.time.Instant;

/**
 * Writes one archive format to a stream, entry by entry, each complete when it is added (its
 * size, CRC and stored bytes known): what differs between writing a zip and a tar.
 */
interface ArchiveWriter {

    /** {@code st_mode} of what a new archive stores, where the writer is given none. */
    int FILE_MODE = 0100644;
    int DIRECTORY_MODE = 040755;
    int LINK_MODE = 0120777;

    /**
     * Adds a file whose content {@code content} holds ({@link EntryContent#deflated()} for a zip),
     * with {@code mode} as its {@code st_mode} ({@link #FILE_MODE} where none was asked).
     */
    void file(String name, Instant modified, int mode, EntryContent content) throws IOException;

    /** Adds a directory with {@code mode} as its {@code st_mode}; {@code name} has no trailing slash. */
    void directory(String name, Instant modified, int mode) throws IOException;

    /** Adds a symbolic link to {@code target}. */
    void link(String name, String target, Instant modified) throws IOException;

    /** Ends the archive (a zip's central directory, a tar's end blocks) and flushes it; the stream stays open. */
    void finish() throws IOException;

    /** Whether an entry's content should be deflated as it is written (zip), or kept as it is (tar). */
    boolean deflates();
}
