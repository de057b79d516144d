package dev.remotepath.syncer;

import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A run's bandwidth limit, shared by all its transfers: each chunk written takes its bytes from
 * a budget refilled at {@code bytesPerSecond}, and a transfer that finds it overdrawn waits until
 * its share is due. Bursts are bounded to a quarter of a second's worth. Unlimited, it costs a
 * branch per chunk.
 */
final class Bandwidth {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long bytesPerSecond;
    /** When the bytes handed out so far are all due, at the limit's pace. */
    private long dueAt;

    Bandwidth(OptionalLong bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond.orElse(0);
        this.dueAt = System.nanoTime();
    }

    /** Waits until {@code bytes} more are within the limit. */
    void acquire(long bytes) {
        if (bytesPerSecond <= 0 || bytes <= 0) {
            return;
        }
        long wakeAt;
        synchronized (this) {
            long now = System.nanoTime();
            // Idle time earns at most a quarter second of burst.
            long earliest = now - NANOS_PER_SECOND / 4;
            if (dueAt < earliest) {
                dueAt = earliest;
            }
            // In floating point: bytes x 10^9 overflows a long past 9.2 GB, and the wait must
            // be the chunk's share of time, never a saturated "forever".
            dueAt += (long) ((double) bytes * NANOS_PER_SECOND / bytesPerSecond);
            wakeAt = dueAt;
        }
        for (long left = wakeAt - System.nanoTime(); left > 0; left = wakeAt - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                return; // the copy sees the interruption at its next read or write
            }
        }
    }
}
