package dev.remotepath.archive;

import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one reading of an archive learns as its entries are read, kept for as long as that
 * reading stands (until the archive changes or its file system closes): where a zip entry's
 * data starts (its local header read once), the read-ahead windows of a remote zip, and for a
 * compressed tar a decompressed copy on
 * the local disk, so that reading many entries costs one decompression rather than one from
 * the start per entry (a sync out of a {@code .tar.gz} of n files would otherwise inflate the
 * archive n times over). The copy is made as the index is read where the archive is remote (one
 * download, not two), else by the first read of an entry.
 */
final class ReadCache implements Closeable {

    /** The largest decompressed copy kept, whatever the disk's room. */
    static final long MAX_SPILL = 8L << 30;

    /** Where decompressed copies go: {@code java.io.tmpdir} when null (tests point it elsewhere). */
    static volatile Path directory;

    /** Where each zip entry's data starts, by its local header's offset. */
    final Map<Long, Long> dataStarts = new ConcurrentHashMap<>();

    private ReadAhead readAhead;

    /**
     * The ranges of {@code archive} entries are read from: its backend's own ranged reads where
     * it is in-process (local, mem), else read-ahead windows ({@link ReadAhead}).
     */
    ZipEntryStreams.Ranges ranges(dev.remotepath.RemotePath archive, long archiveSize) {
        if (archive.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.IN_PROCESS)) {
            return (offset, length) -> archive.fileSystem().openRead(archive, offset, length);
        }
        synchronized (this) {
            if (readAhead == null) {
                readAhead = new ReadAhead(archive, archiveSize);
            }
            return readAhead::open;
        }
    }

    private Path spill;
    /** Set once a copy was tried and given up (too large, no room): entries are read from the start again. */
    private boolean noSpill;
    private boolean closed;

    interface Content {
        InputStream open() throws IOException;
    }

    /**
     * The decompressed archive on the local disk, made on the first call unless the index made
     * it: empty when it would be larger than {@link #MAX_SPILL} or half the free room of the
     * temporary folder.
     */
    synchronized Optional<Path> decompressedCopy(Content content) throws IOException {
        if (spill != null || noSpill || closed) {
            return Optional.ofNullable(spill);
        }
        Copy copy = new Copy();
        try (InputStream in = content.open()) {
            byte[] buf = new byte[64 * 1024];
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (!copy.write(buf, 0, n)) {
                    return Optional.empty();
                }
            }
        } catch (IOException | RuntimeException e) {
            copy.abandon();
            throw e;
        }
        copy.keep();
        return Optional.ofNullable(spill);
    }

    /**
     * {@code in} (the decompressed archive, from its start), copied to the local disk as it is
     * read or skipped; once it is closed, that copy is what {@link #decompressedCopy} gives.
     */
    InputStream copying(InputStream in) throws IOException {
        Copy copy = new Copy();
        return new FilterInputStream(in) {
            private boolean copying = true;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0 && copying) {
                    copying = copy.write(b, off, n);
                }
                return n;
            }

            /** Skipped bytes are read, so the copy has them. */
            @Override
            public long skip(long n) throws IOException {
                if (!copying) {
                    return super.skip(n);
                }
                byte[] buf = new byte[(int) Math.min(n, 64 * 1024)];
                int r = read(buf, 0, buf.length);
                return Math.max(r, 0);
            }

            @Override
            public void close() throws IOException {
                try {
                    super.close();
                } finally {
                    if (copying) {
                        copy.keep();
                    }
                }
            }
        };
    }

    /** A decompressed copy being written; given up past the room it may take. */
    private final class Copy {
        private final Path file;
        private final OutputStream out;
        private final long room;
        private long written;
        private boolean over;

        Copy() throws IOException {
            Path dir = directory;
            file = dir == null ? Files.createTempFile("rpath-tar-", ".tar") : Files.createTempFile(dir, "rpath-tar-", ".tar");
            file.toFile().deleteOnExit();
            room = Math.min(MAX_SPILL, Files.getFileStore(file).getUsableSpace() / 2);
            out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 64 * 1024);
        }

        /** Writes, or gives the copy up (false) once it would pass its room. */
        boolean write(byte[] b, int off, int n) throws IOException {
            if (over) {
                return false;
            }
            written += n;
            if (written > room) {
                over = true;
                synchronized (ReadCache.this) {
                    noSpill = true;
                }
                abandon();
                return false;
            }
            try {
                out.write(b, off, n);
            } catch (IOException e) {
                abandon();
                throw e;
            }
            return true;
        }

        void keep() throws IOException {
            out.close();
            synchronized (ReadCache.this) {
                if (spill == null && !closed && !noSpill) {
                    spill = file;
                    return;
                }
            }
            Files.deleteIfExists(file);
        }

        void abandon() {
            try {
                out.close();
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // deleteOnExit has it
            }
        }
    }

    /** Deletes the decompressed copy (a read still open on it keeps reading: the file is only unlinked). */
    @Override
    public synchronized void close() {
        closed = true;
        if (spill != null) {
            try {
                Files.deleteIfExists(spill);
            } catch (IOException e) {
                // deleteOnExit has it
            }
            spill = null;
        }
    }
}
