package dev.remotepath.syncer;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;

/**
 * A target listing under way on a virtual thread, so that the two sides of a directory are
 * read at the same time (on a remote backend that halves the round trips' wall time). On an
 * {@link Capability#IN_PROCESS} target the listing is done at once on the caller's thread
 * instead: two system calls at once gain nothing a thread per directory would not cost (a
 * no-op sync of 1,000 small directories: 221 -> 189 ms as a whole process).
 */
final class PendingListing {
    private final Thread thread;
    private volatile List<DirEntry> entries;
    private volatile IOException failure;

    /** How a directory is listed (sorted, with the run's retries). */
    @FunctionalInterface
    interface Lister {
        List<DirEntry> list(RemotePath dir) throws IOException;
    }

    private final Lister lister;

    PendingListing(RemotePath dir, Lister lister) {
        this.lister = lister;
        if (dir.fileSystem().capabilities().contains(Capability.IN_PROCESS)) {
            thread = null;
            list(dir);
        } else {
            thread = Thread.ofVirtual().start(() -> list(dir));
        }
    }

    private void list(RemotePath dir) {
        try {
            entries = lister.list(dir);
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException e) {
            failure = new IOException(e.toString(), e);
        }
    }

    /** Stops a listing still under way (the source side failed). */
    void cancel() {
        if (thread != null) {
            thread.interrupt();
        }
    }

    List<DirEntry> get() throws IOException {
        try {
            if (thread != null) {
                thread.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("sync interrupted while listing");
        }
        if (failure != null) {
            throw failure;
        }
        return entries;
    }
}
