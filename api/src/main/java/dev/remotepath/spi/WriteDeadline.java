package dev.remotepath.spi;

import java.io.Closeable;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bounds each write to a transport that has no write timeout of its own (a plain socket's
 * stream: a socket times out reads, never writes). A server that takes a connection and stops
 * reading fills the socket's buffers, and the next write would block for good; here a write
 * still blocked after the timeout closes the transport, which ends it, and fails with a
 * {@link SocketTimeoutException} naming what was written. Writes that complete in time cost a
 * timer entry each, so the stream given should be written in large pieces (put a buffer above
 * it, not below).
 */
public final class WriteDeadline {

    private WriteDeadline() {
    }

    /** One daemon thread for every stream's timers, started by the first bounded write. */
    private static final class Timer {
        static final ScheduledThreadPoolExecutor EXECUTOR = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "remotepath-write-deadline");
            t.setDaemon(true);
            return t;
        });

        static {
            EXECUTOR.setRemoveOnCancelPolicy(true); // a completed write's timer leaves nothing behind
        }
    }

    /**
     * {@code out} with each write and flush bounded by {@code timeout}: one still blocked then
     * closes {@code transport} (closing the socket ends a write blocked in it) and fails.
     *
     * @param what    what is written, for the error (the file's URI)
     * @param option  what sets the timeout, named in the error
     */
    public static OutputStream bounding(OutputStream out, Duration timeout, Closeable transport, String what,
            String option) {
        long nanos = Math.max(1, timeout.toNanos());
        return new FilterOutputStream(out) {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                bounded(() -> out.write(b, off, len));
            }

            @Override
            public void flush() throws IOException {
                bounded(out::flush);
            }

            private void bounded(Write write) throws IOException {
                AtomicBoolean fired = new AtomicBoolean();
                ScheduledFuture<?> timer = Timer.EXECUTOR.schedule(() -> {
                    fired.set(true);
                    try {
                        transport.close();
                    } catch (IOException ignored) {
                        // the write fails either way
                    }
                }, nanos, TimeUnit.NANOSECONDS);
                try {
                    write.run();
                } catch (IOException e) {
                    if (fired.get()) {
                        throw stalled(e);
                    }
                    throw e;
                } finally {
                    timer.cancel(false);
                }
                if (fired.get()) {
                    throw stalled(null); // done as the timer closed the transport: nothing more goes through
                }
            }

            private SocketTimeoutException stalled(IOException cause) {
                SocketTimeoutException t = new SocketTimeoutException(what + ": the server stopped reading: a write "
                        + "made no progress within " + timeout.toMillis() + " ms (" + option + ")");
                t.initCause(cause);
                return t;
            }
        };
    }

    @FunctionalInterface
    private interface Write {
        void run() throws IOException;
    }
}
