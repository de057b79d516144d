package dev.remotepath.archive;

import dev.remotepath.RemotePath;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipException;

/**
 * Opens an entry's content through ranged reads of the archive: the local header (whose
 * name and extra lengths may differ from the central directory's), then only the entry's
 * compressed bytes. A stored entry read from an offset asks only for the bytes from there; a
 * deflated one inflates from its start and discards up to the offset.
 *
 * <p>What an entry claims is held to: a deflated entry that inflates past its declared size
 * fails (a zip bomb stops there), one that ends short fails, and a read of the whole entry
 * from its start checks the CRC-32 at its end, so a corrupt or swapped archive is an
 * {@link IOException}, never content passed on as good.
 */
final class ZipEntryStreams {

    private static final int LOCAL_HEADER = 0x04034b50;
    private static final int LOCAL_HEADER_SIZE = 30;

    private ZipEntryStreams() {
    }

    /** Ranges of the archive an entry is read from: the backend's ranged reads, or read-ahead windows of them. */
    @FunctionalInterface
    interface Ranges {
        InputStream open(long offset, long length) throws IOException;
    }

    /**
     * Room left after the local header's name for its extra field when header and data are
     * asked for in one read: a local extra is seldom longer than this (Info-ZIP's times, ZIP64).
     */
    private static final int EXTRA_ROOM = 1024;

    /** Where the entry's data starts: after its local header, read from the archive. */
    private static long dataStart(Ranges ranges, long archiveSize, ZipEntryRecord e, RemotePath entry)
            throws IOException {
        requireHeaderInside(archiveSize, e, entry);
        byte[] fixed;
        try (InputStream in = ranges.open(e.localHeaderOffset(), LOCAL_HEADER_SIZE)) {
            fixed = in.readNBytes(LOCAL_HEADER_SIZE);
        }
        if (fixed.length < LOCAL_HEADER_SIZE) {
            throw new EOFException(entry + ": the archive ends inside its local header");
        }
        return dataStart(archiveSize, e, entry, fixed);
    }

    private static void requireHeaderInside(long archiveSize, ZipEntryRecord e, RemotePath entry) throws ZipException {
        if (e.localHeaderOffset() > archiveSize - LOCAL_HEADER_SIZE) {
            throw new ZipException(entry + ": its local header offset " + e.localHeaderOffset() + " lies outside the archive");
        }
    }

    /** Where the data starts, from the local header's fixed 30 bytes {@code header}. */
    private static long dataStart(long archiveSize, ZipEntryRecord e, RemotePath entry, byte[] header)
            throws ZipException {
        ZipCentralDirectory.Bytes h = new ZipCentralDirectory.Bytes(header, 0, LOCAL_HEADER_SIZE);
        if (h.i32(0) != LOCAL_HEADER) {
            throw new ZipException(entry + ": no local header at offset " + e.localHeaderOffset()
                    + " (the archive is corrupt, or changed after it was opened)");
        }
        long start = e.localHeaderOffset() + LOCAL_HEADER_SIZE + h.u16(26) + h.u16(28);
        if (start > archiveSize || e.compressedSize() > archiveSize - start) {
            throw new ZipException(entry + ": its " + e.compressedSize() + " bytes of data run past the archive's end");
        }
        return start;
    }

    /**
     * The content of an entry whose data start is not known yet: its local header and its data
     * in one ranged read where the header's variable part fits the room asked for (one request
     * an entry, not two, on S3 or HTTP); {@code starts} learns where the data starts.
     */
    static InputStream openFirst(Ranges ranges, long archiveSize, ZipEntryRecord e, RemotePath entry, long offset,
            long length, java.util.Map<Long, Long> starts) throws IOException {
        long want = Math.max(0, Math.min(length, e.size() - offset));
        boolean readable = !e.isEncrypted() && (e.method() == ZipEntryRecord.STORED || e.method() == ZipEntryRecord.DEFLATED);
        if (offset != 0 || want == 0 || !readable) {
            long start = dataStart(ranges, archiveSize, e, entry);
            starts.put(e.localHeaderOffset(), start);
            return open(ranges, start, e, entry, offset, length);
        }
        requireHeaderInside(archiveSize, e, entry);
        long lho = e.localHeaderOffset();
        long header = LOCAL_HEADER_SIZE + dev.remotepath.NameBytes.encode(e.name()).length + EXTRA_ROOM;
        long span = Math.min(archiveSize - lho, header + e.compressedSize());
        InputStream raw = ranges.open(lho, span);
        try {
            byte[] fixed = raw.readNBytes(LOCAL_HEADER_SIZE);
            if (fixed.length < LOCAL_HEADER_SIZE) {
                throw new EOFException(entry + ": the archive ends inside its local header");
            }
            long start = dataStart(archiveSize, e, entry, fixed);
            starts.put(lho, start);
            if (start - lho + e.compressedSize() > span) {
                raw.close(); // a local extra longer than the room asked for: the data by a read of its own
                return open(ranges, start, e, entry, 0, length);
            }
            raw.skipNBytes(start - lho - LOCAL_HEADER_SIZE);
            return checked(new dev.remotepath.spi.BoundedInputStream(raw, e.compressedSize()), e, entry, want);
        } catch (IOException | RuntimeException x) {
            raw.close();
            throw x;
        }
    }

    /** The content from {@code offset}, at most {@code length} bytes of it. */
    static InputStream open(Ranges ranges, long dataStart, ZipEntryRecord e, RemotePath entry, long offset,
            long length) throws IOException {
        if (e.isEncrypted()) {
            throw new ZipException(entry + ": encrypted entries cannot be read");
        }
        long want = Math.max(0, Math.min(length, e.size() - offset));
        boolean whole = offset == 0 && want == e.size();
        switch (e.method()) {
            case ZipEntryRecord.STORED -> {
                if (e.compressedSize() != e.size()) {
                    throw new ZipException(entry + ": stored, yet " + e.compressedSize() + " bytes hold "
                            + e.size() + " bytes of content");
                }
                if (want == 0) {
                    return InputStream.nullInputStream();
                }
                InputStream raw = ranges.open(dataStart + offset, want);
                return new Checked(raw, null, entry, e, want, whole);
            }
            case ZipEntryRecord.DEFLATED -> {
                if (want == 0) {
                    return InputStream.nullInputStream();
                }
                InputStream raw = ranges.open(dataStart, e.compressedSize());
                Checked in = new Checked(raw, new Inflater(true), entry, e, offset + want, whole);
                try {
                    in.skipNBytes(offset);
                } catch (IOException | RuntimeException x) {
                    in.close();
                    throw x;
                }
                return in;
            }
            default -> throw new ZipException(entry + ": compression method " + e.method()
                    + " is not supported (stored and deflated are)");
        }
    }

    /** A whole read from {@code raw}, positioned at the entry's data (the method was checked). */
    private static InputStream checked(InputStream raw, ZipEntryRecord e, RemotePath entry, long want)
            throws ZipException {
        if (e.method() == ZipEntryRecord.STORED && e.compressedSize() != e.size()) {
            throw new ZipException(entry + ": stored, yet " + e.compressedSize() + " bytes hold " + e.size()
                    + " bytes of content");
        }
        return new Checked(raw, e.method() == ZipEntryRecord.DEFLATED ? new Inflater(true) : null, entry, e, want,
                want == e.size());
    }

    /**
     * The entry's bytes, inflated where it is deflated, at most {@code limit} of them; checks
     * the declared size and, for a whole read, the CRC at the end.
     */
    private static final class Checked extends InputStream {
        private final InputStream raw;
        private final Inflater inflater;
        private final RemotePath entry;
        private final ZipEntryRecord e;
        private final long limit;
        private final CRC32 crc;
        private final byte[] input;
        private long produced;
        private boolean dummyGiven;
        private boolean done;

        Checked(InputStream raw, Inflater inflater, RemotePath entry, ZipEntryRecord e, long limit, boolean whole) {
            this.raw = raw;
            this.inflater = inflater;
            this.entry = entry;
            this.e = e;
            this.limit = limit;
            this.crc = whole ? new CRC32() : null;
            this.input = inflater == null ? null : new byte[16 * 1024];
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (done) {
                return -1;
            }
            if (produced >= limit) {
                finish();
                return -1;
            }
            int n = inflater == null ? raw.read(b, off, (int) Math.min(len, limit - produced))
                    : inflate(b, off, (int) Math.min(len, limit - produced));
            if (n < 0) {
                throw new EOFException(entry + ": the entry ends after " + produced + " of its " + e.size() + " bytes");
            }
            if (crc != null) {
                crc.update(b, off, n);
            }
            produced += n;
            return n;
        }

        private int inflate(byte[] b, int off, int len) throws IOException {
            try {
                while (true) {
                    int n = inflater.inflate(b, off, len);
                    if (n > 0) {
                        return n;
                    }
                    if (inflater.finished() || inflater.needsDictionary()) {
                        return -1;
                    }
                    if (inflater.needsInput()) {
                        int got = raw.read(input);
                        if (got > 0) {
                            inflater.setInput(input, 0, got);
                        } else if (!dummyGiven) {
                            // zlib's raw mode may want one byte past the data to finish
                            dummyGiven = true;
                            inflater.setInput(new byte[1]);
                        } else {
                            return -1;
                        }
                    }
                }
            } catch (DataFormatException x) {
                throw new ZipException(entry + ": corrupt deflated data (" + x.getMessage() + ")");
            }
        }

        /** At the limit: for a whole read, nothing may follow and the CRC must match. */
        private void finish() throws IOException {
            done = true;
            if (crc == null) {
                return;
            }
            if (inflater != null && !inflater.finished()) {
                byte[] probe = new byte[1];
                if (inflate(probe, 0, 1) > 0) {
                    throw new ZipException(entry + ": inflates past its declared " + e.size() + " bytes");
                }
            }
            if (crc.getValue() != e.crc()) {
                throw new ZipException(entry + ": CRC-32 mismatch (the entry says " + Long.toHexString(e.crc())
                        + ", its content has " + Long.toHexString(crc.getValue()) + ")");
            }
        }

        @Override
        public void close() throws IOException {
            done = true;
            try {
                raw.close();
            } finally {
                if (inflater != null) {
                    inflater.end();
                }
            }
        }
    }
}
