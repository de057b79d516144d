package dev.remotepath.archive;

import dev.remotepath.NameBytes;
import dev.remotepath.RemotePath;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipException;

/**
 * Reads a zip's central directory through ranged reads of the archive: the end record (within
 * the last 64 KiB), the ZIP64 end record where there is one, then the directory itself in one
 * read. No byte of any entry's content is read. Every length and offset is checked against the
 * archive's size before it is used, so a hostile archive fails with a {@link ZipException}
 * naming it rather than a read past its end or an array sized by its claims.
 */
final class ZipCentralDirectory {

    private static final int EOCD = 0x06054b50;
    private static final int EOCD_SIZE = 22;
    private static final int ZIP64_LOCATOR = 0x07064b50;
    private static final int ZIP64_LOCATOR_SIZE = 20;
    private static final int ZIP64_EOCD = 0x06064b50;
    private static final int ZIP64_EOCD_SIZE = 56;
    private static final int CENTRAL_HEADER = 0x02014b50;
    private static final int CENTRAL_HEADER_SIZE = 46;
    private static final int MAX_COMMENT = 0xffff;
    private static final int SHORT_TAIL = 4096;
    /** MS-DOS times and NTFS times count from these. */
    private static final long NTFS_EPOCH_OFFSET_SECONDS = 11_644_473_600L;

    private ZipCentralDirectory() {
    }

    /**
     * The largest central directory read: ~2.5 million entries. The directory is read whole, so
     * a hostile end record claiming nearly the whole of a large archive is refused here rather
     * than allocated.
     */
    static final int MAX_DIRECTORY = 256 << 20;

    /** The entries of {@code archive}, {@code size} bytes long, in the order the directory lists them. */
    static List<ZipEntryRecord> read(RemotePath archive, long size, ZoneId dosZone) throws IOException {
        return read(archive, size, dosZone, MAX_DIRECTORY);
    }

    static List<ZipEntryRecord> read(RemotePath archive, long size, ZoneId dosZone, int maxDirectory) throws IOException {
        // The end record is in the last 4 KiB unless a long comment follows it: read more only then.
        int tailLength = (int) Math.min(size, SHORT_TAIL);
        long tailStart = size - tailLength;
        byte[] tail = readRange(archive, tailStart, tailLength);
        int eocd = findEndRecord(tail, true);
        if ((eocd < 0 || eocd < ZIP64_LOCATOR_SIZE) && tailStart > 0) {
            tailLength = (int) Math.min(size, EOCD_SIZE + MAX_COMMENT + ZIP64_LOCATOR_SIZE);
            tailStart = size - tailLength;
            tail = readRange(archive, tailStart, tailLength);
            eocd = findEndRecord(tail, true);
        }
        if (eocd < 0) {
            eocd = findEndRecord(tail, false);
        }
        if (eocd < 0) {
            throw new ZipException(archive + ": not a zip archive (no end of central directory record)");
        }
        Bytes end = new Bytes(tail, eocd, EOCD_SIZE);
        int disk = end.u16(4);
        int cdDisk = end.u16(6);
        long entriesOnDisk = end.u16(8);
        long entries = end.u16(10);
        long cdSize = end.u32(12);
        long cdOffset = end.u32(16);
        long recordStart = tailStart + eocd; // where the directory should end
        int locator = eocd - ZIP64_LOCATOR_SIZE;
        if (locator >= 0 && new Bytes(tail, locator, ZIP64_LOCATOR_SIZE).i32(0) == ZIP64_LOCATOR) {
            Bytes loc = new Bytes(tail, locator, ZIP64_LOCATOR_SIZE);
            long zip64At = loc.i64(8);
            if (loc.u32(16) > 1) {
                throw new ZipException(archive + ": spanned (multi-disk) archives are not supported");
            }
            if (zip64At < 0 || zip64At > tailStart + locator - ZIP64_EOCD_SIZE) {
                throw new ZipException(archive + ": ZIP64 end record offset " + zip64At + " lies outside the archive");
            }
            Bytes z = new Bytes(readRange(archive, zip64At, ZIP64_EOCD_SIZE), 0, ZIP64_EOCD_SIZE);
            long rightBefore = tailStart + locator - ZIP64_EOCD_SIZE;
            if (z.i32(0) != ZIP64_EOCD && rightBefore != zip64At && rightBefore >= 0) {
                // Bytes before the archive (a self-extracting stub) shift the offset it declares;
                // the record usually ends where the locator starts.
                z = new Bytes(readRange(archive, rightBefore, ZIP64_EOCD_SIZE), 0, ZIP64_EOCD_SIZE);
                zip64At = rightBefore;
            }
            if (z.i32(0) != ZIP64_EOCD) {
                throw new ZipException(archive + ": no ZIP64 end record at offset " + zip64At);
            }
            disk = (int) z.u32(16);
            cdDisk = (int) z.u32(20);
            entriesOnDisk = z.i64(24);
            entries = z.i64(32);
            cdSize = z.i64(40);
            cdOffset = z.i64(48);
            recordStart = zip64At;
        }
        if (disk != 0 || cdDisk != 0 || entriesOnDisk != entries) {
            throw new ZipException(archive + ": spanned (multi-disk) archives are not supported");
        }
        if (cdSize < 0 || cdSize > recordStart || entries < 0 || entries > cdSize / CENTRAL_HEADER_SIZE) {
            throw new ZipException(archive + ": the end record's directory (" + entries + " entries in "
                    + cdSize + " bytes) does not fit the archive");
        }
        if (cdSize > maxDirectory) {
            throw new ZipException(archive + ": a central directory of " + cdSize + " bytes is more than the "
                    + maxDirectory + " read");
        }
        // Bytes before the archive proper (a self-extracting stub) shift every offset: the
        // directory ends where the end record starts, whatever offset the record claims.
        long cdStart = recordStart - cdSize;
        long shift = cdStart - cdOffset;
        if (shift < 0) {
            throw new ZipException(archive + ": the central directory's offset " + cdOffset
                    + " runs past the end record at " + recordStart);
        }
        byte[] cd = cdStart >= tailStart && recordStart <= tailStart + tail.length
                ? java.util.Arrays.copyOfRange(tail, (int) (cdStart - tailStart), (int) (recordStart - tailStart))
                : readRange(archive, cdStart, (int) cdSize);
        return entries(archive, cd, entries, shift, cdStart, dosZone);
    }

    /**
     * The end record's position in {@code tail}: the last signature whose comment ends the tail
     * exactly, or, not {@code exact}, the last signature at all (some tools append bytes after
     * the comment); -1 when there is none.
     */
    private static int findEndRecord(byte[] tail, boolean exact) {
        for (int i = tail.length - EOCD_SIZE; i >= 0; i--) {
            Bytes b = new Bytes(tail, i, EOCD_SIZE);
            if (b.i32(0) == EOCD && (!exact || i + EOCD_SIZE + b.u16(20) == tail.length)) {
                return i;
            }
        }
        return -1;
    }

    private static List<ZipEntryRecord> entries(RemotePath archive, byte[] cd, long count, long shift, long cdStart,
            ZoneId dosZone) throws ZipException {
        List<ZipEntryRecord> out = new ArrayList<>((int) Math.min(count, 1 << 16));
        int at = 0;
        for (long n = 0; n < count; n++) {
            if (at + CENTRAL_HEADER_SIZE > cd.length) {
                throw new ZipException(archive + ": the central directory ends after " + n + " of its " + count + " entries");
            }
            Bytes h = new Bytes(cd, at, cd.length - at);
            if (h.i32(0) != CENTRAL_HEADER) {
                throw new ZipException(archive + ": no central directory header at offset " + (cdStart + at));
            }
            int versionMadeBy = h.u16(4);
            int flags = h.u16(8);
            int method = h.u16(10);
            int dosTime = h.u16(12);
            int dosDate = h.u16(14);
            long crc = h.u32(16);
            long compressed = h.u32(20);
            long size = h.u32(24);
            int nameLength = h.u16(28);
            int extraLength = h.u16(30);
            int commentLength = h.u16(32);
            long external = h.u32(38);
            long offset = h.u32(42);
            int total = CENTRAL_HEADER_SIZE + nameLength + extraLength + commentLength;
            if (total > cd.length - at) {
                throw new ZipException(archive + ": central directory entry " + n + " runs past the directory's end");
            }
            String name = NameBytes.decode(cd, at + CENTRAL_HEADER_SIZE, nameLength);
            Bytes extra = new Bytes(cd, at + CENTRAL_HEADER_SIZE + nameLength, extraLength);
            // ZIP64: the fields that overflowed 32 bits, in this order, only those.
            Instant modified = null;
            Duration precision = Duration.ofSeconds(2);
            for (int e = 0; e + 4 <= extra.length; ) {
                int id = extra.u16(e);
                int len = extra.u16(e + 2);
                if (e + 4 + len > extra.length) {
                    break; // a truncated extra block: the fixed fields stand
                }
                Bytes data = new Bytes(extra.bytes, extra.start + e + 4, len);
                if (id == 0x0001) {
                    int z = 0;
                    if (size == 0xffffffffL) {
                        size = data.i64Checked(z, archive, name);
                        z += 8;
                    }
                    if (compressed == 0xffffffffL) {
                        compressed = data.i64Checked(z, archive, name);
                        z += 8;
                    }
                    if (offset == 0xffffffffL) {
                        offset = data.i64Checked(z, archive, name);
                    }
                } else if (id == 0x5455 && len >= 5 && (data.u8(0) & 1) != 0 && precision.getSeconds() >= 1) {
                    modified = Instant.ofEpochSecond(data.i32(1)); // Info-ZIP's Unix time, UTC
                    precision = Duration.ofSeconds(1);
                } else if (id == 0x000a && len >= 32 && data.u16(4) == 1 && data.u16(6) >= 24) {
                    long ticks = data.i64(8); // 100 ns since 1601-01-01 UTC
                    modified = Instant.ofEpochSecond(Math.floorDiv(ticks, 10_000_000L) - NTFS_EPOCH_OFFSET_SECONDS,
                            Math.floorMod(ticks, 10_000_000L) * 100);
                    precision = Duration.ofNanos(100);
                }
                e += 4 + len;
            }
            if (modified == null) {
                modified = dosTime(dosDate, dosTime, dosZone);
            }
            if (size < 0 || compressed < 0 || offset < 0) {
                throw new ZipException(archive + ": entry '" + name + "' has a negative size or offset");
            }
            int madeBy = versionMadeBy >>> 8;
            int unixMode = (madeBy == 3 || madeBy == 19) && (external >>> 16) != 0 ? (int) (external >>> 16) : -1;
            boolean dosDirectory = madeBy == 0 && (external & 0x10) != 0;
            out.add(new ZipEntryRecord(name, flags, method, crc, compressed, size, offset + shift,
                    Optional.ofNullable(modified), precision, unixMode, dosDirectory));
            at += total;
        }
        return out;
    }

    /** An MS-DOS date and time, local to {@code zone} (the zip keeps no zone); null when invalid. */
    private static Instant dosTime(int date, int time, ZoneId zone) {
        try {
            return LocalDateTime.of(1980 + (date >> 9), (date >> 5) & 15, date & 31,
                    time >> 11, (time >> 5) & 63, (time & 31) * 2).atZone(zone).toInstant();
        } catch (DateTimeException e) {
            return null; // month 0, second 60, ...: no time rather than a wrong one
        }
    }

    /** Exactly {@code length} bytes of {@code archive} from {@code offset}. */
    static byte[] readRange(RemotePath archive, long offset, int length) throws IOException {
        byte[] out = new byte[length];
        try (InputStream in = archive.fileSystem().openRead(archive, offset, length)) {
            int n = in.readNBytes(out, 0, length);
            if (n < length) {
                throw new EOFException(archive + ": " + length + " bytes at offset " + offset
                        + " were asked, " + n + " read: the archive is shorter than it was");
            }
        }
        return out;
    }

    /** Little-endian fields of a window of a byte array. */
    record Bytes(byte[] bytes, int start, int length) {

        int u8(int i) {
            return bytes[start + i] & 0xff;
        }

        int u16(int i) {
            return u8(i) | u8(i + 1) << 8;
        }

        int i32(int i) {
            return u16(i) | u16(i + 2) << 16;
        }

        long u32(int i) {
            return i32(i) & 0xffffffffL;
        }

        long i64(int i) {
            return u32(i) | (long) i32(i + 4) << 32;
        }

        long i64Checked(int i, RemotePath archive, String name) throws ZipException {
            if (i + 8 > length) {
                throw new ZipException(archive + ": entry '" + name + "' has a ZIP64 field too short for its sizes");
            }
            return i64(i);
        }
    }
}
