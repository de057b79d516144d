package dev.remotepath.http.index;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * Finds and parses the date columns of directory index pages without regular expressions
 * (a page of 1,000 entries must parse in well under a millisecond). Recognized, UTC unless a
 * zone is given:
 * <ul>
 *   <li>{@code 2024-02-29 13:37} / {@code 2024-02-29 13:37:42} (Apache, Caddy HTML)</li>
 *   <li>{@code 29-Feb-2024 13:37} (nginx, older Apache)</li>
 *   <li>{@code 2024-Feb-29 13:37:42} (lighttpd)</li>
 *   <li>{@code 2024-02-29T13:37:42[.fraction]Z} and offsets (nginx XML, Caddy JSON)</li>
 *   <li>{@code Thu, 29 Feb 2024 13:37:42 GMT} (RFC 1123: nginx JSON, HTTP headers)</li>
 *   <li>{@code 2/29/2024 1:37 PM} and {@code Thursday, February 29, 2024 1:37 PM} (IIS)</li>
 *   <li>{@code Feb 29, 2024, 1:37:42 PM} (Jetty)</li>
 * </ul>
 */
public final class IndexDates {

    private IndexDates() {
    }

    /**
     * A date found in a text: its instant, precision, and where it ended; {@code zoneStated}
     * when the text said which zone it is in ({@code Z}, an offset, {@code GMT}, {@code UTC}).
     * Without one the instant is read as UTC, which a server showing its local time is not.
     */
    public record Found(Instant instant, Duration precision, int end, boolean zoneStated) {
        Found(Instant instant, Duration precision, int end) {
            this(instant, precision, end, false);
        }
    }

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    /**
     * The first date in {@code s[from, to)}, or null when there is none. The bytes are read one
     * char per byte (ISO-8859-1): every date format is ASCII, and UTF-8 no-break spaces are
     * recognized by their bytes.
     */
    public static Found find(byte[] s, int from, int to) {
        char prev = ' ';
        for (int i = from; i < to; i++) {
            char c = ch(s, i);
            if (c == ' ') { // index rows are mostly padding: the cheapest test first
                prev = c;
                continue;
            }
            if (c == '<') { // a tag never holds the date: jump over it
                int k = i + 1;
                while (k < to && ch(s, k) != '>') {
                    k++;
                }
                i = k;
                prev = ' ';
                continue;
            }
            if (isDigit(c)) {
                if (!isDigit(prev)) {
                    Found f = numericStart(s, i, to);
                    if (f != null) {
                        return f;
                    }
                }
            } else if (isLetter(c) && !isLetter(prev)) {
                Found f = wordStart(s, i, to);
                if (f != null) {
                    return f;
                }
            }
            prev = c;
        }
        return null;
    }

    /**
     * Parses a whole string as one of the formats, or returns null. The text is read as its
     * UTF-8 bytes, as {@link #find} reads a page: no-break spaces match in either form.
     */
    public static Found parse(String s) {
        if (s == null) {
            return null;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return find(b, 0, b.length);
    }

    private static Found numericStart(byte[] s, int i, int to) {
        Found fixed = fixedLayout(s, i, to);
        if (fixed != null) {
            return fixed;
        }
        int n = digits(s, i, to);
        if (n == 4 && at(s, i + 4, to, '-')) {
            int year = num(s, i, 4);
            if (digits(s, i + 5, to) == 2 && at(s, i + 7, to, '-') && digits(s, i + 8, to) == 2) {
                int month = num(s, i + 5, 2);
                int day = num(s, i + 8, 2);
                char sep = i + 10 < to ? ch(s, i + 10) : 0;
                if (sep == 'T') {
                    return time(s, i + 11, to, year, month, day, true);
                }
                return sep == ' ' ? time(s, skipSpaces(s, i + 10, to), to, year, month, day, false) : null;
            }
            int month = monthOf(s, i + 5, to);
            if (month > 0 && at(s, i + 8, to, '-') && digits(s, i + 9, to) == 2) {
                return time(s, skipSpaces(s, i + 11, to), to, year, month, num(s, i + 9, 2), false);
            }
            return null;
        }
        if ((n == 1 || n == 2) && at(s, i + n, to, '-')) {
            int month = monthOf(s, i + n + 1, to);
            int y = i + n + 5;
            if (month > 0 && at(s, i + n + 4, to, '-') && digits(s, y, to) == 4) {
                return time(s, skipSpaces(s, y + 4, to), to, num(s, y, 4), month, num(s, i, n), false);
            }
            return null;
        }
        if ((n == 1 || n == 2) && at(s, i + n, to, '/')) {
            int d = i + n + 1;
            int dn = digits(s, d, to);
            if ((dn == 1 || dn == 2) && at(s, d + dn, to, '/') && digits(s, d + dn + 1, to) == 4) {
                int year = num(s, d + dn + 1, 4);
                return clock12(s, skipSpaces(s, d + dn + 5, to), to, year, num(s, i, n), num(s, d, dn));
            }
            return null;
        }
        if ((n == 1 || n == 2) && at(s, i + n, to, ' ')) { // "29 Feb 2024 13:37:42 GMT"
            int month = monthOf(s, i + n + 1, to);
            int y = i + n + 5;
            if (month > 0 && at(s, i + n + 4, to, ' ') && digits(s, y, to) == 4) {
                return time(s, skipSpaces(s, y + 4, to), to, num(s, y, 4), month, num(s, i, n), false);
            }
        }
        return null;
    }

    /**
     * The two layouts nearly every index page uses, read at fixed offsets after one bounds
     * check: {@code 29-Feb-2024 13:37[:42]} (nginx, Apache) and {@code 2024-02-29 13:37[:42]}
     * (Apache), with one space between date and time. Anything else, or anything doubtful
     * (a fraction, a third digit, an out-of-range field), is null here and left to the general
     * reader below, which gives the same answer for these layouts, only slower.
     */
    private static Found fixedLayout(byte[] s, int i, int to) {
        if (i + 17 > to) {
            return null;
        }
        int year;
        int month;
        int day;
        int k; // where the time starts
        if (s[i + 2] == '-' && s[i + 6] == '-' && s[i + 11] == ' ' && s[i + 14] == ':') {
            if (!two(s, i) || !two(s, i + 7) || !two(s, i + 9) || !two(s, i + 12) || !two(s, i + 15)) {
                return null;
            }
            day = num(s, i, 2);
            month = monthOf(s, i + 3, to);
            year = num(s, i + 7, 4);
            k = i + 12;
        } else if (s[i + 4] == '-' && s[i + 7] == '-' && s[i + 10] == ' ' && s[i + 13] == ':') {
            if (!two(s, i) || !two(s, i + 2) || !two(s, i + 5) || !two(s, i + 8) || !two(s, i + 11)
                    || !two(s, i + 14)) {
                return null;
            }
            year = num(s, i, 4);
            month = num(s, i + 5, 2);
            day = num(s, i + 8, 2);
            k = i + 11;
        } else {
            return null;
        }
        int hour = num(s, k, 2);
        int minute = num(s, k + 3, 2);
        int second = 0;
        Duration precision = MINUTE;
        int end = k + 5;
        if (end < to && s[end] == ':') {
            if (end + 3 > to || !two(s, end + 1)) {
                return null;
            }
            second = num(s, end + 1, 2);
            end += 3;
            precision = SECOND;
            if (end < to && (s[end] == '.' || s[end] == ',')) {
                return null; // a fraction
            }
        }
        if (end < to && isDigit(ch(s, end)) || !valid(year, month, day) || hour > 23 || minute > 59 || second > 60) {
            return null;
        }
        long epoch = epochDay(year, month, day) * 86400L + hour * 3600L + minute * 60L + Math.min(second, 59);
        return new Found(Instant.ofEpochSecond(epoch), precision, end, namedUtc(s, end, to));
    }

    /** " GMT", " UTC" or " Z" at {@code i} (after spaces): the time before it said its zone. */
    private static boolean namedUtc(byte[] s, int i, int to) {
        int k = skipSpaces(s, i, to);
        if (k + 3 <= to && (ch(s, k) == 'G' && ch(s, k + 1) == 'M' && ch(s, k + 2) == 'T'
                || ch(s, k) == 'U' && ch(s, k + 1) == 'T' && ch(s, k + 2) == 'C')) {
            return k + 3 == to || !Character.isLetterOrDigit(ch(s, k + 3));
        }
        return k + 1 <= to && k > i && ch(s, k) == 'Z' && (k + 1 == to || !Character.isLetterOrDigit(ch(s, k + 1)));
    }

    private static boolean two(byte[] s, int i) {
        return s[i] >= '0' && s[i] <= '9' && s[i + 1] >= '0' && s[i + 1] <= '9';
    }

    /** "Thu, 29 Feb ..." (skip the weekday), "Feb 29, 2024, 1:37:42 PM", "Thursday, February 29, 2024 1:37 PM". */
    private static Found wordStart(byte[] s, int i, int to) {
        int end = i;
        while (end < to && isLetter(ch(s, end))) {
            end++;
        }
        int len = end - i;
        if (len >= 3 && at(s, end, to, ',')) { // a weekday
            int j = skipSpaces(s, end + 1, to);
            if (j < to && isDigit(ch(s, j))) {
                return numericStart(s, j, to);
            }
            if (j < to && isLetter(ch(s, j))) {
                return monthFirst(s, j, to);
            }
            return null;
        }
        return monthFirst(s, i, to);
    }

    private static Found monthFirst(byte[] s, int i, int to) {
        int month = monthOf(s, i, to);
        if (month <= 0) {
            return null;
        }
        int j = i;
        while (j < to && isLetter(ch(s, j))) {
            j++;
        }
        j = skipSpaces(s, j, to);
        int dn = digits(s, j, to);
        if (dn < 1 || dn > 2 || !at(s, j + dn, to, ',')) {
            return null;
        }
        int day = num(s, j, dn);
        int y = skipSpaces(s, j + dn + 1, to);
        if (digits(s, y, to) != 4) {
            return null;
        }
        int year = num(s, y, 4);
        int k = y + 4;
        if (at(s, k, to, ',')) {
            k++;
        }
        return clock12(s, skipSpaces(s, k, to), to, year, month, day);
    }

    /** "13:37", "13:37:42", with an optional fraction and zone after a 'T' form. */
    private static Found time(byte[] s, int i, int to, int year, int month, int day, boolean iso) {
        if (!valid(year, month, day)) {
            return null;
        }
        int hn = digits(s, i, to);
        if ((hn != 1 && hn != 2) || !at(s, i + hn, to, ':') || digits(s, i + hn + 1, to) != 2) {
            return null;
        }
        int hour = num(s, i, hn);
        int minute = num(s, i + hn + 1, 2);
        int k = i + hn + 3;
        int second = 0;
        int nanos = 0;
        Duration precision = MINUTE;
        if (at(s, k, to, ':') && digits(s, k + 1, to) == 2) {
            second = num(s, k + 1, 2);
            k += 3;
            precision = SECOND;
            if (at(s, k, to, '.') || at(s, k, to, ',')) {
                int fn = digits(s, k + 1, to);
                if (fn > 0) {
                    int scale = 1;
                    int take = Math.min(fn, 9);
                    nanos = num(s, k + 1, take);
                    for (int z = take; z < 9; z++) {
                        scale *= 10;
                    }
                    nanos *= scale;
                    precision = Duration.ofNanos(pow10(9 - take));
                    k += 1 + fn;
                }
            }
        }
        if (hour > 23 || minute > 59 || second > 60) {
            return null;
        }
        long offsetSeconds = 0;
        boolean zoned = false;
        if (iso) {
            if (at(s, k, to, 'Z')) {
                k++;
                zoned = true;
            } else if ((at(s, k, to, '+') || at(s, k, to, '-')) && digits(s, k + 1, to) == 2) {
                int sign = ch(s, k) == '-' ? -1 : 1;
                int oh = num(s, k + 1, 2);
                int om = 0;
                int m = k + 3;
                if (at(s, m, to, ':')) {
                    m++;
                }
                if (digits(s, m, to) == 2) {
                    om = num(s, m, 2);
                    m += 2;
                }
                offsetSeconds = sign * (oh * 3600L + om * 60L);
                k = m;
                zoned = true;
            }
        }
        long epoch = epochDay(year, month, day) * 86400L + hour * 3600L + minute * 60L + Math.min(second, 59)
                - offsetSeconds;
        return new Found(Instant.ofEpochSecond(epoch, nanos), precision, k, zoned || !iso && namedUtc(s, k, to));
    }

    /** "1:37 PM", "1:37:42 PM", or 24-hour without a marker. */
    private static Found clock12(byte[] s, int i, int to, int year, int month, int day) {
        Found t = time(s, i, to, year, month, day, false);
        if (t == null) {
            return null;
        }
        int k = skipSpaces(s, t.end(), to);
        if (k + 1 < to && (ch(s, k + 1) == 'M' || ch(s, k + 1) == 'm')) {
            char ap = Character.toUpperCase(ch(s, k));
            int hour = (int) (t.instant().getEpochSecond() % 86400 / 3600);
            long shift = 0;
            if (ap == 'P' && hour < 12) {
                shift = 12 * 3600;
            } else if (ap == 'A' && hour == 12) {
                shift = -12 * 3600;
            } else if (ap != 'A' && ap != 'P') {
                return t;
            }
            return new Found(t.instant().plusSeconds(shift), t.precision(), k + 2, namedUtc(s, k + 2, to));
        }
        return t;
    }

    /** 1-12 for an English month name or its three-letter abbreviation at i, else 0. */
    static int monthOf(byte[] s, int i, int to) {
        if (i + 3 > to) {
            return 0;
        }
        // The three letters, lower-cased by setting bit 5 (digits and punctuation never match).
        int key = (s[i] | 0x20) << 16 | (s[i + 1] | 0x20) << 8 | (s[i + 2] | 0x20);
        return switch (key) {
            case 'j' << 16 | 'a' << 8 | 'n' -> 1;
            case 'f' << 16 | 'e' << 8 | 'b' -> 2;
            case 'm' << 16 | 'a' << 8 | 'r' -> 3;
            case 'a' << 16 | 'p' << 8 | 'r' -> 4;
            case 'm' << 16 | 'a' << 8 | 'y' -> 5;
            case 'j' << 16 | 'u' << 8 | 'n' -> 6;
            case 'j' << 16 | 'u' << 8 | 'l' -> 7;
            case 'a' << 16 | 'u' << 8 | 'g' -> 8;
            case 's' << 16 | 'e' << 8 | 'p' -> 9;
            case 'o' << 16 | 'c' << 8 | 't' -> 10;
            case 'n' << 16 | 'o' << 8 | 'v' -> 11;
            case 'd' << 16 | 'e' << 8 | 'c' -> 12;
            default -> 0;
        };
    }

    static long epochDay(int year, int month, int day) {
        // Howard Hinnant's days_from_civil.
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yoe = y - era * 400;
        int doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097L + doe - 719468;
    }

    private static boolean valid(int year, int month, int day) {
        return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= 31;
    }

    private static long pow10(int n) {
        long v = 1;
        for (int i = 0; i < n; i++) {
            v *= 10;
        }
        return v;
    }

    private static int digits(byte[] s, int i, int to) {
        int n = 0;
        while (i + n < to && isDigit(ch(s, i + n))) {
            n++;
        }
        return n;
    }

    private static int num(byte[] s, int i, int n) {
        int v = 0;
        for (int k = 0; k < n; k++) {
            v = v * 10 + (ch(s, i + k) - '0');
        }
        return v;
    }

    private static boolean at(byte[] s, int i, int to, char c) {
        return i < to && ch(s, i) == c;
    }

    /**
     * Skips spaces, tabs and no-break spaces, including their UTF-8 bytes as seen on a page read
     * one char per byte: U+00A0 (C2 A0) and U+202F (E2 80 AF), which JDK 20+ puts before AM/PM.
     */
    static int skipSpaces(byte[] s, int i, int to) {
        while (i < to) {
            char c = ch(s, i);
            if (c == ' ' || c == '\t' || c == '\u00a0') {
                i++;
            } else if (c == '\u00c2' && i + 1 < to && ch(s, i + 1) == '\u00a0') {
                i += 2;
            } else if (c == '\u00e2' && i + 2 < to && ch(s, i + 1) == '\u0080' && ch(s, i + 2) == '\u00af') {
                i += 3;
            } else {
                break;
            }
        }
        return i;
    }

    /** The byte at i as a char (ISO-8859-1). */
    static char ch(byte[] s, int i) {
        return (char) (s[i] & 0xff);
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
