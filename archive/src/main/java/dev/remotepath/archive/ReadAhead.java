package dev.remotepath.archive;

import dev.remotepath.RemotePath;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Ranges of a remote archive for its entries' reads, read ahead while reads go forward: a
 * read far from the last asks for exactly its range (one entry of a large zip costs its own
 * bytes), and each read that follows on from the last asks for a window twice as large, up to
 * {@link #MAX_WINDOW}, which the next entries' reads are then served from. A sync out of a zip
 * of many small entries on S3 or HTTP so costs a few requests, not one an entry. A few windows
 * are kept, so parallel readers a little apart are served too; a range larger than a window
 * is read straight through.
 */
final class ReadAhead {

    static final int FIRST_WINDOW = 64 * 1024;
    static final int MAX_WINDOW = 4 << 20;
    private static final int KEPT = 4;

    private final RemotePath archive;
    private final long archiveSize;
    private final Deque<Window> windows = new ArrayDeque<>(KEPT);
    private long lastStart = -1;
    private long lastEnd = -1;
    private int window;

    private record Window(long start, byte[] bytes) {
        boolean holds(long offset, long length) {
            return offset >= start && offset + length <= start + bytes.length;
        }
    }

    ReadAhead(RemotePath archive, long archiveSize) {
        this.archive = archive;
        this.archiveSize = archiveSize;
    }

    /** The archive's bytes from {@code offset}, at most {@code length} of them. */
    InputStream open(long offset, long length) throws IOException {
        length = Math.min(length, Math.max(0, archiveSize - offset));
        if (length > MAX_WINDOW) {
            return archive.fileSystem().openRead(archive, offset, length);
        }
        Window w = window(offset, length);
        return new ByteArrayInputStream(w.bytes(), (int) (offset - w.start()), (int) length);
    }

    private synchronized Window window(long offset, long length) throws IOException {
        for (Window w : windows) {
            if (w.holds(offset, length)) {
                return w;
            }
        }
        // Near the last read (parallel readers a little behind or ahead of it): a larger window;
        // elsewhere, the range alone.
        long slack = Math.max(window, FIRST_WINDOW);
        boolean forward = lastEnd >= 0 && offset >= lastStart - slack && offset <= lastEnd + slack;
        window = forward ? Math.min(MAX_WINDOW, Math.max(FIRST_WINDOW, window * 2)) : 0;
        long want = Math.min(archiveSize - offset, Math.max(length, window));
        Window w = new Window(offset, ZipCentralDirectory.readRange(archive, offset, (int) want));
        if (windows.size() == KEPT) {
            windows.removeLast();
        }
        windows.addFirst(w);
        lastStart = offset;
        lastEnd = offset + want;
        return w;
    }
}
