package dev.remotepath.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The bound {@link BoundedTraversal} promises, on synthetic trees far wider than that bound. */
class BoundedTraversalTest {

    /** A synthetic tree: every directory above {@code depth} has {@code fanOut} subdirectories. */
    private static final class Tree {
        final int fanOut;
        final int depth;
        final AtomicLong visited = new AtomicLong();
        final AtomicLong alive = new AtomicLong(); // submitted and not finished
        final AtomicLong maxAlive = new AtomicLong();
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        Tree(int fanOut, int depth) {
            this.fanOut = fanOut;
            this.depth = depth;
        }

        BoundedTraversal.Visit visit(BoundedTraversal t, int level) {
            return () -> {
                visited.incrementAndGet();
                threads.add(Thread.currentThread().toString());
                if (level < depth) {
                    for (int i = 0; i < fanOut; i++) {
                        maxAlive.accumulateAndGet(alive.incrementAndGet(), Math::max);
                        BoundedTraversal.Visit child = visit(t, level + 1);
                        t.submit(() -> {
                            try {
                                child.run();
                            } finally {
                                alive.decrementAndGet();
                            }
                        });
                    }
                }
            };
        }

        long size() {
            long n = 0;
            long level = 1;
            for (int d = 0; d <= depth; d++) {
                n += level;
                level *= fanOut;
            }
            return n;
        }
    }

    @Test
    void everyDirectoryIsVisitedWhileFewAreEverPending() throws IOException {
        Tree tree = new Tree(70_000, 1); // one directory of 70,000: past a Phaser's 65,535 parties
        int threads = 8;
        int queue = 64;
        BoundedTraversal.run(threads, queue, t -> tree.visit(t, 0));
        assertThat(tree.visited.get()).isEqualTo(70_001);
        // queued + running: each thread runs at most one visit per level inline, plus the queue.
        assertThat(tree.maxAlive.get()).isLessThanOrEqualTo((long) threads * (tree.depth + 1) + queue);
    }

    @Test
    void aDeepAndWideTreeStaysWithinTheBound() throws IOException {
        Tree tree = new Tree(12, 5); // 271,453 directories
        BoundedTraversal.run(4, 16, t -> tree.visit(t, 0));
        assertThat(tree.visited.get()).isEqualTo(tree.size());
        assertThat(tree.maxAlive.get()).isLessThanOrEqualTo(4L * (tree.depth + 1) + 16);
        assertThat(tree.threads.size()).isGreaterThan(1);
    }

    @Test
    void aQueueOfNoneWalksDepthFirstOnTheCallersThread() throws IOException {
        Tree tree = new Tree(3, 6);
        BoundedTraversal.run(1, 0, t -> tree.visit(t, 0));
        assertThat(tree.visited.get()).isEqualTo(tree.size());
        assertThat(tree.threads).hasSize(1);
        assertThat(tree.maxAlive.get()).isLessThanOrEqualTo(tree.depth);
    }

    @Test
    void aFailingVisitIsThrownAfterTheOthersFinished() {
        AtomicInteger done = new AtomicInteger();
        assertThatThrownBy(() -> BoundedTraversal.run(4, 8, t -> () -> {
            for (int i = 0; i < 100; i++) {
                int n = i;
                t.submit(() -> {
                    if (n == 50) {
                        throw new IOException("listing 50 failed");
                    }
                    done.incrementAndGet();
                });
            }
        })).isInstanceOf(IOException.class).hasMessage("listing 50 failed");
        assertThat(done.get()).isEqualTo(99);
    }

    @Test
    void badBoundsAreRefused() {
        assertThatThrownBy(() -> BoundedTraversal.run(0, 1, t -> () -> { }))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
