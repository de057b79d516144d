package dev.remotepath.http.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Searches in a page's raw bytes eight at a time (SWAR: one {@code long} read tests eight
 * bytes). An index page is mostly padding and markup around a few short values, so finding the
 * next tag or line quickly is most of the parse; this avoids copying the page into a
 * {@code String} just to use the JDK's searches. Every result is exact.
 */
final class PageBytes {

    private PageBytes() {
    }

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long LOW7 = 0x7f7f7f7f7f7f7f7fL;
    private static final long CASE = 0x2020202020202020L;

    /** The high bit of every byte of {@code x} that is zero, and of no other byte. */
    private static long zeroBytes(long x) {
        return ~(((x & LOW7) + LOW7) | x | LOW7);
    }

    /** The first index of {@code b} in {@code a[from, to)}, or -1. */
    static int indexOf(byte[] a, byte b, int from, int to) {
        long pattern = (b & 0xffL) * ONES;
        int i = Math.max(from, 0);
        for (; i + 8 <= to; i += 8) {
            long found = zeroBytes((long) LONG.get(a, i) ^ pattern);
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The first index in {@code a[from, to - 1)} where {@code first} is followed by
     * {@code second} in either case ({@code second} must be a lower-case ASCII letter), or -1.
     */
    static int indexOfPairIgnoreCase(byte[] a, byte first, byte second, int from, int to) {
        return indexOfPair(a, first, second, from, to, false);
    }

    /**
     * As {@link #indexOfPairIgnoreCase}, or a newline if one comes first: one pass finds both
     * where a row ends and where the next link starts.
     */
    static int indexOfNewlineOrPairIgnoreCase(byte[] a, byte first, byte second, int from, int to) {
        return indexOfPair(a, first, second, from, to, true);
    }

    private static int indexOfPair(byte[] a, byte first, byte second, int from, int to, boolean orNewline) {
        long p1 = (first & 0xffL) * ONES;
        long p2 = (second & 0xffL) * ONES;
        long newlines = orNewline ? -1L : 0L;
        int i = Math.max(from, 0);
        for (; i + 9 <= to; i += 8) {
            long word = (long) LONG.get(a, i);
            long found = zeroBytes(word ^ p1) & zeroBytes(((long) LONG.get(a, i + 1) | CASE) ^ p2)
                    | zeroBytes(word ^ ('\n' * ONES)) & newlines;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i + 1 < to; i++) {
            if (orNewline && a[i] == '\n' || a[i] == first && (a[i + 1] | 0x20) == second) {
                return i;
            }
        }
        return -1;
    }

    /** The first index in {@code a[from, to)} that is not a space, or {@code to}. */
    static int skipSpaces(byte[] a, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long other = ~zeroBytes((long) LONG.get(a, i) ^ (' ' * ONES)) & ~LOW7;
            if (other != 0) {
                return i + (Long.numberOfTrailingZeros(other) >>> 3);
            }
        }
        while (i < to && a[i] == ' ') {
            i++;
        }
        return i;
    }

    /** The last index of {@code b} in {@code a[lowest, from]}, or -1. */
    static int lastIndexOf(byte[] a, byte b, int from, int lowest) {
        for (int i = Math.min(from, a.length - 1); i >= lowest; i--) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** True when {@code a[i, i + lower.length)} equals the lower-case ASCII {@code lower} in any case. */
    static boolean regionMatchesIgnoreCase(byte[] a, int i, int to, String lower) {
        int n = lower.length();
        if (i < 0 || i + n > to) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            int c = a[i + k];
            if (c >= 'A' && c <= 'Z') {
                c |= 0x20;
            }
            if (c != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
