package dev.remotepath.cli;

import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncListener;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A progress line on stderr for copies and syncs that take more than a moment: files and
 * bytes done, rate, and ETA from the work scheduled so far. Shown only on a terminal, never
 * in {@code --json} mode; it draws nothing for the first second, so quick runs stay quiet.
 */
final class Progress implements SyncListener, AutoCloseable {

    private static final long FIRST_DRAW_NANOS = 1_000_000_000L;
    private static final long REDRAW_MILLIS = 250;

    private final PrintWriter err;
    private final long start = System.nanoTime();
    private final AtomicLong scheduledFiles = new AtomicLong();
    private final AtomicLong scheduledBytes = new AtomicLong();
    private final AtomicLong doneFiles = new AtomicLong();
    private final AtomicLong doneBytes = new AtomicLong();
    private final Thread painter;
    private volatile boolean drawn;

    private Progress(PrintWriter err) {
        this.err = err;
        this.painter = Thread.ofPlatform().daemon().name("rpath-progress").start(this::paintLoop);
    }

    /**
     * A progress line when stderr is a terminal and output is for people; else, for people, a
     * listener that prints each error as it happens; for --json, one that does nothing.
     */
    static SyncListenerHandle open(boolean json, PrintWriter err) {
        return open(json, false, err);
    }

    /** As {@link #open(boolean, PrintWriter)}, with no progress line when {@code noLine} (a dry run's plan). */
    static SyncListenerHandle open(boolean json, boolean noLine, PrintWriter err) {
        boolean terminal = !noLine && System.console() != null && System.console().isTerminal();
        if (json) {
            // Errors as JSON objects on stderr, as they happen (the report on stdout has them too).
            SyncListener errors = new SyncListener() {
                @Override
                public void error(dev.remotepath.syncer.SyncError e) {
                    synchronized (err) {
                        err.println(Failures.json(e));
                        err.flush();
                    }
                }
            };
            return new SyncListenerHandle(errors, () -> { });
        }
        if (!terminal) {
            SyncListener errors = new SyncListener() {
                @Override
                public void error(dev.remotepath.syncer.SyncError e) {
                    synchronized (err) {
                        err.println(errorLine(e));
                        err.flush();
                    }
                }
            };
            return new SyncListenerHandle(errors, () -> { });
        }
        Progress p = new Progress(err);
        return new SyncListenerHandle(p, p::close);
    }

    /** A listener and what to do when the work is over. */
    record SyncListenerHandle(SyncListener listener, Runnable finish) implements AutoCloseable {
        /** Bytes written by a plain copy (no sync actions). */
        java.util.function.LongConsumer bytes() {
            return listener instanceof Progress p ? p.doneBytes::addAndGet : n -> { };
        }

        @Override
        public void close() {
            finish.run();
        }
    }

    /** For a single copy whose size is known up front. */
    void expect(long files, long bytes) {
        scheduledFiles.addAndGet(files);
        scheduledBytes.addAndGet(bytes);
    }

    @Override
    public void scheduled(SyncAction a) {
        scheduledFiles.incrementAndGet();
        scheduledBytes.addAndGet(a.size().orElse(0));
    }

    @Override
    public void progress(SyncAction a, long bytes) {
        doneBytes.addAndGet(bytes);
    }

    @Override
    public void finished(SyncAction a) {
        doneFiles.incrementAndGet();
    }

    @Override
    public void failed(SyncAction a, java.io.IOException e) {
        doneFiles.incrementAndGet();
    }

    /** An error printed as it happens, above the progress line (which is redrawn after it). */
    @Override
    public synchronized void error(dev.remotepath.syncer.SyncError e) {
        if (drawn) {
            err.print("\r\u001b[K"); // back to the line's start and clear it
        }
        err.println(errorLine(e));
        if (drawn) {
            draw();
        }
        err.flush();
    }

    /** How sync errors read on stderr. */
    static String errorLine(dev.remotepath.syncer.SyncError e) {
        return "rpath sync: " + Text.escape(Hints.forCli(e.toString()));
    }

    private void paintLoop() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(REDRAW_MILLIS);
                if (System.nanoTime() - start >= FIRST_DRAW_NANOS) {
                    draw();
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    private synchronized void draw() {
        double seconds = (System.nanoTime() - start) / 1e9;
        long bytes = doneBytes.get();
        double rate = bytes / Math.max(seconds, 1e-3);
        long left = Math.max(0, scheduledBytes.get() - bytes);
        String eta = rate > 0 && left > 0 ? duration((long) (left / rate)) : "-";
        err.printf(Locale.ROOT, "\r%,d/%,d files  %s/%s  %s/s  ETA %s   ", doneFiles.get(), scheduledFiles.get(),
                size(bytes), size(scheduledBytes.get()), size((long) rate), eta);
        err.flush();
        drawn = true;
    }

    @Override
    public void close() {
        painter.interrupt();
        try {
            painter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (drawn) {
                draw();
                err.println();
                err.flush();
            }
        }
    }

    static String size(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private static String duration(long seconds) {
        return seconds >= 3600 ? String.format("%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                : String.format("%d:%02d", seconds / 60, seconds % 60);
    }
}
