package dev.remotepath.spark;

import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncError;
import dev.remotepath.syncer.SyncReport;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one task did to one shard, as it travels back to the driver: a {@link SyncReport}'s
 * counts with every path made relative to the sync's roots, the listings it made, the
 * deletions it deferred (counted recursively) and the shards it handed back.
 */
record ShardOutcome(Shard shard, ShardReport.Phase phase, int attempt, long[] counts, List<Error> errors, String refusal,
        long durationMillis, long listings, long probeListings, long deletionsPlanned, long sourceEntries, List<Shard> newShards,
        List<Planned> plan) implements Serializable {

    /** Indexes into {@link #counts}, in {@link SyncReport}'s order. */
    static final int FILES_COPIED = 0, BYTES_COPIED = 1, FILES_SKIPPED = 2, FILES_DELETED = 3, DIRECTORIES_DELETED = 4,
            DIRECTORIES_CREATED = 5, MTIMES_FIXED = 6, LINKS_CREATED = 7, LINKS_SKIPPED = 8, CONTENT_BYTES_READ = 9,
            CHECKSUMS_NATIVE = 10, CHECKSUMS_STREAMED = 11, COUNTS = 12;

    /** A {@link SyncError}, with the exception's class by name (it may not load on the driver). */
    record Error(String relativePath, String operation, String message, String exceptionType) implements Serializable {
        static Error of(Shard shard, SyncError e) {
            return new Error(shard.global(e.relativePath()), e.operation(), e.message(),
                    e.exceptionType().map(Class::getName).orElse(""));
        }

        @SuppressWarnings("unchecked")
        SyncError toSyncError() {
            Optional<Class<? extends Throwable>> type = Optional.empty();
            if (!exceptionType.isEmpty()) {
                try {
                    Class<?> c = Class.forName(exceptionType, false, ShardOutcome.class.getClassLoader());
                    if (Throwable.class.isAssignableFrom(c)) {
                        type = Optional.of((Class<? extends Throwable>) c);
                    }
                } catch (ClassNotFoundException | LinkageError e) {
                    // known by name only; the message still says what failed
                }
            }
            return new SyncError(relativePath, operation, message, type);
        }
    }

    /** A planned {@link SyncAction} of a dry run, relative to the sync's roots. */
    record Planned(SyncAction.Kind kind, String relativePath, long size, String reason) implements Serializable {
    }

    static long[] counts(SyncReport r) {
        long[] c = new long[COUNTS];
        c[FILES_COPIED] = r.filesCopied();
        c[BYTES_COPIED] = r.bytesCopied();
        c[FILES_SKIPPED] = r.filesSkipped();
        c[FILES_DELETED] = r.filesDeleted();
        c[DIRECTORIES_DELETED] = r.directoriesDeleted();
        c[DIRECTORIES_CREATED] = r.directoriesCreated();
        c[MTIMES_FIXED] = r.mtimesFixed();
        c[LINKS_CREATED] = r.linksCreated();
        c[LINKS_SKIPPED] = r.linksSkipped();
        c[CONTENT_BYTES_READ] = r.contentBytesRead();
        c[CHECKSUMS_NATIVE] = r.checksumsNative();
        c[CHECKSUMS_STREAMED] = r.checksumsStreamed();
        return c;
    }

    static List<Error> errors(Shard shard, SyncReport r) {
        List<Error> out = new ArrayList<>();
        for (SyncError e : r.errors()) {
            out.add(Error.of(shard, e));
        }
        return out;
    }

    /** This outcome as a report of the shard alone. */
    SyncReport report() {
        return report(counts, errors, refusal.isEmpty() ? Optional.empty() : Optional.of(refusal),
                Duration.ofMillis(durationMillis));
    }

    static SyncReport report(long[] c, List<Error> errors, Optional<String> refusal, Duration took) {
        List<SyncError> all = new ArrayList<>(errors.size());
        for (Error e : errors) {
            all.add(e.toSyncError());
        }
        return new SyncReport(c[FILES_COPIED], c[BYTES_COPIED], c[FILES_SKIPPED], c[FILES_DELETED], c[DIRECTORIES_DELETED],
                c[DIRECTORIES_CREATED], c[MTIMES_FIXED], c[LINKS_CREATED], c[LINKS_SKIPPED], c[CONTENT_BYTES_READ],
                c[CHECKSUMS_NATIVE], c[CHECKSUMS_STREAMED], all, refusal, took);
    }
}
