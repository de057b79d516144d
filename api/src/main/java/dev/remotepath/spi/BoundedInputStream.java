package dev.remotepath.spi;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * At most {@code limit} bytes of another stream: reads, skips and {@code available} all stop
 * there, the rest of the underlying stream is left unread. For a read that asked its source for
 * more than it will use (a backend without ranged reads; an archive entry read with its header).
 */
public final class BoundedInputStream extends FilterInputStream {

    private long left;

    public BoundedInputStream(InputStream in, long limit) {
        super(in);
        if (limit < 0) {
            throw new IllegalArgumentException("negative limit " + limit);
        }
        this.left = limit;
    }

    @Override
    public int read() throws IOException {
        if (left <= 0) {
            return -1;
        }
        int c = super.read();
        if (c >= 0) {
            left--;
        }
        return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (left <= 0) {
            return -1;
        }
        int n = super.read(b, off, (int) Math.min(len, left));
        if (n > 0) {
            left -= n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(Math.min(n, left));
        if (skipped > 0) {
            left -= skipped;
        }
        return skipped;
    }

    @Override
    public int available() throws IOException {
        return (int) Math.min(super.available(), left);
    }

    /** Not supported: a reset would have to give back the bytes counted. */
    @Override
    public boolean markSupported() {
        return false;
    }
}
