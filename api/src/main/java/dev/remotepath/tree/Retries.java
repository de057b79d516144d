package dev.remotepath.tree;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Runs an idempotent operation again when it failed for a reason that may pass: a dropped
 * connection, a reset, a timeout, a server error. An answer of the file system itself (a
 * {@link FileSystemException}: no such file, access denied, already exists, not a directory, an
 * unsafe name, a loop) is final and never retried, nor is an interruption.
 *
 * <p>Waits {@code backoff}, then twice that, and so on (at most 10 s) between attempts.
 * Immutable; share one per run.
 *
 * @param retries how many times a failed attempt is repeated (0: never)
 * @param backoff the wait before the first repetition
 */
public record Retries(int retries, Duration backoff) {

    /** What rclone does by default for a run's failed entries: three more attempts. */
    public static final int DEFAULT_RETRIES = 3;

    private static final Duration MAX_WAIT = Duration.ofSeconds(10);

    public Retries {
        if (retries < 0) {
            throw new IllegalArgumentException("retries must not be negative: " + retries);
        }
        if (backoff.isNegative()) {
            throw new IllegalArgumentException("backoff must not be negative: " + backoff);
        }
    }

    /** No retry at all. */
    public static Retries none() {
        return new Retries(0, Duration.ZERO);
    }

    /** One operation; it must be safe to run again after a failure. */
    @FunctionalInterface
    public interface Operation<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code op}, repeating it after a transient failure while {@code keepTrying} accepts
     * that failure (it sees each one before the wait: a run counts its timeouts there, and
     * stops retrying once it has given up); the last failure is thrown, the first suppressed by it.
     */
    public <T> T run(Operation<T> op, Predicate<IOException> keepTrying) throws IOException {
        IOException first = null;
        for (int attempt = 0;; attempt++) {
            try {
                return op.run();
            } catch (IOException e) {
                if (attempt >= retries || !isTransient(e) || !keepTrying.test(e)) {
                    if (first != null && first != e) {
                        e.addSuppressed(first);
                    }
                    throw e;
                }
                if (first == null) {
                    first = e;
                }
                sleep(wait(attempt));
            }
        }
    }

    /** The wait before repetition {@code attempt + 1}. */
    Duration wait(int attempt) {
        if (backoff.compareTo(MAX_WAIT) >= 0) {
            return MAX_WAIT; // a backoff of years doubled would overflow a Duration
        }
        // Under 10 s times at most 2^20: no overflow. Not Duration.multipliedBy (BigDecimal's
        // initialiser, ~10 ms of a fresh JVM's first retry; spi.Timeouts.times).
        Duration d = dev.remotepath.spi.Timeouts.times(backoff, 1 << Math.min(attempt, 20));
        return d.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : d;
    }

    /**
     * True for a failure that may not happen again: anything but an answer of the file system
     * and an interruption (a timeout counts as transient: the server may answer next time).
     */
    public static boolean isTransient(IOException e) {
        if (e instanceof FileSystemException) {
            return false;
        }
        return !(e instanceof InterruptedIOException) || e instanceof SocketTimeoutException;
    }

    private static void sleep(Duration d) throws InterruptedIOException {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to retry");
        }
    }
}
