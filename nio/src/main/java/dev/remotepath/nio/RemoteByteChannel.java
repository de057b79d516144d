package dev.remotepath.nio;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A seekable channel over a RemotePath. Reading: each read continues the backend's ranged read
 * from the position, in windows ({@link #FIRST_WINDOW}, doubling while reads continue), and a move
 * of the position opens the next read there (so a zip's central directory at the end is read
 * without the bytes before it, and the backend reads ahead no further than the window). Writing: bytes go to the backend's
 * write stream in order, so the position can only move forward with them; truncating is not
 * supported.
 */
final class RemoteByteChannel implements SeekableByteChannel {

    private final RemotePath file;
    private final OutputStream out; // null when reading
    private InputStream in;
    private long inAt = -1; // where the open read stream is
    private long position;
    private long size = -1;
    private boolean open = true;

    private RemoteByteChannel(RemotePath file, OutputStream out) {
        this.file = file;
        this.out = out;
    }

    static RemoteByteChannel reading(RemotePath file, long knownSize) {
        RemoteByteChannel c = new RemoteByteChannel(file, null);
        c.size = knownSize;
        return c;
    }

    static RemoteByteChannel writing(RemotePath file, OutputStream out) {
        return new RemoteByteChannel(file, out);
    }

    private void ensureOpen() throws ClosedChannelException {
        if (!open) {
            throw new ClosedChannelException();
        }
    }

    /** The first window of a read at a new position: what a random reader (a zip's directory) wants. */
    static final long FIRST_WINDOW = 64 * 1024;
    /** Windows double while reads go on where the last one ended, up to this. */
    static final long MAX_WINDOW = 8L << 20;

    private long window;
    private long inEnd; // where the open read's window ends

    /**
     * Opens the backend's read at the position, for a window of bytes: the first at a new
     * position, twice the last when continuing where it ended (a sequential reader gets large
     * reads soon; a random one never makes the backend read ahead far past what it asked).
     */
    private void openAt(boolean continuing) throws IOException {
        if (in != null) {
            in.close();
        }
        window = continuing ? Math.min(window * 2, MAX_WINDOW) : FIRST_WINDOW;
        in = file.fileSystem().openRead(file, position, window);
        inAt = position;
        inEnd = position + window;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ensureOpen();
        if (out != null) {
            throw new NonReadableChannelException();
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (size >= 0 && position >= size) {
            return -1;
        }
        if (in == null || inAt != position) {
            openAt(false);
        }
        int n = readOnce(dst);
        if (n < 0 && inAt == inEnd) {
            openAt(true); // the window ended, not the file
            n = readOnce(dst);
        }
        if (n > 0) {
            position += n;
            inAt = position;
        }
        return n;
    }

    private int readOnce(ByteBuffer dst) throws IOException {
        if (dst.hasArray()) {
            int n = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
            if (n > 0) {
                dst.position(dst.position() + n);
            }
            return n;
        }
        byte[] b = new byte[Math.min(dst.remaining(), 64 * 1024)];
        int n = in.read(b);
        if (n > 0) {
            dst.put(b, 0, n);
        }
        return n;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        ensureOpen();
        if (out == null) {
            throw new NonWritableChannelException();
        }
        int n = src.remaining();
        if (src.hasArray()) {
            out.write(src.array(), src.arrayOffset() + src.position(), n);
            src.position(src.limit());
        } else {
            byte[] b = new byte[n];
            src.get(b);
            out.write(b);
        }
        position += n;
        return n;
    }

    @Override
    public long position() throws IOException {
        ensureOpen();
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position " + newPosition);
        }
        if (out != null && newPosition != position) {
            throw new UnsupportedOperationException("a RemotePath write is sequential: cannot move from " + position
                    + " to " + newPosition + " in " + file);
        }
        position = newPosition;
        return this;
    }

    @Override
    public long size() throws IOException {
        ensureOpen();
        if (out != null) {
            return position;
        }
        if (size < 0) {
            size = file.stat().size().orElseThrow(() -> new IOException(file + ": the backend gives no size"));
        }
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long newSize) throws IOException {
        ensureOpen();
        if (out == null) {
            throw new NonWritableChannelException();
        }
        if (newSize < position) {
            throw new UnsupportedOperationException("truncating a RemotePath write is not supported: " + file);
        }
        return this;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        try {
            if (in != null) {
                in.close();
            }
        } finally {
            if (out != null) {
                out.close();
            }
        }
    }
}
