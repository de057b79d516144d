package dev.remotepath.tree;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Visits the directories of a tree on a fixed number of threads, with a bounded number of
 * visits waiting, whatever the tree's size. A visit hands its subdirectories to
 * {@link #submit}; when the queue is full, {@code submit} runs the visit at once on the
 * calling thread (depth first), so nothing grows with the number of directories discovered.
 *
 * <p>The bound it proves: at most {@code threads} visits run at once, each holding the
 * listings of at most the depth of the tree it runs inline (one per level), and at most
 * {@code queueBound} visits wait in the queue. No thread, task or {@link java.util.concurrent.Phaser}
 * party exists per directory (a {@code Phaser} refuses its 65,536th party: a directory of
 * 70,000 subdirectories on a remote backend used to end the run).
 *
 * <p>The caller's thread is one of the workers: {@link #run} returns when every visit,
 * including those submitted by visits, has finished.
 */
public final class BoundedTraversal {

    /** One directory's visit; it may submit more. Its failures are its own to report. */
    @FunctionalInterface
    public interface Visit {
        void run() throws IOException;
    }

    private final int queueBound;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Visit> waiting = new ArrayDeque<>();
    /** Visits submitted and not yet finished: queued, running on a worker, or running inline. */
    private long outstanding;
    private Throwable firstFailure;

    private BoundedTraversal(int queueBound) {
        this.queueBound = queueBound;
    }

    /**
     * Runs {@code root}, and every visit it or its descendants submit, on {@code threads}
     * threads (the caller's and {@code threads - 1} virtual threads); returns when all have
     * finished. A visit that throws is reported here after the others finished (the first
     * one, with later ones suppressed): visits are expected to report their own IO failures.
     *
     * @param root a visit given the traversal it runs in, so it can submit its children
     */
    public static void run(int threads, int queueBound, java.util.function.Function<BoundedTraversal, Visit> root)
            throws IOException {
        if (threads < 1 || queueBound < 0) {
            throw new IllegalArgumentException("threads must be at least 1 and queueBound not negative: "
                    + threads + ", " + queueBound);
        }
        BoundedTraversal t = new BoundedTraversal(queueBound);
        t.outstanding = 1;
        t.waiting.add(root.apply(t));
        List<Thread> workers = new ArrayList<>(threads - 1);
        for (int i = 1; i < threads; i++) {
            workers.add(Thread.ofVirtual().name("rpath-traversal-" + i).start(t::work));
        }
        try {
            t.work();
        } finally {
            for (Thread w : workers) {
                try {
                    w.join();
                } catch (InterruptedException e) {
                    for (Thread other : workers) {
                        other.interrupt();
                    }
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("traversal interrupted");
                }
            }
        }
        if (t.firstFailure != null) {
            throw rethrown(t.firstFailure);
        }
    }

    /**
     * Throws {@code failure} as it is when it is an IOException or unchecked, else wrapped in an
     * IOException. An instanceof chain, not a switch on its type: a type switch is bootstrapped
     * by invokedynamic, which spun a class (~4 ms) at the end of every fresh command's walk.
     */
    static IOException rethrown(Throwable failure) throws IOException {
        if (failure instanceof IOException io) {
            throw io;
        } else if (failure instanceof RuntimeException rt) {
            throw rt;
        } else if (failure instanceof Error err) {
            throw err;
        }
        throw new IOException(failure);
    }

    /**
     * Queues {@code visit}, or runs it now on this thread when {@code queueBound} visits are
     * already waiting. Returns when it is queued or done.
     */
    public void submit(Visit visit) {
        lock.lock();
        try {
            outstanding++;
            if (waiting.size() < queueBound) {
                waiting.addLast(visit);
                changed.signal();
                return;
            }
        } finally {
            lock.unlock();
        }
        runOne(visit);
    }

    /** A worker: takes visits until none is outstanding anywhere. */
    private void work() {
        while (true) {
            Visit next;
            lock.lock();
            try {
                while (waiting.isEmpty() && outstanding > 0) {
                    changed.awaitUninterruptibly();
                }
                if (waiting.isEmpty()) {
                    return; // outstanding == 0: every visit has finished
                }
                // Newest first: the tree is taken depth first, which keeps the queue short.
                next = waiting.pollLast();
            } finally {
                lock.unlock();
            }
            runOne(next);
        }
    }

    private void runOne(Visit visit) {
        try {
            visit.run();
        } catch (IOException | RuntimeException | Error e) {
            lock.lock();
            try {
                if (firstFailure == null) {
                    firstFailure = e;
                } else if (firstFailure != e) {
                    firstFailure.addSuppressed(e);
                }
            } finally {
                lock.unlock();
            }
        } finally {
            lock.lock();
            try {
                if (--outstanding == 0) {
                    changed.signalAll();
                }
            } finally {
                lock.unlock();
            }
        }
    }
}
