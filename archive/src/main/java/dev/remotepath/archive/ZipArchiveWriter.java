package dev.remotepath.archive;

import dev.remotepath.NameBytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.zip.CRC32;

/**
 * Writes a zip archive front to back: each entry's local header (sizes and CRC known, no data
 * descriptor), its bytes, and at the end the central directory. Names are UTF-8 (flag bit 11);
 * times are written three ways: MS-DOS local time for old tools, Info-ZIP's Unix seconds, and
 * NTFS's 100 ns ticks, which readers prefer; Unix modes go in the external attributes, so
 * directories, modes and symbolic links survive. ZIP64 records are written where a size, an
 * offset or the entry count overflows the classic fields.
 */
final class ZipArchiveWriter implements ArchiveWriter {

    private static final int LOCAL_HEADER = 0x04034b50;
    private static final int CENTRAL_HEADER = 0x02014b50;
    private static final int END = 0x06054b50;
    private static final int ZIP64_END = 0x06064b50;
    private static final int ZIP64_LOCATOR = 0x07064b50;
    private static final int UTF8_NAMES = 0x0800;
    private static final int UNIX = 3;
    private static final long NTFS_EPOCH_OFFSET_SECONDS = 11_644_473_600L;
    private static final long MAX32 = 0xffffffffL;

    private final CountingOutputStream out;
    private final ZoneId dosZone;
    /** Every field at or over this is written in a ZIP64 extra; tests lower it to write ZIP64 small. */
    private final long zip64Threshold;
    private final ByteArrayOutputStream central = new ByteArrayOutputStream();
    private long entries;

    ZipArchiveWriter(OutputStream out, ZoneId dosZone, long zip64Threshold) {
        this.out = new CountingOutputStream(out);
        this.dosZone = dosZone;
        this.zip64Threshold = Math.min(zip64Threshold, MAX32);
    }

    @Override
    public boolean deflates() {
        return true;
    }

    @Override
    public void file(String name, Instant modified, int mode, EntryContent content) throws IOException {
        boolean empty = content.size() == 0;
        // An empty file is stored: nothing to deflate, and no deflater's end block to keep.
        add(name, modified, mode, empty ? 0 : 8, content.crc(), empty ? 0 : content.storedSize(), content.size(),
                empty ? null : content);
    }

    @Override
    public void directory(String name, Instant modified, int mode) throws IOException {
        add(name + "/", modified, mode, 0, 0, 0, 0, null);
    }

    @Override
    public void link(String name, String target, Instant modified) throws IOException {
        byte[] bytes = NameBytes.encode(target);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        EntryContent content = new EntryContent(false, bytes.length);
        content.write(bytes, 0, bytes.length);
        content.finish();
        add(name, modified, LINK_MODE, 0, crc.getValue(), bytes.length, bytes.length, content);
    }

    private void add(String name, Instant modified, int mode, int method, long crc, long stored, long size,
            EntryContent content) throws IOException {
        // A name that came with bytes that are not UTF-8 (NameBytes' escapes) gets those bytes
        // back, and no UTF-8 flag: it is not renamed on the way into the archive.
        byte[] nameBytes = NameBytes.encode(name);
        int flags = NameBytes.isValidUtf8(nameBytes) ? UTF8_NAMES : 0;
        long offset = out.count();
        boolean sizes64 = size >= zip64Threshold || stored >= zip64Threshold;
        int needed = sizes64 || offset >= zip64Threshold ? 45 : method == 8 ? 20 : 10;
        int[] dos = dosTime(modified);
        byte[] times = timeExtras(modified);

        // Local header: ZIP64 sizes go in its own extra, both of them, whenever either overflows.
        Le h = new Le();
        h.i32(LOCAL_HEADER).u16(needed).u16(flags).u16(method).u16(dos[1]).u16(dos[0]).i32((int) crc)
                .i32(sizes64 ? -1 : (int) stored).i32(sizes64 ? -1 : (int) size).u16(nameBytes.length)
                .u16((sizes64 ? 20 : 0) + times.length).bytes(nameBytes);
        if (sizes64) {
            h.u16(0x0001).u16(16).i64(size).i64(stored);
        }
        h.bytes(times);
        h.writeTo(out);
        if (content != null) {
            content.writeTo(out);
        }

        // Central header: only the overflowing fields, in the order the format fixes.
        Le z = new Le();
        boolean bigSize = size >= zip64Threshold;
        boolean bigStored = stored >= zip64Threshold;
        boolean bigOffset = offset >= zip64Threshold;
        int zip64Length = (bigSize ? 8 : 0) + (bigStored ? 8 : 0) + (bigOffset ? 8 : 0);
        if (zip64Length > 0) {
            z.u16(0x0001).u16(zip64Length);
            if (bigSize) {
                z.i64(size);
            }
            if (bigStored) {
                z.i64(stored);
            }
            if (bigOffset) {
                z.i64(offset);
            }
        }
        z.bytes(times);
        byte[] extra = z.toByteArray();
        Le c = new Le();
        c.i32(CENTRAL_HEADER).u16(UNIX << 8 | 63).u16(needed).u16(flags).u16(method).u16(dos[1]).u16(dos[0])
                .i32((int) crc).i32(bigStored ? -1 : (int) stored).i32(bigSize ? -1 : (int) size)
                .u16(nameBytes.length).u16(extra.length).u16(0).u16(0).u16(0)
                .i32(mode << 16 | ((mode & 0170000) == 040000 ? 0x10 : 0)).i32(bigOffset ? -1 : (int) offset)
                .bytes(nameBytes).bytes(extra);
        c.writeTo(central);
        entries++;
    }

    /** Info-ZIP's extended timestamp (Unix seconds) and NTFS times (100 ns ticks; all three set to mtime). */
    private static byte[] timeExtras(Instant t) {
        Le e = new Le();
        long seconds = t.getEpochSecond();
        if (seconds >= Integer.MIN_VALUE && seconds <= Integer.MAX_VALUE) {
            e.u16(0x5455).u16(5).u8(1).i32((int) seconds);
        }
        long ticks = Math.addExact(Math.multiplyExact(seconds + NTFS_EPOCH_OFFSET_SECONDS, 10_000_000L), t.getNano() / 100);
        e.u16(0x000a).u16(32).i32(0).u16(1).u16(24).i64(ticks).i64(ticks).i64(ticks);
        return e.toByteArray();
    }

    /** {date, time} in MS-DOS form, local to the zone; clamped to the years it can hold (1980–2107). */
    private int[] dosTime(Instant t) {
        LocalDateTime d = LocalDateTime.ofInstant(t, dosZone);
        if (d.getYear() < 1980) {
            return new int[] {(1 << 5) | 1, 0};
        }
        if (d.getYear() > 2107) {
            return new int[] {(127 << 9) | (12 << 5) | 31, (23 << 11) | (59 << 5) | 29};
        }
        return new int[] {(d.getYear() - 1980) << 9 | d.getMonthValue() << 5 | d.getDayOfMonth(),
                d.getHour() << 11 | d.getMinute() << 5 | d.getSecond() / 2};
    }

    @Override
    public void finish() throws IOException {
        long cdStart = out.count();
        central.writeTo(out);
        long cdSize = out.count() - cdStart;
        boolean zip64 = entries >= 0xffff || cdStart >= zip64Threshold || cdSize >= zip64Threshold;
        Le e = new Le();
        if (zip64) {
            long zip64End = out.count();
            e.i32(ZIP64_END).i64(44).u16(UNIX << 8 | 63).u16(45).i32(0).i32(0).i64(entries).i64(entries).i64(cdSize)
                    .i64(cdStart);
            e.i32(ZIP64_LOCATOR).i32(0).i64(zip64End).i32(1);
        }
        e.i32(END).u16(0).u16(0).u16(zip64 ? 0xffff : (int) entries).u16(zip64 ? 0xffff : (int) entries)
                .i32(zip64 ? -1 : (int) cdSize).i32(zip64 ? -1 : (int) cdStart).u16(0);
        e.writeTo(out);
        out.flush();
    }

    /** Little-endian fields, appended (the tests' zip writer uses it too). */
    static final class Le extends ByteArrayOutputStream {
        Le u8(int v) {
            write(v);
            return this;
        }

        Le u16(int v) {
            write(v);
            write(v >>> 8);
            return this;
        }

        Le i32(int v) {
            return u16(v).u16(v >>> 16);
        }

        Le i64(long v) {
            return i32((int) v).i32((int) (v >>> 32));
        }

        Le bytes(byte[] b) {
            write(b, 0, b.length);
            return this;
        }
    }

    /** Counts what passes, for the offsets the central directory records. */
    static final class CountingOutputStream extends java.io.FilterOutputStream {
        private long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }

        long count() {
            return count;
        }
    }
}
