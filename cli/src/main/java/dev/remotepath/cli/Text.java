package dev.remotepath.cli;

/**
 * Text output made safe for a terminal: a name holding a newline or an escape sequence would
 * forge lines or drive the terminal. Control characters (C0, DEL, C1) are shown as escapes, as
 * GNU {@code ls} does on a terminal: {@code \n}, {@code \t}, {@code \r}, {@code \xHH} for the
 * rest; a lone surrogate (a byte that was not UTF-8, kept losslessly) as {@code \xHH} of its
 * byte. Only in a string that needed an escape is a backslash doubled, so ordinary names read
 * as they are. JSON output is left alone; its encoder escapes.
 */
final class Text {

    private Text() {
    }

    static String escape(String s) {
        if (isPrintableAscii(s)) {
            return s;
        }
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) { // printable ASCII, nearly every name: one test a char
                i++;
            } else if (needsEscape(s, i)) {
                break;
            } else {
                i += Character.charCount(s.codePointAt(i));
            }
        }
        if (i == n) {
            return s;
        }
        StringBuilder sb = new StringBuilder(n + 16);
        for (int k = 0; k < i; k++) {
            char c = s.charAt(k);
            sb.append(c == '\\' ? "\\\\" : String.valueOf(c));
        }
        while (i < n) {
            char c = s.charAt(i);
            if (!needsEscape(s, i)) {
                int cp = s.codePointAt(i);
                sb.append(c == '\\' ? "\\\\" : Character.toString(cp));
                i += Character.charCount(cp);
                continue;
            }
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> sb.append(String.format("\\x%02x", Character.isSurrogate(c) ? c & 0xff : (int) c));
            }
            i++;
        }
        return sb.toString();
    }

    /**
     * Whether every character of {@code s} is printable ASCII (U+0020 to U+007E): nearly every
     * name, shown as it is. The characters are copied out once and read from the array: in a
     * fresh JVM, where {@code ls} runs interpreted, {@code charAt} is a few calls a character.
     */
    static boolean isPrintableAscii(String s) {
        char[] c = s.toCharArray();
        for (char x : c) {
            if (x < 0x20 || x >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** Whether every character of {@code s} is below U+0080 (so its UTF-8 is one byte a character). */
    static boolean isAscii(String s) {
        char[] c = s.toCharArray();
        for (char x : c) {
            if (x >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static boolean needsEscape(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || Character.isLowSurrogate(c);
    }

    /** Appends {@code s}, spaces first to make it {@code width} wide (as {@code %12s}). */
    static StringBuilder padLeft(StringBuilder b, String s, int width) {
        b.repeat(' ', Math.max(0, width - s.length()));
        return b.append(s);
    }

    /** Appends {@code s}, spaces after to make it {@code width} wide (as {@code %-30s}). */
    static StringBuilder padRight(StringBuilder b, String s, int width) {
        b.append(s);
        return b.repeat(' ', Math.max(0, width - s.length()));
    }

    /**
     * The text {@link java.time.Instant#toString()} gives (ISO-8601, UTC, the fraction in groups of
     * three digits as needed), built by hand: {@code ls -l} prints one per entry, and in a fresh
     * JVM the formatter behind {@code toString} cost ~13 ms a 1,000-entry listing, interpreted.
     * The digits go straight into a char array: a StringBuilder call per digit cost ~2 us an
     * instant there. Years outside 0000-9999 (which {@code toString} signs) go to {@code toString}.
     */
    static String instant(java.time.Instant t) {
        long secs = t.getEpochSecond();
        long days = Math.floorDiv(secs, 86_400);
        int secOfDay = (int) (secs - days * 86_400);
        // The civil date of a day count (H. Hinnant's days_from_civil, inverted): eras of 400
        // years, each 146,097 days, and years counted from March so that leap days come last.
        long z = days + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        if (year < 0 || year > 9_999) {
            return t.toString();
        }
        char[] c = new char[30]; // 2024-02-29T13:37:42.123456789Z
        int y = (int) year;
        c[0] = (char) ('0' + y / 1_000);
        c[1] = (char) ('0' + y / 100 % 10);
        c[2] = (char) ('0' + y / 10 % 10);
        c[3] = (char) ('0' + y % 10);
        c[4] = '-';
        c[5] = (char) ('0' + month / 10);
        c[6] = (char) ('0' + month % 10);
        c[7] = '-';
        c[8] = (char) ('0' + day / 10);
        c[9] = (char) ('0' + day % 10);
        c[10] = 'T';
        int hour = secOfDay / 3_600;
        int minute = secOfDay / 60 % 60;
        int second = secOfDay % 60;
        c[11] = (char) ('0' + hour / 10);
        c[12] = (char) ('0' + hour % 10);
        c[13] = ':';
        c[14] = (char) ('0' + minute / 10);
        c[15] = (char) ('0' + minute % 10);
        c[16] = ':';
        c[17] = (char) ('0' + second / 10);
        c[18] = (char) ('0' + second % 10);
        int n = 19;
        int nano = t.getNano();
        if (nano != 0) {
            c[n++] = '.';
            int digits = nano % 1_000_000 == 0 ? 3 : nano % 1_000 == 0 ? 6 : 9;
            int v = digits == 3 ? nano / 1_000_000 : digits == 6 ? nano / 1_000 : nano;
            for (int i = n + digits - 1; i >= n; i--, v /= 10) {
                c[i] = (char) ('0' + v % 10);
            }
            n += digits;
        }
        c[n++] = 'Z';
        return new String(c, 0, n);
    }
}
