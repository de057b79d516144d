package dev.remotepath.syncer;

import dev.remotepath.tree.Retries;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A run's errors, its retries and its decision to give up. Every error of a run goes through
 * here, into the report and to the listener as it happens; a request that timed out counts
 * towards giving up: after {@value #GIVE_UP_AFTER} timeouts in a row with no success between
 * them the server has stopped answering (paused, or cut off without a reset), and the run stops
 * scheduling work instead of waiting out a timeout for every remaining entry.
 */
final class Failures {

    /** Timeouts in a row after which the run stops: the server has stopped answering. */
    static final int GIVE_UP_AFTER = 3;

    private final Queue<SyncError> errors = new ConcurrentLinkedQueue<>();
    private final AtomicInteger consecutiveTimeouts = new AtomicInteger();
    /** Why the run stopped early, once it has. */
    private volatile String gaveUp;
    private final SyncListener listener;
    private final Retries retries;

    Failures(SyncListener listener, Retries retries) {
        this.listener = listener;
        this.retries = retries;
    }

    /** Records a failure of {@code operation} on {@code rel}. */
    void fail(String rel, String operation, Throwable e) {
        record(SyncError.of(rel, operation, e));
        if (timedOut(e)) {
            noteTimeout();
        }
    }

    /** Records an error that is no exception (a loop, a special file). */
    void record(SyncError e) {
        errors.add(e);
        listener.error(e);
    }

    /** A request was answered: the timeouts in a row start again from none. */
    void answered() {
        consecutiveTimeouts.set(0);
    }

    boolean hasGivenUp() {
        return gaveUp != null;
    }

    /** Why the run stopped early; empty while it goes on. */
    Optional<String> whyGivenUp() {
        return Optional.ofNullable(gaveUp);
    }

    boolean none() {
        return errors.isEmpty();
    }

    int count() {
        return errors.size();
    }

    List<SyncError> all() {
        return List.copyOf(errors);
    }

    /**
     * Runs an idempotent operation with the run's retries (copies into a temporary and renamed,
     * listings, checksums, mtime fixes); a run that has given up stops retrying. A timeout counts
     * towards giving up at each attempt, so a server that stopped answering costs
     * {@value #GIVE_UP_AFTER} timeouts in all, not that many per entry and retry.
     */
    <T> T retrying(Retries.Operation<T> op) throws IOException {
        return retries.run(op, e -> {
            if (timedOut(e)) {
                noteTimeout();
            }
            return gaveUp == null;
        });
    }

    /**
     * Does one action, telling the listener; false when it failed (recorded) or the run has
     * given up (not started).
     */
    boolean act(SyncAction a, IoTask task) {
        if (gaveUp != null) {
            return false;
        }
        listener.started(a);
        try {
            task.run();
            answered();
            listener.finished(a);
            return true;
        } catch (IOException e) {
            fail(a.relativePath(), operation(a), e);
            listener.failed(a, e);
            return false;
        } catch (RuntimeException e) {
            IOException wrapped = new IOException(e.toString(), e);
            fail(a.relativePath(), operation(a), wrapped);
            listener.failed(a, wrapped);
            return false;
        }
    }

    private static String operation(SyncAction a) {
        return a.kind().name().toLowerCase(Locale.ROOT);
    }

    private void noteTimeout() {
        if (consecutiveTimeouts.incrementAndGet() >= GIVE_UP_AFTER && gaveUp == null) {
            gaveUp = "gave up: " + GIVE_UP_AFTER + " requests in a row timed out (the server stopped answering); "
                    + "the rest of the tree was not synced";
        }
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }
}
