package dev.remotepath.testkit;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.AbortableOutputStream;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Disturbs another file system in the ways real servers fail: writes that break after a
 * number of bytes (a full disk, a dropped connection), listings that fail, and listings with
 * extra, possibly hostile, names. Server-side copy is hidden so that writes go through the
 * client and can be broken.
 */
public class FaultInjectingFileSystem extends ForwardingFileSystem {

    private volatile long failWritesAfterBytes = -1;
    private volatile String failListingOf;
    private final List<ListedEntry> extraEntries = new ArrayList<>();
    private volatile long listingLatencyNanos;

    public FaultInjectingFileSystem(RemoteFileSystem delegate) {
        super(delegate);
    }

    /** Every write stream fails once it has accepted {@code bytes} bytes; negative turns it off. */
    public FaultInjectingFileSystem failWritesAfter(long bytes) {
        this.failWritesAfterBytes = bytes;
        return this;
    }

    /** Listing the directory whose path string is {@code path} fails with an IOException. */
    public FaultInjectingFileSystem failListing(String path) {
        this.failListingOf = path;
        return this;
    }

    /**
     * Every listing waits {@code latency} first, as a round trip to a server does, and the file
     * system no longer says it is {@link Capability#IN_PROCESS}: callers treat it as remote.
     */
    public FaultInjectingFileSystem listingLatency(java.time.Duration latency) {
        this.listingLatencyNanos = latency.toNanos();
        return this;
    }

    /** Every listing returns {@code entry} in addition to the real ones. */
    public FaultInjectingFileSystem addToEveryListing(ListedEntry entry) {
        extraEntries.add(entry);
        return this;
    }

    @Override
    public Set<Capability> capabilities() {
        Set<Capability> caps = EnumSet.noneOf(Capability.class);
        caps.addAll(super.capabilities());
        caps.remove(Capability.SERVER_SIDE_COPY);
        // Listing faults and latency are per directory: a flat listing would go around them.
        caps.remove(Capability.FLAT_LISTING);
        if (listingLatencyNanos > 0) {
            caps.remove(Capability.IN_PROCESS);
        }
        return caps;
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        if (directory.pathString().equals(failListingOf)) {
            throw new IOException("injected: listing " + directory + " failed");
        }
        if (listingLatencyNanos > 0) {
            long until = System.nanoTime() + listingLatencyNanos;
            for (long left = listingLatencyNanos; left > 0; left = until - System.nanoTime()) {
                java.util.concurrent.locks.LockSupport.parkNanos(left);
                if (Thread.interrupted()) {
                    throw new java.io.InterruptedIOException("listing " + directory + " interrupted");
                }
            }
        }
        if (extraEntries.isEmpty()) {
            return super.list(directory, detail);
        }
        List<ListedEntry> all = new ArrayList<>(extraEntries);
        try (DirectoryListing real = super.list(directory, detail)) {
            while (real.hasNext()) {
                all.add(real.next());
            }
        }
        return DirectoryListing.of(all);
    }

    @Override
    public DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
            throws IOException {
        // Through list(), so that injected failures and entries apply to every directory.
        return list(directory, detail);
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return failing(file, super.openWrite(file, mode));
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, java.time.Instant lastModified) throws IOException {
        return failing(file, super.openWrite(file, mode, lastModified));
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, dev.remotepath.spi.WriteAttributes attributes)
            throws IOException {
        return failing(file, super.openWrite(file, mode, attributes));
    }

    /** The stream, failing after the configured byte count; still abortable when the backend's is. */
    private OutputStream failing(RemotePath file, OutputStream out) {
        long limit = failWritesAfterBytes;
        if (limit < 0) {
            return out;
        }
        AtomicLong written = new AtomicLong();
        return new AbortableOutputStream() {
            @Override
            public void write(int b) throws IOException {
                check(1);
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                check(len);
                out.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
            }

            @Override
            public void abort() throws IOException {
                if (out instanceof AbortableOutputStream a) {
                    a.abort();
                } else {
                    out.close();
                }
            }

            private void check(int n) throws IOException {
                if (written.addAndGet(n) > limit) {
                    throw new IOException("injected: write to " + file + " failed after " + limit + " bytes");
                }
            }
        };
    }
}
