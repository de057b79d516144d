package dev.remotepath.syncer;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A run's counts, added to by the traversal, the transfers and the deletion phase at once;
 * read once, into the {@link SyncReport}, after all of them have finished.
 */
final class Tally {
    /** Files, links and other non-directories of the source that the filters let through (and directories that replace another type). */
    final AtomicLong sourceEntriesToSync = new AtomicLong();
    final AtomicLong filesCopied = new AtomicLong();
    /** Bytes of files under their final name only: a failed copy's bytes are not "copied". */
    final AtomicLong bytesCopied = new AtomicLong();
    final AtomicLong filesSkipped = new AtomicLong();
    final AtomicLong filesDeleted = new AtomicLong();
    final AtomicLong directoriesDeleted = new AtomicLong();
    final AtomicLong directoriesCreated = new AtomicLong();
    final AtomicLong mtimesFixed = new AtomicLong();
    final AtomicLong linksCreated = new AtomicLong();
    final AtomicLong linksSkipped = new AtomicLong();
    /** Bytes read from either side, whether or not the copy they were for was published. */
    final AtomicLong contentBytesRead = new AtomicLong();

    SyncReport report(ContentComparison contents, List<SyncError> errors, Optional<String> refusal, Duration took) {
        return new SyncReport(filesCopied.get(), bytesCopied.get(), filesSkipped.get(), filesDeleted.get(),
                directoriesDeleted.get(), directoriesCreated.get(), mtimesFixed.get(), linksCreated.get(),
                linksSkipped.get(), contentBytesRead.get(), contents.checksumsNative(), contents.checksumsStreamed(),
                errors, refusal, took);
    }
}
