package dev.remotepath.cli;

import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncListener;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A progress line on stderr for copies and syncs that take more than a moment: files and bytes
 * copied out of those found so far (a {@code +} while the walk is still finding more), the
 * rate, the ETA once the walk is over, and the largest file in flight with its share done.
 * Only file copies count as files (directories made, mtimes fixed and deletions do not), so
 * the count never passes the total. Shown only on a terminal, never in {@code --json} mode; it
 * draws nothing for the first second, so quick runs stay quiet, and at most five times a
 * second after that.
 */
final class Progress implements SyncListener, dev.remotepath.tree.TreeCopier.Listener, AutoCloseable {

    private static final long FIRST_DRAW_NANOS = 1_000_000_000L;
    private static final long REDRAW_MILLIS = 200;
    /** The line stays within a classic terminal's width, so it redraws in place. */
    private static final int WIDTH = 79;

    private final PrintWriter err;
    private final long start = System.nanoTime();
    private final AtomicLong scheduledFiles = new AtomicLong();
    private final AtomicLong scheduledBytes = new AtomicLong();
    private final AtomicLong doneFiles = new AtomicLong();
    private final AtomicLong doneBytes = new AtomicLong();
    private volatile boolean walkFinished;
    /** Copies under way: name, size and bytes done, for the file-in-flight part of the line. */
    private final java.util.concurrent.ConcurrentHashMap<Object, long[]> inFlight = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ConcurrentHashMap<Object, String> inFlightNames = new java.util.concurrent.ConcurrentHashMap<>();
    private final Thread painter;
    private volatile boolean drawn;
    private int lastLength;

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
        /** What a plain copy (no sync actions) reports to. */
        dev.remotepath.tree.TreeCopier.Listener copyListener() {
            return listener instanceof Progress p ? p : new dev.remotepath.tree.TreeCopier.Listener() { };
        }

        @Override
        public void close() {
            finish.run();
        }
    }

    private static boolean copiesContent(SyncAction a) {
        return a.kind() == SyncAction.Kind.COPY_NEW || a.kind() == SyncAction.Kind.COPY_UPDATE;
    }

    @Override
    public void scheduled(SyncAction a) {
        if (copiesContent(a)) {
            scheduledFiles.incrementAndGet();
            scheduledBytes.addAndGet(a.size().orElse(0));
        }
    }

    @Override
    public void started(SyncAction a) {
        if (copiesContent(a)) {
            inFlight.put(a, new long[] {a.size().orElse(0), 0});
            inFlightNames.put(a, a.relativePath());
        }
    }

    @Override
    public void progress(SyncAction a, long bytes) {
        doneBytes.addAndGet(bytes);
        long[] f = inFlight.get(a);
        if (f != null) {
            f[1] += bytes;
        }
    }

    @Override
    public void finished(SyncAction a) {
        if (copiesContent(a)) {
            done(a);
        }
    }

    @Override
    public void failed(SyncAction a, java.io.IOException e) {
        if (copiesContent(a)) {
            done(a);
        }
    }

    private void done(Object key) {
        doneFiles.incrementAndGet();
        inFlight.remove(key);
        inFlightNames.remove(key);
    }

    @Override
    public void traversalFinished() {
        walkFinished = true;
    }

    // TreeCopier.Listener: rpath cp

    @Override
    public void fileScheduled(dev.remotepath.RemotePath source, long size) {
        scheduledFiles.incrementAndGet();
        scheduledBytes.addAndGet(size);
        inFlight.put(source, new long[] {size, -1}); // bytes of a tree copy are not told per file
        inFlightNames.put(source, source.name());
    }

    @Override
    public void bytesWritten(long n) {
        doneBytes.addAndGet(n);
        if (inFlight.size() == 1) {
            inFlight.values().forEach(f -> f[1] = f[1] < 0 ? n : f[1] + n); // one file in flight: its bytes
        }
    }

    @Override
    public void fileDone(dev.remotepath.RemotePath source) {
        done(source);
    }

    @Override
    public void walkFinished() {
        walkFinished = true;
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
        String line = line(System.nanoTime() - start);
        StringBuilder out = new StringBuilder(line.length() + 8).append('\r').append(line);
        for (int i = line.length(); i < lastLength; i++) {
            out.append(' '); // wipe what a longer previous line left
        }
        lastLength = line.length();
        err.print(out);
        err.flush();
        drawn = true;
    }

    /** The progress line after {@code elapsedNanos}: what the terminal shows. */
    String line(long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        long bytes = doneBytes.get();
        long totalBytes = scheduledBytes.get();
        double rate = bytes / Math.max(seconds, 1e-3);
        String more = walkFinished ? "" : "+";
        long left = Math.max(0, totalBytes - bytes);
        String eta = !walkFinished ? "-" : left == 0 ? "0:00" : rate > 0 ? duration((long) Math.ceil(left / rate)) : "-";
        StringBuilder sb = new StringBuilder(WIDTH + 16);
        sb.append(String.format(Locale.ROOT, "%,d/%,d%s files  %s/%s%s  %s/s  ETA %s", doneFiles.get(),
                scheduledFiles.get(), more, size(bytes), size(totalBytes), more, size((long) rate), eta));
        // The largest file in flight, when it is large enough to be worth naming (a second's worth or 1 MiB).
        Object biggest = null;
        long biggestSize = Math.max(1 << 20, (long) rate);
        for (java.util.Map.Entry<Object, long[]> f : inFlight.entrySet()) {
            if (f.getValue()[0] >= biggestSize) {
                biggest = f.getKey();
                biggestSize = f.getValue()[0];
            }
        }
        if (biggest != null) {
            long[] f = inFlight.get(biggest);
            String name = inFlightNames.get(biggest);
            if (f != null && name != null) {
                String pct = f[1] >= 0 && f[0] > 0 ? " " + Math.min(100, f[1] * 100 / f[0]) + "%" : "";
                int room = WIDTH - sb.length() - 2 - pct.length();
                if (room >= 8) {
                    sb.append("  ").append(shorten(Text.escape(name), room)).append(pct);
                }
            }
        }
        return sb.length() > WIDTH ? sb.substring(0, WIDTH) : sb.toString();
    }

    /** {@code name} within {@code room} characters, its middle elided. */
    static String shorten(String name, int room) {
        if (name.length() <= room) {
            return name;
        }
        int head = (room - 1) / 2;
        return name.substring(0, head) + "\u2026" + name.substring(name.length() - (room - 1 - head));
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
