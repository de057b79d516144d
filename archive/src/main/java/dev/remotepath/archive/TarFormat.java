package dev.remotepath.archive;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.NameBytes;
import dev.remotepath.RemotePath;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The tar format (POSIX ustar and pax, GNU long names), plain or gzip-compressed (told by its
 * first two bytes, not its name). A tar has no directory: the index is one pass over the
 * archive from its start, reading headers and skipping content. An entry of a plain tar is then
 * read by its own range; one of a compressed tar from a decompressed copy on the local disk,
 * made by the first read ({@link ReadCache}), or, where that copy would be too large, by
 * decompressing from the start up to it.
 *
 * <p>Every header's checksum is verified and every size and offset checked, so a corrupt or
 * hostile archive is an {@link IOException} naming the archive and the offset. Extension
 * records (pax, GNU long names) are bounded to 1 MiB. Devices and FIFOs are listed as
 * {@link FileType#OTHER}; hard links read as the entry they name, which must come before them;
 * GNU sparse entries cannot be read.
 */
final class TarFormat implements ArchiveFormat {

    static final TarFormat TAR = new TarFormat();

    private static final int BLOCK = 512;
    private static final int MAX_EXTENSION = 1 << 20;

    private TarFormat() {
    }

    /** One tar entry: where its content starts in the (uncompressed) stream. */
    record TarEntry(String name, FileType type, long size, Optional<Instant> modified, Duration precision,
            int unixMode, String linkTarget, long key, long dataOffset, boolean sparse, boolean compressed)
            implements ArchiveEntry {
    }

    @Override
    public String scheme() {
        return "tar";
    }

    @Override
    public Optional<String> linkTarget(ArchiveEntry e) {
        TarEntry t = (TarEntry) e;
        return t.type() == FileType.SYMLINK ? Optional.of(t.linkTarget()) : Optional.empty();
    }

    @Override
    public List<TarEntry> index(RemotePath archive, FileStat archiveStat, ZoneId zone, ReadCache cache)
            throws IOException {
        Optional<List<TarEntry>> kept = TarIndexCache.find(archive, archiveStat);
        if (kept.isPresent()) {
            return kept.get(); // an unchanged archive indexed by an earlier process
        }
        InputStream content = content(archive);
        boolean compressed = content instanceof GZIPInputStream;
        // A remote compressed tar is decompressed into the local copy entries are read from as
        // it is indexed: one download, where a copy made by the first read would be a second.
        boolean remote = !archive.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.IN_PROCESS);
        try (Counting in = new Counting(compressed && remote ? cache.copying(content) : content)) {
            List<TarEntry> entries = read(archive, in, compressed);
            TarIndexCache.keep(archive, archiveStat, entries);
            return entries;
        }
    }

    /** The archive's bytes from the start, decompressed where it is gzip. */
    private static InputStream content(RemotePath archive) throws IOException {
        BufferedInputStream raw = new BufferedInputStream(archive.fileSystem().openRead(archive, 0), 64 * 1024);
        try {
            raw.mark(2);
            int b0 = raw.read();
            int b1 = raw.read();
            raw.reset();
            return b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(raw, 64 * 1024) : raw;
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    private static List<TarEntry> read(RemotePath archive, Counting in, boolean compressed) throws IOException {
        // The index is the archive's listing, held whole: a small .tar.gz can hold millions of
        // headers, so it is bounded as a paged listing is, and the extension records before one
        // entry (new pax keys, record after record) as one record is.
        int maxEntries = dev.remotepath.spi.ContinuationGuard.maxEntries();
        long extensionBytes = 0;
        List<TarEntry> out = new ArrayList<>();
        Map<String, TarEntry> byName = new HashMap<>();
        byte[] h = new byte[BLOCK];
        Map<String, String> pax = new HashMap<>();
        String longName = null;
        String longLink = null;
        while (true) {
            long at = in.position;
            int n = in.readNBytes(h, 0, BLOCK);
            if (n == 0 && out.isEmpty() && at == 0) {
                throw new IOException(archive + ": an empty file is not a tar archive");
            }
            if (n < BLOCK) {
                if (n == 0) {
                    return out; // no end blocks: GNU tar reads such archives too
                }
                throw new EOFException(archive + ": the tar archive ends inside the header at offset " + at);
            }
            if (allZero(h)) {
                return out; // the end-of-archive blocks
            }
            if (!checksumMatches(h)) {
                throw new IOException(archive + ": no tar header at offset " + at + " (bad checksum)"
                        + (at == 0 ? ": not a tar archive" : ""));
            }
            long size = number(h, 124, 12, archive, at);
            char flag = (char) h[156];
            long dataOffset = in.position;
            long padded = (size + BLOCK - 1) / BLOCK * BLOCK;
            switch (flag) {
                case 'x', 'L', 'K' -> {
                    if (size > MAX_EXTENSION) {
                        throw new IOException(archive + ": an extension record of " + size + " bytes at offset " + at);
                    }
                    extensionBytes += size;
                    if (extensionBytes > MAX_EXTENSION) {
                        throw new IOException(archive + ": extension records of more than " + MAX_EXTENSION
                                + " bytes in all before the entry at offset " + at);
                    }
                    byte[] data = new byte[(int) size];
                    if (in.readNBytes(data, 0, data.length) < data.length) {
                        throw new EOFException(archive + ": the tar archive ends inside the record at offset " + at);
                    }
                    skip(in, padded - size, archive, at);
                    if (flag == 'x') {
                        pax.putAll(paxRecords(data, archive, at));
                    } else {
                        String text = NameBytes.decode(data, 0, cString(data, 0, data.length));
                        if (flag == 'L') {
                            longName = text;
                        } else {
                            longLink = text;
                        }
                    }
                    continue;
                }
                case 'g' -> { // global pax: defaults for the whole archive, none of which we use
                    skip(in, padded, archive, at);
                    continue;
                }
                default -> {
                }
            }
            String name = pax.getOrDefault("path", longName != null ? longName : headerName(h));
            String link = pax.getOrDefault("linkpath", longLink != null ? longLink : field(h, 157, 100));
            if (pax.containsKey("size")) {
                size = paxNumber(pax.get("size"), archive, at);
                padded = (size + BLOCK - 1) / BLOCK * BLOCK;
            }
            Optional<Instant> mtime = Optional.of(Instant.ofEpochSecond(number(h, 136, 12, archive, at)));
            Duration precision = Duration.ofSeconds(1);
            if (pax.containsKey("mtime")) {
                mtime = Optional.of(paxTime(pax.get("mtime"), archive, at));
                precision = Duration.ofNanos(1);
            }
            int mode = (int) (number(h, 100, 8, archive, at) & 07777);
            FileType type = switch (flag) {
                case '5' -> FileType.DIRECTORY;
                case '2' -> FileType.SYMLINK;
                case '3', '4', '6' -> FileType.OTHER;
                default -> name.endsWith("/") ? FileType.DIRECTORY : FileType.FILE; // '0', '\0', '7', '1', 'S'
            };
            TarEntry e = new TarEntry(name, type, type == FileType.FILE ? size : type == FileType.SYMLINK ? link.length() : 0,
                    mtime, precision, mode, link, at, dataOffset, flag == 'S', compressed);
            if (flag == '1') { // a hard link: the content of the entry it names, which came before
                TarEntry target = byName.get(strip(link));
                e = new TarEntry(name, FileType.FILE, target == null ? 0 : target.size(), mtime, precision, mode, link, at,
                        target == null ? -1 : target.dataOffset(), target != null && target.sparse(), compressed);
                padded = 0; // a hard link has no content of its own
            }
            if (out.size() == maxEntries) {
                throw new IOException(archive + ": the tar archive holds more than "
                        + String.format(java.util.Locale.ROOT, "%,d", maxEntries) + " entries; refused rather than"
                        + " indexed into memory (-Dremotepath.maxListingEntries raises the limit)");
            }
            out.add(e);
            byName.put(strip(name), e);
            skip(in, padded, archive, at);
            pax.clear();
            extensionBytes = 0;
            longName = null;
            longLink = null;
        }
    }

    private static String strip(String name) {
        String n = name;
        while (n.startsWith("./")) {
            n = n.substring(2);
        }
        return n.endsWith("/") ? n.substring(0, n.length() - 1) : n;
    }

    @Override
    public InputStream open(RemotePath archive, long archiveSize, ArchiveEntry e, RemotePath entry, long offset,
            long length, ReadCache cache) throws IOException {
        TarEntry t = (TarEntry) e;
        if (t.sparse()) {
            throw new IOException(entry + ": GNU sparse entries cannot be read");
        }
        if (t.dataOffset() < 0) {
            throw new IOException(entry + ": a hard link to '" + t.linkTarget() + "', which the archive does not hold before it");
        }
        long want = Math.max(0, Math.min(length, t.size() - offset));
        if (want == 0) {
            return InputStream.nullInputStream();
        }
        InputStream in;
        if (!t.compressed()) {
            if (t.dataOffset() + t.size() > archiveSize) {
                throw new EOFException(entry + ": its " + t.size() + " bytes run past the archive's end");
            }
            in = archive.fileSystem().openRead(archive, t.dataOffset() + offset, want);
        } else {
            java.util.Optional<java.nio.file.Path> copy = cache.decompressedCopy(() -> content(archive));
            in = copy.isPresent() ? java.nio.file.Files.newInputStream(copy.get()) : content(archive);
            try {
                in.skipNBytes(t.dataOffset() + offset); // a seek in the local copy
            } catch (EOFException x) {
                in.close();
                throw new EOFException(entry + ": the archive ends before the entry's content");
            } catch (IOException | RuntimeException x) {
                in.close();
                throw x;
            }
        }
        return new Exactly(in, want, entry);
    }

    // ------------------------------------------------------------------ headers

    private static boolean allZero(byte[] h) {
        for (byte b : h) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** The header's checksum: its bytes summed with the checksum field read as spaces (signed, as old tars wrote it, too). */
    private static boolean checksumMatches(byte[] h) {
        long unsigned = 0;
        long signed = 0;
        for (int i = 0; i < BLOCK; i++) {
            int b = i >= 148 && i < 156 ? ' ' : h[i];
            unsigned += b & 0xff;
            signed += i >= 148 && i < 156 ? ' ' : b;
        }
        long stored;
        try {
            stored = octal(h, 148, 8);
        } catch (NumberFormatException e) {
            return false;
        }
        return stored == unsigned || stored == signed;
    }

    /** The name, with ustar's prefix where the header is ustar. */
    private static String headerName(byte[] h) {
        String name = field(h, 0, 100);
        boolean ustar = h[257] == 'u' && h[258] == 's' && h[259] == 't' && h[260] == 'a' && h[261] == 'r';
        if (ustar && h[345] != 0 && !(h[262] == ' ')) { // GNU's "ustar  " keeps other data there
            return field(h, 345, 155) + "/" + name;
        }
        return name;
    }

    private static String field(byte[] h, int off, int len) {
        return NameBytes.decode(h, off, cString(h, off, len));
    }

    private static int cString(byte[] b, int off, int len) {
        for (int i = 0; i < len; i++) {
            if (b[off + i] == 0) {
                return i;
            }
        }
        return len;
    }

    /** An octal field, or GNU's base-256 (first byte's high bit set) for values that do not fit. */
    private static long number(byte[] h, int off, int len, RemotePath archive, long at) throws IOException {
        if ((h[off] & 0x80) != 0) {
            if ((h[off] & 0x40) != 0) {
                throw new IOException(archive + ": a negative number in the tar header at offset " + at);
            }
            long v = h[off] & 0x3f;
            for (int i = 1; i < len; i++) {
                if (v > (Long.MAX_VALUE >> 8)) {
                    throw new IOException(archive + ": a number too large in the tar header at offset " + at);
                }
                v = v << 8 | (h[off + i] & 0xff);
            }
            return v;
        }
        try {
            return octal(h, off, len);
        } catch (NumberFormatException e) {
            throw new IOException(archive + ": a malformed number in the tar header at offset " + at);
        }
    }

    private static long octal(byte[] h, int off, int len) {
        long v = 0;
        int i = off;
        int end = off + len;
        while (i < end && h[i] == ' ') {
            i++;
        }
        for (; i < end && h[i] != 0 && h[i] != ' '; i++) {
            byte b = h[i];
            if (b < '0' || b > '7' || v > (Long.MAX_VALUE >> 3)) {
                throw new NumberFormatException();
            }
            v = v << 3 | (b - '0');
        }
        return v;
    }

    /** pax records: {@code "<length> <key>=<value>\n"} each. */
    private static Map<String, String> paxRecords(byte[] data, RemotePath archive, long at) throws IOException {
        Map<String, String> out = new HashMap<>();
        int i = 0;
        while (i < data.length) {
            int space = i;
            while (space < data.length && data[space] != ' ') {
                space++;
            }
            int length;
            try {
                length = Integer.parseInt(new String(data, i, space - i, StandardCharsets.US_ASCII));
            } catch (NumberFormatException e) {
                if (allZeroFrom(data, i)) {
                    break; // padding
                }
                throw new IOException(archive + ": a malformed pax record at offset " + at);
            }
            if (length <= space - i + 1 || i + length > data.length || data[i + length - 1] != '\n') {
                throw new IOException(archive + ": a malformed pax record at offset " + at);
            }
            int eq = space + 1;
            while (eq < i + length - 1 && data[eq] != '=') {
                eq++;
            }
            if (eq >= i + length - 1) {
                throw new IOException(archive + ": a pax record without '=' at offset " + at);
            }
            String key = new String(data, space + 1, eq - space - 1, StandardCharsets.UTF_8);
            String value = NameBytes.decode(data, eq + 1, i + length - 1 - (eq + 1));
            out.put(key, value);
            i += length;
        }
        return out;
    }

    private static boolean allZeroFrom(byte[] data, int i) {
        for (int j = i; j < data.length; j++) {
            if (data[j] != 0) {
                return false;
            }
        }
        return true;
    }

    private static long paxNumber(String v, RemotePath archive, long at) throws IOException {
        try {
            long n = Long.parseLong(v.strip());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IOException(archive + ": a malformed pax size '" + v + "' at offset " + at);
        }
    }

    private static Instant paxTime(String v, RemotePath archive, long at) throws IOException {
        try {
            java.math.BigDecimal t = new java.math.BigDecimal(v.strip());
            java.math.BigDecimal seconds = t.setScale(0, java.math.RoundingMode.FLOOR);
            int nanos = t.subtract(seconds).movePointRight(9).setScale(0, java.math.RoundingMode.FLOOR).intValueExact();
            return Instant.ofEpochSecond(seconds.longValueExact(), nanos);
        } catch (ArithmeticException | NumberFormatException | java.time.DateTimeException e) {
            throw new IOException(archive + ": a malformed pax mtime '" + v + "' at offset " + at);
        }
    }

    private static void skip(Counting in, long n, RemotePath archive, long at) throws IOException {
        try {
            in.skipNBytes(n);
        } catch (EOFException e) {
            throw new EOFException(archive + ": the tar archive ends inside the entry at offset " + at);
        }
    }

    /** Counts the bytes read and skipped: the offset in the (uncompressed) archive. */
    private static final class Counting extends FilterInputStream {
        long position;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                position++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                position += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            position += s;
            return s;
        }
    }

    /** Exactly {@code length} bytes, or an EOFException naming the entry. */
    private static final class Exactly extends FilterInputStream {
        private long left;
        private final RemotePath entry;

        Exactly(InputStream in, long length, RemotePath entry) {
            super(in);
            this.left = length;
            this.entry = entry;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (left <= 0) {
                return -1;
            }
            int n = super.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException(entry + ": the archive ends inside this entry's content");
            }
            left -= n;
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(Math.min(n, left));
            left -= skipped;
            return skipped;
        }
    }
}
