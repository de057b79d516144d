package dev.remotepath.archive;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A zip writer for tests that must say what the JDK's will not: raw name bytes, Unix modes
 * (symbolic links), lying sizes and CRCs, other methods and flags, ZIP64 records, a stub before
 * the archive. Every field is written as given; nothing is checked.
 */
final class ZipWriter {

    /** One entry; the defaults make a valid stored file made on Unix with mode 0644. */
    static final class Entry {
        byte[] name;
        byte[] content = new byte[0];
        int method = 0;
        int flags = 0x0800; // names are UTF-8
        int unixMode = 0100644;
        int dosTime = 0x6000; // 12:00:00
        int dosDate = (44 << 9) | (6 << 5) | 1; // 2024-06-01
        Long utSeconds;
        Long declaredSize;
        Long declaredCrc;
        byte[] data; // the bytes stored, once computed
        byte[] localExtra = new byte[0]; // an extra field in the local header only, after the usual ones

        Entry(String name) {
            this.name = name.getBytes(StandardCharsets.UTF_8);
        }

        Entry content(String s) {
            content = s.getBytes(StandardCharsets.UTF_8);
            return this;
        }

        Entry content(byte[] b) {
            content = b;
            return this;
        }

        Entry deflated() {
            method = 8;
            return this;
        }

        Entry mode(int mode) {
            unixMode = mode;
            return this;
        }

        Entry mtime(long epochSeconds) {
            utSeconds = epochSeconds;
            return this;
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    private byte[] stub = new byte[0];
    private boolean zip64;

    Entry add(String name) {
        Entry e = new Entry(name);
        entries.add(e);
        return e;
    }

    Entry file(String name, String content) {
        return add(name).content(content);
    }

    Entry dir(String name) {
        return add(name).mode(040755);
    }

    Entry link(String name, String target) {
        return add(name).content(target).mode(0120777);
    }

    ZipWriter stub(byte[] bytes) {
        stub = bytes;
        return this;
    }

    /** Writes ZIP64 end records (and 0xFFFFFFFF in the classic one), as a zip of many entries has. */
    ZipWriter zip64() {
        zip64 = true;
        return this;
    }

    byte[] bytes() {
        ZipArchiveWriter.Le out = new ZipArchiveWriter.Le();
        out.bytes(stub);
        long[] offsets = new long[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            offsets[i] = out.size();
            CRC32 crc = new CRC32();
            crc.update(e.content);
            e.data = e.method == 8 ? deflate(e.content) : e.content;
            long crcValue = e.declaredCrc != null ? e.declaredCrc : crc.getValue();
            long size = e.declaredSize != null ? e.declaredSize : e.content.length;
            byte[] extra = concat(extra(e), e.localExtra);
            out.i32(0x04034b50).u16(20).u16(e.flags).u16(e.method).u16(e.dosTime).u16(e.dosDate)
                    .i32((int) crcValue).i32(e.data.length).i32((int) size).u16(e.name.length).u16(extra.length)
                    .bytes(e.name).bytes(extra).bytes(e.data);
        }
        long cdStart = out.size();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            CRC32 crc = new CRC32();
            crc.update(e.content);
            long crcValue = e.declaredCrc != null ? e.declaredCrc : crc.getValue();
            long size = e.declaredSize != null ? e.declaredSize : e.content.length;
            byte[] extra = extra(e);
            out.i32(0x02014b50).u16(3 << 8 | 20).u16(20).u16(e.flags).u16(e.method).u16(e.dosTime).u16(e.dosDate)
                    .i32((int) crcValue).i32(e.data.length).i32((int) size).u16(e.name.length).u16(extra.length).u16(0)
                    .u16(0).u16(0).i32(e.unixMode << 16).i32((int) (offsets[i] - stub.length)).bytes(e.name).bytes(extra);
        }
        long cdSize = out.size() - cdStart;
        long cdOffset = cdStart - stub.length;
        if (zip64) {
            long record = out.size();
            out.i32(0x06064b50).i64(44).u16(45).u16(45).i32(0).i32(0).i64(entries.size()).i64(entries.size())
                    .i64(cdSize).i64(cdOffset);
            out.i32(0x07064b50).i32(0).i64(record - stub.length).i32(1);
            out.i32(0x06054b50).u16(0).u16(0).u16(0xffff).u16(0xffff).i32(-1).i32(-1).u16(0);
        } else {
            out.i32(0x06054b50).u16(0).u16(0).u16(entries.size()).u16(entries.size()).i32((int) cdSize)
                    .i32((int) cdOffset).u16(0);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] extra(Entry e) {
        if (e.utSeconds == null) {
            return new byte[0];
        }
        ZipArchiveWriter.Le x = new ZipArchiveWriter.Le();
        x.u16(0x5455).u16(5).u8(1).i32((int) (long) e.utSeconds);
        return x.toByteArray();
    }

    static byte[] deflate(byte[] content) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        d.setInput(content);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }
}
