package dev.remotepath.tree;

import dev.remotepath.UnsafeNameException;
import dev.remotepath.spi.ListedEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Sorts a listing's entries by name in {@link String#compareTo} order, and finds a name listed
 * twice on the way. A comparison sort of a large directory chased three objects per entry on
 * every comparison (the entry, its name, the name's bytes) and cost half of a 10,000-entry
 * listing's time; here each name gives a 64-bit key of its next eight characters once, the
 * keys are radix-sorted in flat arrays, and only names that share those eight characters are
 * looked at again (the next eight, recursively, or a comparison sort where a key cannot order
 * them).
 *
 * <p>A key holds one byte per character below U+00FF and a zero byte past the name's end; the
 * first character at or above U+00FF is written as {@code 0xFF} and ends the key. So a smaller
 * key always means a smaller name, and names with equal keys are ordered by the next step.
 */
final class NameOrder {

    /** Below this many names a comparison sort is as fast and allocates nothing more. */
    private static final int SMALL = 64;

    /**
     * Names that still agree after this many characters are left to the comparison sort: a
     * listing of names sharing a prefix of a megabyte (a hostile server's) would otherwise
     * recurse once per eight characters of it, into a StackOverflowError.
     */
    static final int MAX_KEY_OFFSET = 256;

    private static final Comparator<ListedEntry> BY_NAME = (a, b) -> a.name().compareTo(b.name());

    private NameOrder() {
    }

    /**
     * Sorts {@code a} by name in place.
     *
     * @param listedTwice the failure for a name two entries share (made only then: the
     *                    directory's URI is not worth encoding for every listing)
     * @throws UnsafeNameException when two entries have the same name
     */
    static void sort(ListedEntry[] a, Function<String, UnsafeNameException> listedTwice) throws UnsafeNameException {
        int n = a.length;
        if (n < SMALL) {
            comparisonSort(a, 0, n, listedTwice);
            return;
        }
        Scratch s = borrow(n);
        try {
            sortRange(a, 0, n, 0, s, listedTwice);
        } finally {
            giveBack(s);
        }
    }

    /**
     * Scratch arrays of up to {@link #POOLED} entries are kept for the next sort (two of them,
     * ~1 MB together at most): a listing of a large directory otherwise allocates ~28 bytes per
     * entry for them. Larger sorts allocate their own.
     */
    private static final int POOLED = 32_768;
    private static final java.util.concurrent.ConcurrentLinkedDeque<Scratch> POOL = new java.util.concurrent.ConcurrentLinkedDeque<>();
    private static final java.util.concurrent.atomic.AtomicInteger POOL_SIZE = new java.util.concurrent.atomic.AtomicInteger();

    private static Scratch borrow(int n) {
        if (n <= POOLED) {
            Scratch s = POOL.pollFirst();
            if (s != null) {
                POOL_SIZE.decrementAndGet();
                return s;
            }
            return new Scratch(POOLED);
        }
        return new Scratch(n);
    }

    private static void giveBack(Scratch s) {
        // A race may keep a third: harmless.
        if (s.key.length == POOLED && POOL_SIZE.get() < 2) {
            POOL_SIZE.incrementAndGet();
            POOL.offerFirst(s);
        }
    }

    private static final class Scratch {
        final long[] key;
        final int[] index;
        final long[] key2;
        final int[] index2;
        final ListedEntry[] moved;
        final int[][] counts = new int[8][256];
        final char[] chars = new char[8];

        Scratch(int n) {
            key = new long[n];
            index = new int[n];
            key2 = new long[n];
            index2 = new int[n];
            moved = new ListedEntry[n];
        }
    }

    /** Sorts {@code a[from, to)}, whose names agree on their first {@code offset} characters. */
    private static void sortRange(ListedEntry[] a, int from, int to, int offset, Scratch s, Function<String, UnsafeNameException> listedTwice)
            throws UnsafeNameException {
        int n = to - from;
        if (n < SMALL || offset >= MAX_KEY_OFFSET) {
            comparisonSort(a, from, to, listedTwice);
            return;
        }
        long[] key = s.key;
        int[] index = s.index;
        for (int[] c : s.counts) {
            Arrays.fill(c, 0);
        }
        for (int i = 0; i < n; i++) {
            long k = key(a[from + i].name(), offset, s.chars);
            key[i] = k;
            index[i] = i;
            for (int d = 0; d < 8; d++) {
                s.counts[d][(int) (k >>> (8 * d)) & 0xff]++;
            }
        }
        long[] k1 = key;
        int[] i1 = index;
        long[] k2 = s.key2;
        int[] i2 = s.index2;
        for (int d = 0; d < 8; d++) { // least significant byte first: each pass is stable
            int[] count = s.counts[d];
            if (count[(int) (k1[0] >>> (8 * d)) & 0xff] == n) {
                continue; // every key has the same byte here
            }
            int sum = 0;
            for (int b = 0; b < 256; b++) {
                int c = count[b];
                count[b] = sum;
                sum += c;
            }
            for (int i = 0; i < n; i++) {
                int slot = count[(int) (k1[i] >>> (8 * d)) & 0xff]++;
                k2[slot] = k1[i];
                i2[slot] = i1[i];
            }
            long[] tk = k1;
            k1 = k2;
            k2 = tk;
            int[] ti = i1;
            i1 = i2;
            i2 = ti;
        }
        ListedEntry[] moved = s.moved;
        for (int i = 0; i < n; i++) {
            moved[i] = a[from + i1[i]];
        }
        System.arraycopy(moved, 0, a, from, n);
        java.util.Arrays.fill(moved, 0, n, null);
        // Runs of equal keys share eight more characters: collected before any is sorted, since
        // sorting one reuses the scratch arrays.
        List<int[]> runs = null;
        for (int i = 0; i < n;) {
            int j = i + 1;
            while (j < n && k1[j] == k1[i]) {
                j++;
            }
            if (j - i > 1) {
                if (runs == null) {
                    runs = new ArrayList<>();
                }
                runs.add(new int[] {from + i, from + j, continues(k1[i]) ? 1 : 0});
            }
            i = j;
        }
        if (runs == null) {
            return;
        }
        for (int[] r : runs) {
            if (r[2] == 1 && allLonger(a, r[0], r[1], offset + 8)) {
                sortRange(a, r[0], r[1], offset + 8, s, listedTwice);
            } else {
                comparisonSort(a, r[0], r[1], listedTwice);
            }
        }
    }

    /** Whether names with this key may differ only after its eight characters (no end, no 0xFF). */
    private static boolean continues(long key) {
        for (int d = 0; d < 8; d++) {
            int b = (int) (key >>> (8 * d)) & 0xff;
            if (b == 0 || b == 0xff) {
                return false;
            }
        }
        return true;
    }

    private static boolean allLonger(ListedEntry[] a, int from, int to, int length) {
        for (int i = from; i < to; i++) {
            if (a[i].name().length() <= length) {
                return false;
            }
        }
        return true;
    }

    /** Sorts a range by comparison and fails on a name listed twice in it. */
    private static void comparisonSort(ListedEntry[] a, int from, int to, Function<String, UnsafeNameException> listedTwice)
            throws UnsafeNameException {
        Arrays.sort(a, from, to, BY_NAME);
        for (int i = from + 1; i < to; i++) {
            if (a[i].name().equals(a[i - 1].name())) {
                throw listedTwice.apply(a[i].name());
            }
        }
    }

    /**
     * The key of {@code name}'s characters {@code offset} to {@code offset + 7} (see the class).
     * They are copied into {@code chars} (eight long) in one call rather than read by
     * {@code charAt}: the same when compiled, and a few calls a character fewer where a short
     * command sorts its one listing interpreted (a 1,000-entry {@code rpath ls -l}).
     */
    static long key(String name, int offset, char[] chars) {
        int n = Math.max(0, Math.min(8, name.length() - offset));
        name.getChars(offset, offset + n, chars, 0);
        long k = 0;
        for (int j = 0; j < 8; j++) {
            int c = j < n ? chars[j] : 0;
            if (c >= 0xff) {
                return ((k << 8) | 0xff) << (8 * (7 - j));
            }
            k = (k << 8) | c;
        }
        return k;
    }
}
