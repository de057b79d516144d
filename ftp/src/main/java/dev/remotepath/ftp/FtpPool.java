package dev.remotepath.ftp;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.ClosedFileSystemException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Control connections to one server for one user. FTP carries one command or transfer at a time
 * per connection, so each operation (and each open stream) takes a connection of its own and
 * gives it back. At most {@code size} are open at once, except that a thread already holding one
 * (a read stream, while it writes to the same server) may open one more: otherwise threads that
 * each hold a read and wait for a write would wait for each other forever. An idle connection is
 * checked with {@code NOOP} before reuse once it has been idle longer than the keep-alive.
 */
final class FtpPool implements Closeable {

    /** Opens one more logged-in connection. */
    @FunctionalInterface
    interface Connector {
        FtpConnection open() throws IOException;
    }

    private final Connector connector;
    private final int size;
    private final long checkAfterNanos;
    private final Deque<FtpConnection> idle = new ArrayDeque<>();
    private final ThreadLocal<int[]> heldHere = ThreadLocal.withInitial(() -> new int[1]);
    private int open;
    private boolean closed;

    FtpPool(FtpConnection first, int size, java.time.Duration checkAfter, Connector connector) {
        this.connector = connector;
        this.size = size;
        this.checkAfterNanos = checkAfter.toNanos();
        this.open = 1;
        this.idle.push(first);
    }

    /** A connection for the calling thread alone, until {@link #release}d. */
    FtpConnection lease() throws IOException {
        while (true) {
            FtpConnection reuse = null;
            synchronized (this) {
                while (true) {
                    if (closed) {
                        throw new ClosedFileSystemException();
                    }
                    if (!idle.isEmpty()) {
                        reuse = idle.pop();
                        break;
                    }
                    if (open < size || heldHere.get()[0] > 0) {
                        open++;
                        break;
                    }
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new java.io.InterruptedIOException("interrupted waiting for an FTP connection");
                    }
                }
            }
            if (reuse != null) {
                if (System.nanoTime() - reuse.idleSince() < checkAfterNanos || reuse.alive()) {
                    heldHere.get()[0]++;
                    return reuse;
                }
                reuse.drop(); // the server closed it while idle
                synchronized (this) {
                    open--;
                }
                continue;
            }
            try {
                FtpConnection fresh = connector.open();
                heldHere.get()[0]++;
                return fresh;
            } catch (IOException | RuntimeException e) {
                synchronized (this) {
                    open--;
                    notifyAll();
                }
                throw e;
            }
        }
    }

    /** Gives a connection back: kept for reuse if {@code healthy}, else dropped. */
    void release(FtpConnection c, boolean healthy) {
        int[] held = heldHere.get();
        if (held[0] > 0) { // a stream may be closed by another thread than the one that opened it
            held[0]--;
        }
        boolean keep;
        synchronized (this) {
            keep = healthy && !closed && idle.size() < size;
            if (keep) {
                c.markIdle();
                idle.push(c);
            } else {
                open--;
            }
            notifyAll();
        }
        if (!keep) {
            if (healthy) {
                c.close();
            } else {
                c.drop();
            }
        }
    }

    /** Connections open now, idle or in use. */
    synchronized int open() {
        return open;
    }

    @Override
    public void close() {
        List<FtpConnection> toClose;
        synchronized (this) {
            closed = true;
            toClose = new ArrayList<>(idle);
            open -= idle.size();
            idle.clear();
            notifyAll();
        }
        toClose.forEach(FtpConnection::close);
    }
}
