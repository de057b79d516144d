package dev.remotepath.http.index;

/**
 * Reads size columns: exact byte counts ({@code 1048576}, {@code 1,048,576}) and the rounded
 * forms index pages show ({@code 1.2K}, {@code 5.0G}, {@code 12 KiB}, {@code 3 MB}), in units of
 * 1024. A dash means "no size" (directories).
 */
final class IndexSizes {

    private IndexSizes() {
    }

    /** {bytes, 1 if exact else 0} for the first size token at or after {@code from}, or null. */
    static long[] after(String s, int from) {
        int i = IndexDates.skipSpaces(s, from, s.length());
        while (i < s.length() && s.charAt(i) == ' ') {
            i++;
        }
        return token(s, i);
    }

    private static long[] token(String s, int i) {
        int n = s.length();
        if (i >= n) {
            return null;
        }
        if (s.charAt(i) == '-' && (i + 1 == n || isSeparator(s.charAt(i + 1)))) {
            return null;
        }
        long whole = 0;
        int digits = 0;
        int k = i;
        while (k < n && (IndexDates.isDigit(s.charAt(k)) || (s.charAt(k) == ',' && digits > 0
                && k + 3 < n + 1 && k + 3 <= n && allDigits(s, k + 1, 3)))) {
            if (s.charAt(k) != ',') {
                whole = whole * 10 + (s.charAt(k) - '0');
                digits++;
                if (digits > 18) {
                    return null;
                }
            }
            k++;
        }
        if (digits == 0) {
            return null;
        }
        long fraction = 0;
        long fractionScale = 1;
        if (k < n && s.charAt(k) == '.' && k + 1 < n && IndexDates.isDigit(s.charAt(k + 1))) {
            k++;
            while (k < n && IndexDates.isDigit(s.charAt(k)) && fractionScale < 1_000_000) {
                fraction = fraction * 10 + (s.charAt(k) - '0');
                fractionScale *= 10;
                k++;
            }
        }
        while (k < n && s.charAt(k) == ' ' && k + 1 < n && Character.isLetter(s.charAt(k + 1))) {
            k++;
        }
        long unit = 1;
        boolean exact = fractionScale == 1;
        if (k < n) {
            char u = Character.toUpperCase(s.charAt(k));
            int e = switch (u) {
                case 'K' -> 1;
                case 'M' -> 2;
                case 'G' -> 3;
                case 'T' -> 4;
                case 'P' -> 5;
                case 'B' -> 0;
                default -> -1;
            };
            if (e > 0) {
                unit = 1L << (10 * e);
                exact = false;
                k++;
            } else if (e < 0 && !isSeparator(s.charAt(k))) {
                return null; // "13:37", "utf-8" and other words are not sizes
            }
            while (k < n && Character.isLetter(s.charAt(k))) {
                k++; // "iB", "B", "bytes"
            }
        }
        if (k < n && !isSeparator(s.charAt(k))) {
            return null;
        }
        long bytes = whole * unit + fraction * unit / fractionScale;
        return new long[] {bytes, exact ? 1 : 0};
    }

    /** What may follow a size: white space of any kind (pages come with CRLF), a tag, the end. */
    private static boolean isSeparator(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '<' || c == '\u00a0';
    }

    private static boolean allDigits(String s, int from, int count) {
        for (int i = from; i < from + count; i++) {
            if (i >= s.length() || !IndexDates.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
