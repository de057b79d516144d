package dev.remotepath.ftp;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Locale;
import org.apache.commons.net.ftp.FTPFile;

/**
 * Listing entries as {@link FileStat}s: {@code MLSD}/{@code MLST} lines (RFC 3659 facts) parsed
 * here, {@code LIST} lines as Commons Net's parsers read them, each time with the precision its
 * format carries (an MLSx time to its digits, a Unix {@code LIST} time to the minute, or the day
 * for a file older than six months).
 */
final class FtpEntries {

    private FtpEntries() {
    }

    /** One entry: a name (the last component for MLSD, the path for MLST) and what it is. */
    record Entry(String name, FileStat stat, boolean selfOrParent) {
    }

    /** A line the listing format does not allow. */
    static final class MalformedException extends Exception {
        MalformedException(String message) {
            super(message);
        }
    }

    /** Parses one MLSx entry, {@code fact=value;...; name} (RFC 3659 §7.2). */
    static Entry mlsx(String line) throws MalformedException {
        int space = line.indexOf(' ');
        if (space < 0) {
            throw new MalformedException("an MLSx entry without its space before the name: " + shown(line));
        }
        String facts = line.substring(0, space);
        String name = line.substring(space + 1);
        String type = null;
        long size = -1;
        Instant modify = null;
        Duration precision = null;
        Integer unixMode = null;
        String unique = null;
        for (String fact : facts.split(";")) {
            if (fact.isEmpty()) {
                continue;
            }
            int eq = fact.indexOf('=');
            if (eq <= 0) {
                throw new MalformedException("a fact without a value: " + shown(line));
            }
            String key = fact.substring(0, eq).toLowerCase(Locale.ROOT);
            String value = fact.substring(eq + 1);
            switch (key) {
                case "type" -> type = value.toLowerCase(Locale.ROOT);
                case "size" -> size = number(value, line);
                case "modify" -> {
                    modify = time(value, line);
                    // A second, whatever digits follow: MFMT sets whole seconds, and a server that
                    // shows milliseconds (MINA) then shows .000 for a time that was truncated
                    precision = Duration.ofSeconds(1);
                }
                case "unix.mode" -> {
                    try {
                        unixMode = Integer.parseInt(value, 8);
                    } catch (NumberFormatException e) {
                        throw new MalformedException("unix.mode is not octal: " + shown(line));
                    }
                }
                case "unique" -> unique = value;
                default -> {
                    // perm, lang, media-type, charset, unix.owner...: not needed
                }
            }
        }
        if (type == null) {
            throw new MalformedException("an MLSx entry without its type fact: " + shown(line));
        }
        boolean selfOrParent = type.equals("cdir") || type.equals("pdir");
        FileType fileType = switch (type) {
            case "file" -> FileType.FILE;
            case "dir", "cdir", "pdir" -> FileType.DIRECTORY;
            default -> FileType.OTHER; // OS.unix=slink:..., devices: what the server does not describe as a file
        };
        FileStat.Builder b = FileStat.builder(fileType);
        if (fileType == FileType.FILE) {
            if (size < 0) {
                throw new MalformedException("a file without its size fact: " + shown(line));
            }
            b.size(size);
        }
        if (modify != null) {
            b.lastModified(modify, precision);
        }
        if (unixMode != null) {
            b.permissions(dev.remotepath.PosixModes.permissions(unixMode));
        }
        if (unique != null) {
            b.fileKey(unique);
        }
        return new Entry(name, b.build(), selfOrParent);
    }

    /** An MLSx or MDTM time, {@code YYYYMMDDHHMMSS[.s...]}, UTC. */
    static Instant time(String value, String line) throws MalformedException {
        if (value.length() < 14) {
            throw new MalformedException("a time of fewer than 14 digits: " + shown(line));
        }
        try {
            LocalDateTime t = LocalDateTime.of(Integer.parseInt(value.substring(0, 4)),
                    Integer.parseInt(value.substring(4, 6)), Integer.parseInt(value.substring(6, 8)),
                    Integer.parseInt(value.substring(8, 10)), Integer.parseInt(value.substring(10, 12)),
                    Integer.parseInt(value.substring(12, 14)));
            long nanos = 0;
            if (value.length() > 14) {
                if (value.charAt(14) != '.' || value.length() == 15) {
                    throw new MalformedException("a time with a malformed fraction: " + shown(line));
                }
                String frac = value.substring(15);
                if (!frac.chars().allMatch(Character::isDigit)) {
                    throw new MalformedException("a time with a malformed fraction: " + shown(line));
                }
                frac = (frac + "000000000").substring(0, 9);
                nanos = Long.parseLong(frac);
            }
            return t.toInstant(ZoneOffset.UTC).plusNanos(nanos);
        } catch (NumberFormatException | java.time.DateTimeException e) {
            throw new MalformedException("not a time: " + shown(line));
        }
    }

    private static long number(String value, String line) throws MalformedException {
        try {
            long n = Long.parseLong(value);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new MalformedException("a size that is not a number: " + shown(line));
        }
    }

    /** An entry Commons Net parsed from a {@code LIST} line; fails for one it could not parse. */
    static Entry list(FTPFile f) throws MalformedException {
        if (f == null || !f.isValid() || f.getName() == null) {
            throw new MalformedException("a LIST line no parser understands: "
                    + (f == null ? "(none)" : shown(f.getRawListing())));
        }
        FileType type = switch (f.getType()) {
            case FTPFile.FILE_TYPE -> FileType.FILE;
            case FTPFile.DIRECTORY_TYPE -> FileType.DIRECTORY;
            default -> FileType.OTHER; // links: LIST does not say what they point at
        };
        FileStat.Builder b = FileStat.builder(type);
        if (type == FileType.FILE) {
            if (f.getSize() < 0) {
                throw new MalformedException("a file without a size: " + shown(f.getRawListing()));
            }
            b.size(f.getSize());
        }
        Calendar c = f.getTimestamp();
        if (c != null) {
            b.lastModified(c.toInstant(), listPrecision(f));
        }
        String name = f.getName();
        boolean selfOrParent = type == FileType.DIRECTORY && (name.equals(".") || name.equals(".."));
        return new Entry(name, b.build(), selfOrParent);
    }

    private static final java.util.regex.Pattern SECONDS = java.util.regex.Pattern.compile("\\b\\d{1,2}:\\d{2}:\\d{2}\\b");
    private static final java.util.regex.Pattern MINUTES = java.util.regex.Pattern.compile("\\b\\d{1,2}:\\d{2}");

    /**
     * How precise a LIST line's time is, read from the line itself: a time of day with seconds,
     * one with minutes (a Unix listing's files of the last six months, DOS and IIS lines), or a
     * date alone (older Unix files: their day). The parsed Calendar cannot say: Commons Net
     * computes every field of it while parsing. The name (and a link's target) is cut off first,
     * so a file called {@code 12:30} does not count.
     */
    static Duration listPrecision(FTPFile f) {
        String raw = f.getRawListing() == null ? "" : f.getRawListing();
        if (f.getLink() != null && raw.endsWith(" -> " + f.getLink())) {
            raw = raw.substring(0, raw.length() - f.getLink().length() - 4);
        }
        int at = raw.lastIndexOf(f.getName());
        String meta = at > 0 ? raw.substring(0, at) : raw;
        return SECONDS.matcher(meta).find() ? Duration.ofSeconds(1)
                : MINUTES.matcher(meta).find() ? Duration.ofMinutes(1) : Duration.ofDays(1);
    }

    /** A server's line for a message: cut short, control characters shown as '?'. */
    static String shown(String line) {
        if (line == null) {
            return "(none)";
        }
        StringBuilder sb = new StringBuilder("\"");
        line.codePoints().limit(200).forEach(cp -> sb.appendCodePoint(Character.isISOControl(cp) ? '?' : cp));
        return sb.append(line.length() > 200 ? "…\"" : "\"").toString();
    }
}
