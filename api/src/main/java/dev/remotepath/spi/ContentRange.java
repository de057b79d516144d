package dev.remotepath.spi;

import java.util.Optional;

/**
 * An HTTP {@code Content-Range} of a partial answer, {@code bytes first-last/total} (RFC 9110
 * §14.4), as the backends that speak HTTP (the http and s3 ones) read it: a ranged read checks
 * that the answer starts where it asked and ends where it declared, and takes the file's size
 * from {@code total}.
 *
 * @param first the first byte sent
 * @param last  the last byte sent (inclusive)
 * @param total the whole representation's length, -1 where the server sent {@code *}
 */
public record ContentRange(long first, long last, long total) {

    public ContentRange {
        if (first < 0 || last < first || (total != -1 && total <= last)) {
            throw new IllegalArgumentException("not a byte range: " + first + "-" + last + "/" + total);
        }
    }

    /**
     * The range a header names, or empty when it names none: absent, another unit, the
     * unsatisfied form ({@code bytes &#42;/total}), or numbers that do not make a range
     * ({@code bytes 9-3/10}, a last byte past the total). Never throws.
     */
    public static Optional<ContentRange> parse(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String v = header.strip();
        if (!v.regionMatches(true, 0, "bytes ", 0, 6)) {
            return Optional.empty();
        }
        int dash = v.indexOf('-', 6);
        int slash = v.indexOf('/', 6);
        if (dash < 0 || slash < dash) {
            return Optional.empty();
        }
        try {
            long first = Long.parseLong(v.substring(6, dash).strip());
            long last = Long.parseLong(v.substring(dash + 1, slash).strip());
            String t = v.substring(slash + 1).strip();
            long total = t.equals("*") ? -1 : Long.parseLong(t);
            if (first < 0 || last < first || (total != -1 && total <= last)) {
                return Optional.empty();
            }
            return Optional.of(new ContentRange(first, last, total));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The offset just past the last byte sent. */
    public long end() {
        return last + 1;
    }
}
