package dev.remotepath.syncer;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link PathSyncer#run()} did.
 *
 * @param filesCopied        files written to the target (new or updated)
 * @param bytesCopied        content bytes of the files copied: only files that were published
 *                           under their final name count, not a failed copy's partial bytes
 * @param filesSkipped       files found unchanged
 * @param filesDeleted       extraneous target files deleted (links and other non-directories
 *                           included), those inside deleted directories counted one by one
 * @param directoriesDeleted extraneous target directories deleted, each nested one counted
 * @param directoriesCreated directories created on the target
 * @param mtimesFixed        target files whose content was equal and whose mtime was set
 * @param linksCreated       symbolic links created or replaced ({@link SymlinkPolicy#PRESERVE})
 * @param linksSkipped       symbolic links left out ({@link SymlinkPolicy#SKIP})
 * @param contentBytesRead   content bytes read from either side (copies and streamed checksums)
 * @param checksumsNative    file pairs compared by checksums the backends computed or stored
 * @param checksumsStreamed  file pairs compared by reading their content
 * @param errors             every failure, with its path; the run went on past each
 * @param refusal            why deletions were not done, when the run refused them for safety
 *                           (maxDelete exceeded) or skipped them (earlier errors)
 * @param duration           wall time of the run
 */
public record SyncReport(long filesCopied, long bytesCopied, long filesSkipped, long filesDeleted,
        long directoriesDeleted, long directoriesCreated, long mtimesFixed, long linksCreated, long linksSkipped, long contentBytesRead,
        long checksumsNative, long checksumsStreamed, List<SyncError> errors, Optional<String> refusal,
        Duration duration) {

    public SyncReport {
        errors = List.copyOf(errors);
        Objects.requireNonNull(refusal, "refusal");
        Objects.requireNonNull(duration, "duration");
    }

    /** True when nothing failed and nothing was refused. */
    public boolean succeeded() {
        return errors.isEmpty() && refusal.isEmpty();
    }

    /** True when deletions were refused for safety (maxDelete exceeded). */
    public boolean refusedForSafety() {
        return refusal.isPresent() && refusal.get().startsWith(PathSyncer.MAX_DELETE_REFUSAL);
    }
}
