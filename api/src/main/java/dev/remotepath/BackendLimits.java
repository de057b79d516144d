package dev.remotepath;

import dev.remotepath.spi.RemoteFileSystem;
import java.io.InterruptedIOException;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Bounds that hold per file system, across every copy, sync and walk of this JVM at once:
 * how many files are transferred to or from it at a time (rclone's {@code --transfers}) and
 * how many of its directories are listed at a time ({@code --checkers}). A run's own
 * {@code transfers} bound what that run does; these bound what all runs together ask of one
 * server, so ten scripted syncs against one SFTP host do not open forty transfers on it.
 *
 * <p>Unlimited by default. A transfer between two limited file systems takes a place in
 * both, always in the same order (the order the limits were first set in), so two copies in
 * opposite directions cannot each hold one place and wait for the other. Places are taken by
 * the library's algorithms ({@code copyTo}, {@code TreeCopier}, {@code PathSyncer}); code of
 * one's own can take them through {@link #transfer} and {@link #listing}.
 */
public final class BackendLimits {

    private BackendLimits() {
    }

    /** A place taken; closing it gives it back (once). */
    public interface Permit extends AutoCloseable {
        @Override
        void close();
    }

    private static final Permit NONE = () -> { };

    // File systems are identity objects: a weak map forgets a limit with the file system it is for.
    private static final Map<RemoteFileSystem, Gate> TRANSFERS = Collections.synchronizedMap(new WeakHashMap<>());
    private static final Map<RemoteFileSystem, Gate> LISTINGS = Collections.synchronizedMap(new WeakHashMap<>());
    private static final AtomicLong ORDER = new AtomicLong();
    /** False until a limit is first set: the common case pays one volatile read per transfer. */
    private static volatile boolean anyLimit;

    /** At most {@code atOnce} file transfers reading from or writing to {@code fs} at a time. */
    public static void limitTransfers(RemoteFileSystem fs, int atOnce) {
        limit(TRANSFERS, fs, atOnce, "transfers");
    }

    /** At most {@code atOnce} directory listings of {@code fs} at a time. */
    public static void limitListings(RemoteFileSystem fs, int atOnce) {
        limit(LISTINGS, fs, atOnce, "listings");
    }

    /** The transfer limit set for {@code fs}; empty when it has none. */
    public static OptionalInt transfers(RemoteFileSystem fs) {
        return limitOf(TRANSFERS, fs);
    }

    /** The listing limit set for {@code fs}; empty when it has none. */
    public static OptionalInt listings(RemoteFileSystem fs) {
        return limitOf(LISTINGS, fs);
    }

    /**
     * Takes a transfer place in the file systems of {@code source} and {@code target} (one, if
     * they are the same), waiting while either is full.
     *
     * @throws InterruptedIOException when interrupted while waiting (nothing then held)
     */
    public static Permit transfer(RemotePath source, RemotePath target) throws InterruptedIOException {
        if (!anyLimit) {
            return NONE;
        }
        Gate a = TRANSFERS.get(source.fileSystem());
        Gate b = source.fileSystem() == target.fileSystem() ? null : TRANSFERS.get(target.fileSystem());
        if (a == null || b == null) {
            Gate only = a != null ? a : b;
            return only == null ? NONE : only.enter();
        }
        Gate first = a.order < b.order ? a : b;
        Gate second = first == a ? b : a;
        Permit one = first.enter();
        try {
            Permit two = second.enter();
            return () -> {
                two.close();
                one.close();
            };
        } catch (InterruptedIOException e) {
            one.close();
            throw e;
        }
    }

    /**
     * Takes a listing place in the file system of {@code directory}, waiting while it is full.
     *
     * @throws InterruptedIOException when interrupted while waiting
     */
    public static Permit listing(RemotePath directory) throws InterruptedIOException {
        if (!anyLimit) {
            return NONE;
        }
        Gate g = LISTINGS.get(directory.fileSystem());
        return g == null ? NONE : g.enter();
    }

    private static void limit(Map<RemoteFileSystem, Gate> gates, RemoteFileSystem fs, int atOnce, String what) {
        Objects.requireNonNull(fs, "fs");
        if (atOnce < 1) {
            throw new IllegalArgumentException(what + " limit must be at least 1: " + atOnce);
        }
        gates.computeIfAbsent(fs, k -> new Gate(ORDER.incrementAndGet())).resize(atOnce);
        anyLimit = true;
    }

    private static OptionalInt limitOf(Map<RemoteFileSystem, Gate> gates, RemoteFileSystem fs) {
        Gate g = gates.get(fs);
        return g == null ? OptionalInt.empty() : OptionalInt.of(g.limit());
    }

    /** A counting gate whose size may change while places are held (a Semaphore's cannot shrink cleanly). */
    private static final class Gate {
        final long order;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition freed = lock.newCondition();
        private int limit = Integer.MAX_VALUE;
        private int inUse;

        Gate(long order) {
            this.order = order;
        }

        int limit() {
            lock.lock();
            try {
                return limit;
            } finally {
                lock.unlock();
            }
        }

        void resize(int newLimit) {
            lock.lock();
            try {
                limit = newLimit;
                freed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        Permit enter() throws InterruptedIOException {
            lock.lock();
            try {
                while (inUse >= limit) {
                    freed.await();
                }
                inUse++;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a place (" + limit + " at once)");
            } finally {
                lock.unlock();
            }
            return new Permit() {
                private boolean closed;

                @Override
                public void close() {
                    lock.lock();
                    try {
                        if (!closed) {
                            closed = true;
                            inUse--;
                            freed.signal();
                        }
                    } finally {
                        lock.unlock();
                    }
                }
            };
        }
    }
}
