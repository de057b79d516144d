package dev.remotepath.spi;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Locale;

/**
 * Cuts off a file body that trickles: a server that sends a byte now and then, each within the
 * read timeout, would otherwise hold a read for as long as it likes (a gigabyte at a byte a
 * second is thirty years). While a reader waits inside a read, the bytes must come at
 * {@link #minimumRate()} bytes a second at least, averaged over each window of waiting (the
 * backend's read timeout); a body below it fails the read with a {@link SocketTimeoutException}
 * naming the file, the rate and the option that sets it. Only the time spent waiting counts, so
 * a slow consumer (a slow target, an iteration paused between reads) is never taken for a slow
 * server. One per stream; not thread-safe.
 *
 * <pre>{@code
 * long started = System.nanoTime();
 * int n = in.read(b, off, len);
 * trickle.read(started, n);
 * }</pre>
 */
public final class TrickleGuard {

    /** The slowest a body may come by default, in bytes a second: a modem's tenth. */
    public static final long DEFAULT_MINIMUM_RATE = 1024;

    private final String what;
    private final long minimumRate;
    private final long windowNanos;
    private final String option;
    private long waitedNanos;
    private long bytes;

    /**
     * A guard at {@link #minimumRate()}, for the backends without an option of their own.
     *
     * @param what   what is read, for the error (the file's URI)
     * @param window the waiting over which the rate is averaged: the backend's read timeout
     */
    public TrickleGuard(String what, Duration window) {
        this(what, minimumRate(), window, "-Dremotepath.minimumBodyRate");
    }

    /**
     * @param what        what is read, for the error
     * @param minimumRate bytes a second at least; 0 turns the guard off
     * @param window      the waiting over which the rate is averaged
     * @param option      what sets the rate, named in the error
     */
    public TrickleGuard(String what, long minimumRate, Duration window, String option) {
        if (minimumRate < 0) {
            throw new IllegalArgumentException("minimumRate must not be negative");
        }
        this.what = what;
        this.minimumRate = minimumRate;
        this.windowNanos = Math.max(1, window.toNanos());
        this.option = option;
    }

    /**
     * The slowest a body may come, in bytes a second: {@code -Dremotepath.minimumBodyRate} (0
     * turns the guard off), read when a stream opens, else {@link #DEFAULT_MINIMUM_RATE}.
     */
    public static long minimumRate() {
        long rate = Long.getLong("remotepath.minimumBodyRate", DEFAULT_MINIMUM_RATE);
        return rate >= 0 ? rate : DEFAULT_MINIMUM_RATE;
    }

    /**
     * A read that began at {@code startedNanos} ({@link System#nanoTime()}) returned {@code n}
     * bytes (-1 at the end); fails when a whole window of waiting brought too few.
     */
    public void read(long startedNanos, int n) throws SocketTimeoutException {
        if (minimumRate == 0) {
            return;
        }
        waitedNanos += System.nanoTime() - startedNanos;
        if (n > 0) {
            bytes += n;
        }
        if (waitedNanos < windowNanos || n < 0) {
            return;
        }
        double seconds = waitedNanos / 1e9;
        if (bytes < minimumRate * seconds) {
            throw new SocketTimeoutException(what + ": the body trickles (" + bytes + " bytes in "
                    + String.format(Locale.ROOT, "%.0f", seconds) + " s of waiting, below " + minimumRate
                    + " B/s; " + option + ")");
        }
        waitedNanos = 0;
        bytes = 0;
    }

    /**
     * {@code in} with every read held to {@code guard}, for a stream that has no resume of its
     * own the guard's failure must stop (a resumed trickle would trickle again).
     */
    public static InputStream guarding(InputStream in, TrickleGuard guard) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                long started = System.nanoTime();
                int b = in.read();
                guard.read(started, b < 0 ? -1 : 1);
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                long started = System.nanoTime();
                int n = in.read(b, off, len);
                guard.read(started, n);
                return n;
            }
        };
    }
}
