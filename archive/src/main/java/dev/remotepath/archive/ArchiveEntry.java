package dev.remotepath.archive;

import dev.remotepath.FileType;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** One entry of an archive's index, whatever the format: what listings and stats give. */
interface ArchiveEntry {

    /** The name as the archive stores it (decoded, not yet trusted). */
    String name();

    FileType type();

    /** Bytes of content (a link's target length for a zip link). */
    long size();

    Optional<Instant> modified();

    Duration precision();

    /** {@code st_mode} where the archive keeps one, else -1. */
    int unixMode();

    /** Unique in the archive: where the entry's header starts. */
    long key();
}
