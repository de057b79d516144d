package dev.remotepath.azure;

import com.azure.core.util.Context;
import com.azure.storage.blob.models.BlobDownloadHeaders;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.DownloadRetryOptions;
import dev.remotepath.IsDirectoryException;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ContentRange;
import dev.remotepath.spi.TrickleGuard;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;

/**
 * A ranged read of one blob in chunks, each one Get Blob of at most 4 MiB, each after the first
 * pinned to the ETag the first one saw, so a blob replaced mid-read fails rather than mixing
 * versions. Each chunk's bytes are taken as they arrive and held to a {@link TrickleGuard}: the
 * SDK's own chunked stream reads a chunk whole inside one call, without a bound on how long
 * its body takes, so a server that sent a byte now and then held a read for good. Failures are
 * translated and the stream counted while open.
 */
final class AzureReadStream extends InputStream {

    private static final int MAX_CHUNK = 4 * 1024 * 1024;

    private final AzureFileSystem fs;
    private final RemotePath file;
    private final String name;
    private final int chunkSize;
    private final TrickleGuard trickle;
    /** The next byte to hand out; where the read stops (exclusive), once the first answer said. */
    private long position;
    private long end;
    private BlobRequestConditions pinned;
    private Chunk chunk;
    private int chunkRead;
    private boolean closed;
    private boolean counted;

    private AzureReadStream(AzureFileSystem fs, RemotePath file, String name, long offset, long length) {
        this.fs = fs;
        this.file = file;
        this.name = name;
        this.position = offset;
        this.end = length < 0 || length > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + length;
        this.chunkSize = (int) Math.min(fs.options().blockSize(), MAX_CHUNK);
        this.trickle = new TrickleGuard(file.toString(), fs.options().requestTimeout());
    }

    /** @param length bytes to read at most, -1 for all to the end */
    static InputStream open(AzureFileSystem fs, RemotePath file, String name, long offset, long length)
            throws IOException {
        AzureReadStream s = new AzureReadStream(fs, file, name, offset, length);
        BlobDownloadHeaders first;
        try {
            if (length == 0) {
                return empty(fs, file, name); // no range of no bytes to ask for
            }
            try {
                first = s.fetch();
            } catch (RuntimeException e) {
                if (BlobErrorCode.INVALID_RANGE.equals(AzureErrors.code(e))) {
                    return empty(fs, file, name); // an empty blob, or an offset at or past the end
                }
                throw e;
            }
        } catch (RuntimeException e) {
            if (AzureErrors.isNotFound(e) && !BlobErrorCode.CONTAINER_NOT_FOUND.equals(AzureErrors.code(e))) {
                if (fs.directoryExists(file)) {
                    throw new IsDirectoryException(file.toString());
                }
                throw new NoSuchFileException(file.toString());
            }
            throw AzureErrors.translate(e, file.toString());
        }
        long total = ContentRange.parse(first.getContentRange()).map(ContentRange::total)
                .orElse(offset + s.chunk.length);
        if (AzureBlobStats.isMarker(name, total, first.getMetadata())) {
            throw new IsDirectoryException(file.toString());
        }
        s.end = Math.min(s.end, total);
        s.pinned = first.getETag() == null ? null : new BlobRequestConditions().setIfMatch(first.getETag());
        fs.streamOpened();
        s.counted = true;
        return s;
    }

    /**
     * A read with no bytes to ask for, of a blob that exists and is not a directory's marker
     * (an empty blob is one, and a range of an empty blob is no Get Blob the service answers);
     * counted like any other stream while it is open.
     */
    private static InputStream empty(AzureFileSystem fs, RemotePath file, String name) throws IOException {
        com.azure.storage.blob.models.BlobProperties p = fs.blob(name).getProperties(); // its failure: the caller's
        if (AzureBlobStats.isMarker(name, p.getBlobSize(), p.getMetadata())) {
            throw new IsDirectoryException(file.toString());
        }
        fs.streamOpened();
        return new java.io.FilterInputStream(InputStream.nullInputStream()) {
            private boolean closed;

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    fs.streamEnded();
                }
            }
        };
    }

    /** The next chunk from {@link #position}, its bytes taken as they come; the answer's headers. */
    private BlobDownloadHeaders fetch() throws IOException {
        int want = (int) Math.min(chunkSize, end - position);
        Chunk next = new Chunk(want, end != Long.MAX_VALUE);
        try {
            // No retries of the SDK's own inside a chunk: a failed chunk fails the read, as the
            // SDK's stream did (the pipeline retries requests that fail before their body).
            BlobDownloadHeaders h = fs.blob(name).downloadStreamWithResponse(next, new BlobRange(position, (long) want),
                    new DownloadRetryOptions().setMaxRetryRequests(0), pinned, false, null, Context.NONE)
                    .getDeserializedHeaders();
            // The bytes must be the ones asked for: a service that ignored the range (the whole
            // blob) or answered another would have its bytes taken for those at the position.
            // (Azurite answers a range at the very end as "bytes 10-9/10", which no parser takes.)
            String range = h.getContentRange();
            boolean fromPosition = range == null ? position == 0 : ContentRange.parse(range)
                    .map(r -> r.first() == position).orElseGet(() -> range.startsWith("bytes " + position + "-"));
            if (!fromPosition) {
                throw new FileSystemException(file.toString(), null, "asked for bytes from " + position
                        + " but the service answered " + (range == null ? "without a Content-Range (the whole blob?)"
                                : "'" + range + "'") + "; not read");
            }
            chunk = next;
            chunkRead = 0;
            return h;
        } catch (RuntimeException e) {
            if (next.failure != null) {
                throw next.failure; // the guard or the length check, not the SDK, stopped it
            }
            throw e;
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException(file + ": stream closed");
        }
        if (len == 0) {
            return 0;
        }
        while (chunkRead == chunk.length) {
            if (position >= end) {
                return -1;
            }
            try {
                fetch();
            } catch (RuntimeException e) {
                throw AzureErrors.translate(e, file.toString());
            }
            if (chunk.length == 0) {
                throw new FileSystemException(file.toString(), null, "the service answered bytes from " + position
                        + " with none, before the blob's end at " + end);
            }
        }
        int n = Math.min(len, chunk.length - chunkRead);
        System.arraycopy(chunk.bytes, chunkRead, b, off, n);
        chunkRead += n;
        position += n;
        return n;
    }

    @Override
    public int available() {
        return chunk == null ? 0 : chunk.length - chunkRead;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        chunk = null;
        if (counted) {
            fs.streamEnded();
        }
    }

    /**
     * One chunk's bytes as the SDK hands them over, each arrival held to the stream's trickle
     * guard (the time between two arrivals is the time the body kept the read waiting).
     */
    private final class Chunk extends OutputStream {
        /**
         * Up to {@link #asked} bytes: all of them at once where the blob's end is known (every
         * chunk after the first), else grown as they come (a whole read of a small blob asks
         * for 4 MiB, and a sync reads thousands of them).
         */
        private byte[] bytes;
        private final int asked;
        private int length;
        private long waitingSince = System.nanoTime();
        private IOException failure;

        Chunk(int asked, boolean endKnown) {
            this.asked = asked;
            this.bytes = new byte[endKnown ? asked : Math.min(asked, 64 * 1024)];
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                if (len > asked - length) {
                    throw new FileSystemException(file.toString(), null, "the service sent more than the "
                            + asked + " bytes asked for from " + position);
                }
                if (len > bytes.length - length) {
                    long grown = Math.max(length + len, 2L * bytes.length);
                    bytes = Arrays.copyOf(bytes, (int) Math.min(asked, grown));
                }
                System.arraycopy(b, off, bytes, length, len);
                length += len;
                trickle.read(waitingSince, len);
                waitingSince = System.nanoTime();
            } catch (IOException e) {
                failure = e;
                throw e;
            }
        }
    }
}
