package dev.remotepath.webdav;

import java.util.Arrays;

/**
 * Values already made from these bytes, found without making a string: a small open-addressed
 * table that stops taking entries once three quarters full (a hostile answer's endless new
 * names are then made each time, not kept).
 */
final class ByteInterner {
    private static final int SIZE = 512;
    private final byte[][] keys = new byte[SIZE][];
    private final Object[] found = new Object[SIZE];
    private int count;

    static int hash(byte[] b, int off, int n) {
        int h = 0;
        for (int i = off; i < off + n; i++) {
            h = 31 * h + b[i];
        }
        return h;
    }

    Object get(byte[] b, int off, int n, int h) {
        for (int i = (h ^ h >>> 16) & (SIZE - 1); keys[i] != null; i = i + 1 & (SIZE - 1)) {
            if (same(keys[i], b, off, n)) {
                return found[i];
            }
        }
        return null;
    }

    /** Keeps or replaces the value for these bytes: whether it is kept (false once the table is full). */
    boolean put(byte[] b, int off, int n, int h, Object value) {
        int i = (h ^ h >>> 16) & (SIZE - 1);
        while (keys[i] != null) {
            if (same(keys[i], b, off, n)) {
                found[i] = value;
                return true;
            }
            i = i + 1 & (SIZE - 1);
        }
        if (count >= SIZE * 3 / 4) {
            return false;
        }
        keys[i] = Arrays.copyOfRange(b, off, off + n);
        found[i] = value;
        count++;
        return true;
    }

    private static boolean same(byte[] key, byte[] b, int off, int n) {
        if (key.length != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (key[i] != b[off + i]) {
                return false;
            }
        }
        return true;
    }
}
