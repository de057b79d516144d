package dev.remotepath.http.index;

import java.nio.charset.StandardCharsets;

/**
 * Decodes the HTML character references that appear in hrefs and index XML: the five named
 * ones and numeric ones. A numeric reference above U+00FF becomes its UTF-8 bytes, one char
 * per byte, to stay consistent with a page read as Latin-1.
 */
final class Entities {

    private Entities() {
    }

    /** For text that is already Unicode (XML read as UTF-8): references become their characters. */
    static String decodeText(String s, int from, int to) {
        return decode(s, from, to, false);
    }

    /** For a page read one char per byte: references above U+00FF become their UTF-8 bytes. */
    static String decode(String s, int from, int to) {
        return decode(s, from, to, true);
    }

    private static String decode(String s, int from, int to, boolean asBytes) {
        int amp = indexOf(s, '&', from, to);
        if (amp < 0) {
            return s.substring(from, to);
        }
        StringBuilder sb = new StringBuilder(to - from);
        int i = from;
        while (i < to) {
            char c = s.charAt(i);
            if (c != '&') {
                sb.append(c);
                i++;
                continue;
            }
            int semi = indexOf(s, ';', i, Math.min(to, i + 12));
            if (semi < 0) {
                sb.append(c);
                i++;
                continue;
            }
            String name = s.substring(i + 1, semi);
            int cp = switch (name) {
                case "amp" -> '&';
                case "lt" -> '<';
                case "gt" -> '>';
                case "quot" -> '"';
                case "apos" -> '\'';
                case "nbsp" -> 0xa0;
                default -> numeric(name);
            };
            if (cp < 0) {
                sb.append(c);
                i++;
                continue;
            }
            if (cp <= 0xff || !asBytes) {
                sb.appendCodePoint(cp);
            } else {
                for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                    sb.append((char) (b & 0xff));
                }
            }
            i = semi + 1;
        }
        return sb.toString();
    }

    /** indexOf within [from, to): never scans past the value being decoded (a page-long scan per link is quadratic). */
    static int indexOf(String s, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    private static int numeric(String name) {
        int cp;
        try {
            if (name.startsWith("#x") || name.startsWith("#X")) {
                cp = Integer.parseInt(name.substring(2), 16);
            } else if (name.startsWith("#")) {
                cp = Integer.parseInt(name.substring(1));
            } else {
                return -1;
            }
        } catch (NumberFormatException e) {
            return -1;
        }
        return cp < 0 || cp > Character.MAX_CODE_POINT || (cp >= 0xd800 && cp <= 0xdfff) ? -1 : cp;
    }
}
