package dev.remotepath.testkit;

import java.io.InputStream;
import java.security.MessageDigest;

/** A deterministic, incompressible-looking byte stream that digests what it yields. */
final class PatternStream extends InputStream {
    private final long size;
    private final MessageDigest digest;
    private long pos;
    private long state = 0x9E3779B97F4A7C15L;

    PatternStream(long size, MessageDigest digest) {
        this.size = size;
        this.digest = digest;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (pos >= size) {
            return -1;
        }
        int n = (int) Math.min(len, size - pos);
        for (int i = 0; i < n; i++) {
            state ^= state << 13;
            state ^= state >>> 7;
            state ^= state << 17;
            b[off + i] = (byte) state;
        }
        digest.update(b, off, n);
        pos += n;
        return n;
    }
}
