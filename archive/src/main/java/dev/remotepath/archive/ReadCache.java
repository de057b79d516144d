package dev.remotepath.archive;

import java.io.Closeable;
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
 * data starts (its local header read once), and for a compressed tar a decompressed copy on
 * the local disk, so that reading many entries costs one decompression rather than one from
 * the start per entry (a sync out of a {@code .tar.gz} of n files would otherwise inflate the
 * archive n times over).
 */
final class ReadCache implements Closeable {

    /** The largest decompressed copy kept, whatever the disk's room. */
    static final long MAX_SPILL = 8L << 30;

    /** Where decompressed copies go: {@code java.io.tmpdir} when null (tests point it elsewhere). */
    static volatile Path directory;

    /** Where each zip entry's data starts, by its local header's offset. */
    final Map<Long, Long> dataStarts = new ConcurrentHashMap<>();

    private Path spill;
    /** Set once a copy was tried and given up (too large, no room): entries are read from the start again. */
    private boolean noSpill;
    private boolean closed;

    interface Content {
        InputStream open() throws IOException;
    }

    /**
     * The decompressed archive on the local disk, made on the first call: empty when it would
     * be larger than {@link #MAX_SPILL} or half the free room of {@code java.io.tmpdir}, or
     * could not be written.
     */
    synchronized Optional<Path> decompressedCopy(Content content) throws IOException {
        if (spill != null || noSpill || closed) {
            return Optional.ofNullable(spill);
        }
        Path dir = directory;
        Path tmp = dir == null ? Files.createTempFile("rpath-tar-", ".tar") : Files.createTempFile(dir, "rpath-tar-", ".tar");
        try {
            long room = Math.min(MAX_SPILL, Files.getFileStore(tmp).getUsableSpace() / 2);
            try (InputStream in = content.open(); OutputStream out = Files.newOutputStream(tmp)) {
                byte[] buf = new byte[64 * 1024];
                long total = 0;
                int n;
                while ((n = in.read(buf)) >= 0) {
                    total += n;
                    if (total > room) {
                        noSpill = true;
                        Files.deleteIfExists(tmp);
                        return Optional.empty();
                    }
                    out.write(buf, 0, n);
                }
            }
            spill = tmp;
            tmp.toFile().deleteOnExit();
            return Optional.of(spill);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
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
