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
        int n = s.length();
        int i = 0;
        while (i < n && !needsEscape(s, i)) {
            i += Character.charCount(s.codePointAt(i));
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
}
