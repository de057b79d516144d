package dev.remotepath.wire;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The times servers send, read as {@link DateTimeFormatter} reads them, but without it for the
 * exact forms servers actually send: a listing carries a time or two per member (WebDAV's
 * {@code getlastmodified} and this library's mtime property, Azure's {@code mtime} metadata), and
 * the formatter's general parser was a fifth of a no-op sync's CPU in a fresh JVM, where it runs
 * interpreted. Anything but those exact forms goes to the formatter, so the answers (and the
 * refusals) are the formatter's by construction. Internal: exported only to the backends that
 * read these forms.
 */
public final class WireTimes {

    /** Indexed by {@link java.time.DayOfWeek#ordinal()}. */
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

    private WireTimes() {
    }

    /**
     * An RFC 1123 date ({@code Sat, 05 Dec 2026 03:12:26 GMT}), as
     * {@link DateTimeFormatter#RFC_1123_DATE_TIME} reads it.
     *
     * @throws DateTimeParseException as the formatter does
     */
    public static Instant rfc1123(String text) {
        Instant fixed = imfFixdate(text);
        return fixed != null ? fixed : ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    }

    /** {@link #rfc1123}, or empty where the text is not one. */
    public static Optional<Instant> rfc1123OrEmpty(String text) {
        try {
            return Optional.of(rfc1123(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * An ISO 8601 instant in UTC ({@code 2026-12-05T03:12:26.125761264Z}), as {@link Instant#parse}
     * reads it.
     *
     * @throws DateTimeParseException as {@link Instant#parse} does
     */
    public static Instant isoInstant(String text) {
        Instant plain = plainIsoInstant(text);
        return plain != null ? plain : Instant.parse(text);
    }

    /**
     * An ISO 8601 date and time with an offset ({@code 2026-12-05T03:12:26.125761264Z}, as rclone
     * writes an mtime; {@code +01:00} and the other forms go to the formatter), as
     * {@code OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant()} reads it.
     *
     * @throws DateTimeParseException as the formatter does
     */
    public static Instant isoOffsetDateTime(String text) {
        Instant plain = plainIsoInstant(text);
        return plain != null ? plain : OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    }

    /** {@code EEE, dd MMM yyyy HH:mm:ss GMT} exactly, with a day name that matches the date; else null. */
    static Instant imfFixdate(String t) {
        if (t.length() != 29 || t.charAt(3) != ',' || t.charAt(4) != ' ' || t.charAt(7) != ' ' || t.charAt(11) != ' '
                || t.charAt(16) != ' ' || t.charAt(19) != ':' || t.charAt(22) != ':' || t.charAt(25) != ' '
                || !t.endsWith("GMT")) {
            return null;
        }
        int month = MONTHS.indexOf(t.substring(8, 11));
        int day = digits(t, 5, 2);
        int year = digits(t, 12, 4);
        if (month < 0 || month % 3 != 0 || day < 0 || year < 0) {
            return null;
        }
        return at(year, month / 3 + 1, day, t, 17, t.substring(0, 3));
    }

    /** {@code yyyy-MM-ddTHH:mm:ss[.f…]Z}, up to nine fraction digits; else null. */
    static Instant plainIsoInstant(String t) {
        int n = t.length();
        if (n < 20 || t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != 'T' || t.charAt(13) != ':'
                || t.charAt(16) != ':' || t.charAt(n - 1) != 'Z') {
            return null;
        }
        int year = digits(t, 0, 4);
        int month = digits(t, 5, 2);
        int day = digits(t, 8, 2);
        if (year < 0 || month < 0 || day < 0) {
            return null;
        }
        long nanos = 0;
        if (n > 20) {
            int fraction = n - 21;
            if (t.charAt(19) != '.' || fraction < 1 || fraction > 9) {
                return null;
            }
            int f = digits(t, 20, fraction);
            if (f < 0) {
                return null;
            }
            nanos = f;
            for (int i = fraction; i < 9; i++) {
                nanos *= 10;
            }
        }
        Instant whole = at(year, month, day, t, 11, null);
        return whole == null ? null : whole.plusNanos(nanos);
    }

    /** The instant of that date and of {@code HH:mm:ss} at {@code from} in UTC, or null if out of range. */
    private static Instant at(int year, int month, int day, String t, int from, String dayName) {
        int hour = digits(t, from, 2);
        int minute = digits(t, from + 3, 2);
        int second = digits(t, from + 6, 2);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null; // a leap second, or worse: the formatter decides
        }
        LocalDate date;
        try {
            date = LocalDate.of(year, month, day);
        } catch (DateTimeException e) {
            return null;
        }
        if (dayName != null && !DAYS[date.getDayOfWeek().ordinal()].equals(dayName)) {
            return null;
        }
        return Instant.ofEpochSecond(date.toEpochDay() * 86_400L + hour * 3600L + minute * 60L + second);
    }

    /** The number written by {@code count} ASCII digits at {@code from}, or -1. */
    private static int digits(String t, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
