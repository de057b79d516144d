package dev.remotepath.sftp;

import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Up to {@link SftpOptions#connections()} connections to one server, used as one wire: each
 * request goes to an idle connection, and a further one is opened only when a request starts
 * while every open one is busy. An SFTP server answers one connection's requests one after the
 * other (OpenSSH runs one {@code sftp-server} per connection), so concurrent callers (the
 * syncer's transfers) wait on each other's file operations on one connection; on two, 1000
 * small uploads took ~0.6x the time. A stream keeps the connection it opened on until closed.
 * A single-threaded caller only ever uses the first.
 *
 * <p>A further connection is opened in the background: the request that asked for it goes on
 * the least busy open one meanwhile (SFTP takes many requests at once on a connection). Made
 * to wait instead, it stalled for a whole SSH handshake (~130 ms on loopback, far more across a
 * network) while the open connection sat idle: a no-op sync's listings waited for it.
 */
final class PooledWire implements SftpWire {

    private static final Logger LOG = LoggerFactory.getLogger(PooledWire.class);

    /** Opens one more connection to the same server. */
    @FunctionalInterface
    interface Connector {
        SftpWire connect() throws IOException;
    }

    private static final class Slot {
        volatile SftpWire wire;
        final AtomicInteger busy = new AtomicInteger();
        /** A background connect for this slot is under way. */
        final java.util.concurrent.atomic.AtomicBoolean opening = new java.util.concurrent.atomic.AtomicBoolean();
    }

    private final Connector connector;
    private final Slot[] slots;
    /**
     * Until when ({@code System.nanoTime()}; 0: not at all) no extra connection is asked for,
     * after one failed to open (a server limiting sessions): until {@code retryExtra} later what
     * is open is used, then the pool tries again (the limit may have been other clients').
     */
    private volatile long fullUntil;
    private final long retryExtraNanos;
    /** Set once by closeQuietly: a connection a background connect brings after it is closed at once. */
    private volatile boolean closed;
    /**
     * The connection the file system was opened on: what {@link #first()} answers when no slot
     * holds one (a reconnect after the server died failed and left the first slot empty), so the
     * pool's questions are answered (not alive; its extensions) instead of failing on a null.
     */
    private final SftpWire initial;

    PooledWire(SftpWire first, int size, Connector connector) {
        this(first, size, connector, java.time.Duration.ofSeconds(30));
    }

    /** @param retryExtra how long after an extra connection failed to open the pool tries again */
    PooledWire(SftpWire first, int size, Connector connector, java.time.Duration retryExtra) {
        this.retryExtraNanos = retryExtra.toNanos();
        this.connector = connector;
        this.slots = new Slot[size];
        for (int i = 0; i < size; i++) {
            slots[i] = new Slot();
        }
        slots[0].wire = first;
        this.initial = first;
    }

    /** A connection and the slot whose busy count it raised; release() lowers it again. */
    private record Lease(Slot slot, SftpWire wire) {
        void release() {
            slot.busy.decrementAndGet();
        }
    }

    private boolean full() {
        long until = fullUntil;
        return until != 0 && System.nanoTime() - until < 0;
    }

    private Lease lease() throws IOException {
        Slot least = null;
        Slot toOpen = null;
        for (Slot s : slots) {
            SftpWire w = s.wire;
            boolean usable = w != null && w.alive();
            if (!usable) {
                // A dead connection with streams still on it stays until they are closed; the
                // first slot is always reopened (it is the pool's), others when the server takes more.
                if (s == slots[0] && s.busy.get() == 0) {
                    Lease opened = open(s, w);
                    if (opened != null) {
                        return opened;
                    }
                } else if (toOpen == null && s != slots[0] && !full() && s.busy.get() == 0 && !s.opening.get()) {
                    toOpen = s;
                }
                continue;
            }
            if (s.busy.get() == 0) {
                return take(s, w);
            }
            if (least == null || s.busy.get() < least.busy.get()) {
                least = s;
            }
        }
        if (least != null) {
            // Every open connection is busy: one more is opened for the next requests, this one
            // shares the least busy meanwhile.
            if (toOpen != null) {
                openInBackground(toOpen);
            }
            return take(least, least.wire);
        }
        if (toOpen != null) {
            // None is open to share: this request waits for the connection it needs.
            Lease opened = open(toOpen, toOpen.wire);
            if (opened != null) {
                return opened;
            }
        }
        // Every connection is dead and none could be opened: open the first again, failing
        // with the connect's own error.
        synchronized (slots[0]) {
            SftpWire w = connector.connect();
            SftpWire old = slots[0].wire;
            slots[0].wire = w;
            if (old != null) {
                old.closeQuietly();
            }
            return take(slots[0], w);
        }
    }

    /** Opens the slot's connection on a thread of its own; lease() chooses it once it is up. */
    private void openInBackground(Slot s) {
        if (!s.opening.compareAndSet(false, true)) {
            return;
        }
        Thread.ofPlatform().daemon().name("remotepath-sftp-connect").start(() -> {
            try {
                SftpWire w;
                try {
                    w = connector.connect();
                } catch (IOException | RuntimeException e) {
                    refused(e);
                    return;
                }
                synchronized (s) {
                    SftpWire dead = s.wire;
                    s.wire = w;
                    if (dead != null) {
                        dead.closeQuietly();
                    }
                }
                if (closed) {
                    w.closeQuietly();
                }
            } finally {
                s.opening.set(false);
            }
        });
    }

    /** Whether a background connect is under way (tests wait for it to end). */
    boolean opening() {
        for (Slot s : slots) {
            if (s.opening.get()) {
                return true;
            }
        }
        return false;
    }

    /** An extra connection could not be opened: what is open is used until retryExtra has passed. */
    private void refused(Exception e) {
        long until = System.nanoTime() + retryExtraNanos;
        fullUntil = until == 0 ? 1 : until;
        LOG.debug("no further SFTP connection ({}); going on with those open", e.toString());
    }

    private static Lease take(Slot s, SftpWire w) {
        s.busy.incrementAndGet();
        return new Lease(s, w);
    }

    /** Opens the slot's connection (replacing a dead one), or null when the server takes no more. */
    private Lease open(Slot s, SftpWire dead) {
        synchronized (s) {
            if (s.wire == dead) {
                if (dead != null) {
                    dead.closeQuietly();
                    s.wire = null;
                }
                try {
                    s.wire = connector.connect();
                    if (closed) {
                        s.wire.closeQuietly();
                    }
                } catch (IOException | RuntimeException e) {
                    if (s != slots[0]) {
                        refused(e);
                    }
                    return null; // for the first slot, lease() tries once more and reports the failure
                }
            }
            SftpWire w = s.wire;
            return w == null ? null : take(s, w);
        }
    }

    private <T> T on(SftpWire.Operation<T> call) throws IOException {
        Lease l = lease();
        try {
            return call.on(l.wire());
        } catch (SftpStatusException | SftpWire.EndlessListing answer) {
            throw answer;
        } catch (java.net.SocketTimeoutException slow) {
            // No answer in time proves nothing about the connection (the server may be slow or
            // paused): closing it would only turn the requests in flight on it into other errors.
            throw slow;
        } catch (IOException transport) {
            retire(l);
            throw transport;
        } finally {
            l.release();
        }
    }

    /**
     * A request failed on its connection without an answer (dropped, or dying without knowing
     * it yet): that connection is closed and its slot reopened when next chosen. The others, and
     * the streams open on them, go on.
     */
    private void retire(Lease l) {
        synchronized (l.slot()) {
            if (l.slot().wire == l.wire()) {
                l.wire().closeQuietly();
            }
        }
    }

    @FunctionalInterface
    private interface Use {
        void on(SftpWire w) throws IOException;
    }

    private void run(Use use) throws IOException {
        on(w -> {
            use.on(w);
            return null;
        });
    }

    /** A live connection, for what every connection to the server answers alike (its extensions). */
    private SftpWire first() {
        for (Slot s : slots) {
            SftpWire w = s.wire;
            if (w != null && w.alive()) {
                return w;
            }
        }
        SftpWire w = slots[0].wire;
        return w != null ? w : initial;
    }

    @Override
    public String client() {
        return first().client();
    }

    /** The first connection, on which the file system was opened, decides; a dead extra one is reopened when next chosen. */
    @Override
    public boolean alive() {
        return first().alive();
    }

    @Override
    public boolean hasPosixRename() {
        return first().hasPosixRename();
    }

    @Override
    public boolean hasCheckFile() {
        return first().hasCheckFile();
    }

    @Override
    public boolean hasLsetstat() {
        return first().hasLsetstat();
    }

    @Override
    public boolean hasCopyData() {
        return first().hasCopyData();
    }

    @Override
    public void copyData(String source, String target, int permissions) throws IOException {
        run(w -> w.copyData(source, target, permissions));
    }

    @Override
    public Attributes stat(String path) throws IOException {
        return on(w -> w.stat(path));
    }

    @Override
    public Attributes lstat(String path) throws IOException {
        return on(w -> w.lstat(path));
    }

    @Override
    public List<Entry> readDir(String path) throws IOException {
        return on(w -> w.readDir(path));
    }

    /** A stream keeps its connection busy until closed. */
    @Override
    public InputStream read(String path, long offset) throws IOException {
        return read(path, offset, Long.MAX_VALUE - offset);
    }

    @Override
    public InputStream read(String path, long offset, long length) throws IOException {
        Lease l = lease();
        try {
            return new Translated.In(l.wire().read(path, offset, length), e -> e, l::release);
        } catch (IOException | RuntimeException e) {
            l.release();
            throw e;
        }
    }

    @Override
    public OutputStream write(String path, WriteMode mode, Optional<Instant> mtime, int permissions) throws IOException {
        Lease l = lease();
        try {
            return new Translated.Out(l.wire().write(path, mode, mtime, permissions), e -> e, l::release);
        } catch (IOException | RuntimeException e) {
            l.release();
            throw e;
        }
    }

    @Override
    public void mkdir(String path, int permissions) throws IOException {
        run(w -> w.mkdir(path, permissions));
    }

    @Override
    public void rmdir(String path) throws IOException {
        run(w -> w.rmdir(path));
    }

    @Override
    public void remove(String path) throws IOException {
        run(w -> w.remove(path));
    }

    @Override
    public void rename(String source, String target) throws IOException {
        run(w -> w.rename(source, target));
    }

    @Override
    public void posixRename(String source, String target) throws IOException {
        run(w -> w.posixRename(source, target));
    }

    @Override
    public void setTimes(String path, Instant time) throws IOException {
        run(w -> w.setTimes(path, time));
    }

    @Override
    public void setTimesNoFollow(String path, Instant time) throws IOException {
        run(w -> w.setTimesNoFollow(path, time));
    }

    @Override
    public void setPermissions(String path, int mode) throws IOException {
        run(w -> w.setPermissions(path, mode));
    }

    @Override
    public void symlink(String link, String target) throws IOException {
        run(w -> w.symlink(link, target));
    }

    @Override
    public String readLink(String path) throws IOException {
        return on(w -> w.readLink(path));
    }

    @Override
    public java.util.Optional<dev.remotepath.spi.StoreSpace> space(String path) throws IOException {
        return on(w -> w.space(path));
    }

    @Override
    public Optional<byte[]> checkFile(String path, String algorithm) throws IOException {
        return on(w -> w.checkFile(path, algorithm));
    }

    @Override
    public void closeQuietly() {
        closed = true;
        // Unlocked, so as not to wait for a connect under way: a connection set after this reads
        // its slot sees closed (both volatile) and is closed by whoever set it.
        for (Slot s : slots) {
            SftpWire w = s.wire;
            if (w != null) {
                w.closeQuietly();
            }
        }
    }
}
