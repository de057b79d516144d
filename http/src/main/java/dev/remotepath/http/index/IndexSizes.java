package dev.remotepath.http.index;

/**
 * Reads size columns: exact byte counts ({@code 1048576}, {@code 1,048,576}) and the rounded
 * forms index pages show ({@code 1.2K}, {@code 5.0G}, {@code 12 KiB}, {@code 3 MB}), in units of
 * 1024. A dash means "no size" (directories).
 */
final class IndexSizes {

    private IndexSizes() {
    }

    /**
     * The first size token in {@code s[from, to)}, stepping over white space, tags and entities
     * (so a raw table row reads like its text): encoded as {@link #token} returns it.
     */
    static long after(byte[] s, int from, int to) {
        int i = from;
        while (i < to) {
            i = IndexDates.skipSpaces(s, i, to);
            if (i >= to) {
                return NONE;
            }
            char c = IndexDates.ch(s, i);
            if (c == '<') {
                i = skipPast(s, i, to, '>', to - i);
            } else if (c == '&') {
                i = skipPast(s, i, to, ';', 10);
            } else if (c == '\r' || c == '\n') {
                i++;
            } else {
                return token(s, i, to);
            }
        }
        return NONE;
    }

    /** A size written as text ({@code "2 B"}, {@code "1.4 MB"}), encoded as {@link #token} returns it. */
    static long parse(String text) {
        byte[] b = text.strip().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return token(b, 0, b.length);
    }

    private static int skipPast(byte[] s, int i, int to, char end, int within) {
        int limit = Math.min(to, i + within);
        for (int k = i + 1; k < limit; k++) {
            if (IndexDates.ch(s, k) == end) {
                return k + 1;
            }
        }
        return i + 1;
    }

    /** No size token: returned by {@link #token}. */
    static final long NONE = Long.MIN_VALUE;

    /**
     * The size token at {@code s[i, to)}: its bytes, negated (and minus one) when the column
     * shows a rounded value, or {@link #NONE}. Allocates nothing.
     */
    private static long token(byte[] s, int i, int n) {
        if (i >= n) {
            return NONE;
        }
        if (IndexDates.ch(s, i) == '-' && (i + 1 == n || isSeparator(IndexDates.ch(s, i + 1)))) {
            return NONE;
        }
        long whole = 0;
        int digits = 0;
        int k = i;
        while (k < n) {
            char c = IndexDates.ch(s, k);
            if (IndexDates.isDigit(c)) {
                whole = whole * 10 + (c - '0');
                if (++digits > 18) {
                    return NONE;
                }
            } else if (!(c == ',' && digits > 0 && allDigits(s, k + 1, 3, n))) {
                break;
            }
            k++;
        }
        if (digits == 0) {
            return NONE;
        }
        long fraction = 0;
        long fractionScale = 1;
        if (k < n && IndexDates.ch(s, k) == '.' && k + 1 < n && IndexDates.isDigit(IndexDates.ch(s, k + 1))) {
            k++;
            while (k < n && IndexDates.isDigit(IndexDates.ch(s, k)) && fractionScale < 1_000_000) {
                fraction = fraction * 10 + (IndexDates.ch(s, k) - '0');
                fractionScale *= 10;
                k++;
            }
        }
        while (k < n && IndexDates.ch(s, k) == ' ' && k + 1 < n && isAsciiLetter(IndexDates.ch(s, k + 1))) {
            k++;
        }
        long unit = 1;
        boolean exact = fractionScale == 1;
        if (k < n) {
            char u = IndexDates.ch(s, k);
            int e = switch (u) {
                case 'K', 'k' -> 1;
                case 'M', 'm' -> 2;
                case 'G', 'g' -> 3;
                case 'T', 't' -> 4;
                case 'P', 'p' -> 5;
                case 'B', 'b' -> 0;
                default -> -1;
            };
            if (e > 0) {
                unit = 1L << (10 * e);
                exact = false;
                k++;
            } else if (e < 0 && !isSeparator(u)) {
                return NONE; // "13:37", "utf-8" and other words are not sizes
            }
            while (k < n && isAsciiLetter(IndexDates.ch(s, k))) {
                k++; // "iB", "B", "bytes"
            }
        }
        if (k < n && !isSeparator(IndexDates.ch(s, k)) && !listSeparator(s, k, n)) {
            return NONE;
        }
        long bytes = whole * unit + fraction * unit / fractionScale;
        return exact ? bytes : -bytes - 1;
    }

    /** "1024 bytes, 2024-..." : a comma or semicolon that ends a list item, not a digit group. */
    private static boolean listSeparator(byte[] s, int k, int n) {
        char c = IndexDates.ch(s, k);
        return (c == ',' || c == ';') && (k + 1 == n || isSeparator(IndexDates.ch(s, k + 1)));
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    /** What may follow a size: white space of any kind (pages come with CRLF), a tag, the end. */
    private static boolean isSeparator(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '<' || c == '&' || c == '\u00a0' || c == '\u00c2';
    }

    private static boolean allDigits(byte[] s, int from, int count, int to) {
        for (int i = from; i < from + count; i++) {
            if (i >= to || !IndexDates.isDigit(IndexDates.ch(s, i))) {
                return false;
            }
        }
        return true;
    }
}
