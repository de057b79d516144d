package dev.remotepath.syncer;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * Where the traversal's decisions go. The traversal and its rules ({@link SyncRun},
 * {@link QuickCheck}) are the same for a dry run and a real one; only this differs: a
 * {@link Run} carries each action out (directory creations at once, in the traversal, since
 * children need them; copies, links and content comparisons in a bounded pool of transfer
 * slots), a {@link Plan} writes each action down and changes nothing, running the comparisons
 * a decision needs inline.
 */
abstract sealed class Execution {

    /** Does {@code action} on the calling thread; false when it failed or the run has given up. */
    abstract boolean now(SyncAction action, IoTask task);

    /** Hands {@code action} to a transfer slot, waiting while all are busy (which bounds memory). */
    abstract void later(SyncAction action, IoTask task) throws IOException;

    /**
     * Does {@code action} in a transfer slot but on the calling thread: for a transfer shorter
     * than handing it to another thread (a small file between in-process file systems, where the
     * hand-off and the wake-up cost more than the copy's few system calls).
     */
    abstract void inline(SyncAction action, IoTask task) throws IOException;

    /** Runs a decision that may read content (a checksum comparison) and then act on its verdict. */
    abstract void decide(Runnable decision) throws IOException;

    /** Whether the target is changed at all: a plan sets no times and removes no temporaries. */
    abstract boolean carriesOut();

    /** The actions written down, for a plan; none for a run. */
    List<SyncAction> planned() {
        return List.of();
    }

    /** Waits for every transfer handed out; later ones may be handed out again after it. */
    void finish() {
    }

    /** A dry run: every action recorded, none done. */
    static final class Plan extends Execution {
        // Filled by several traversal threads; sorted before anyone reads them.
        private final List<SyncAction> planned = Collections.synchronizedList(new ArrayList<>());

        @Override
        boolean now(SyncAction action, IoTask task) {
            planned.add(action);
            return true;
        }

        @Override
        void later(SyncAction action, IoTask task) {
            planned.add(action);
        }

        @Override
        void inline(SyncAction action, IoTask task) {
            planned.add(action);
        }

        @Override
        void decide(Runnable decision) {
            decision.run();
        }

        @Override
        boolean carriesOut() {
            return false;
        }

        @Override
        List<SyncAction> planned() {
            return planned;
        }
    }

    /** A real run: actions done through {@link Failures#act}, transfers on virtual threads in bounded slots. */
    static final class Run extends Execution {
        private final Failures run;
        private final SyncListener listener;
        /** The transfers' threads; made again after {@link #finish}, for the deletion phase's replacements. */
        private ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        private final Semaphore slots;

        Run(Failures run, int transfers, SyncListener listener) {
            this.run = run;
            this.listener = listener;
            this.slots = new Semaphore(transfers);
        }

        @Override
        boolean now(SyncAction action, IoTask task) {
            return run.act(action, task);
        }

        @Override
        void later(SyncAction action, IoTask task) throws IOException {
            listener.scheduled(action);
            dispatch(() -> run.act(action, task));
        }

        @Override
        void inline(SyncAction action, IoTask task) throws IOException {
            listener.scheduled(action);
            acquire();
            try {
                run.act(action, task);
            } finally {
                slots.release();
            }
        }

        @Override
        void decide(Runnable decision) throws IOException {
            dispatch(decision);
        }

        @Override
        boolean carriesOut() {
            return true;
        }

        @Override
        void finish() {
            ExecutorService done;
            synchronized (this) {
                done = pool;
                pool = Executors.newVirtualThreadPerTaskExecutor();
            }
            done.close();
        }

        private synchronized ExecutorService pool() {
            return pool;
        }

        private void acquire() throws IOException {
            try {
                slots.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("sync interrupted");
            }
        }

        /** Runs a task in a transfer slot; blocks the traversal while all slots are busy. */
        private void dispatch(Runnable task) throws IOException {
            acquire();
            pool().execute(() -> {
                try {
                    task.run();
                } finally {
                    slots.release();
                }
            });
        }
    }
}
