package dev.remotepath.s3;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ContentRange;
import dev.remotepath.spi.StatReportingStream;
import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * An object's content from a streaming GET. When the connection breaks mid-body, it resumes
 * with a ranged GET from the byte reached, guarded by {@code If-Match} on the first response's
 * ETag, so that the bytes read can never mix two versions of the object (a changed object
 * fails the read with a clear error). Closing it early aborts the connection instead of
 * draining the rest of the body.
 */
final class S3ReadStream extends InputStream implements StatReportingStream {

    private static final int RESUMES = 3;

    private final S3FileSystem fs;
    private final RemotePath file;
    private final String key;
    private final String etag;
    private final FileStat stat;
    private ResponseInputStream<GetObjectResponse> in;
    private long position;
    private int resumes;
    private boolean eof;
    private boolean closed;
    /** A body that trickles within each read's timeout is cut off, not resumed: a resume would trickle too. */
    private final dev.remotepath.spi.TrickleGuard trickle;

    /** The range's last byte, -1 for the end: a resumed read asks no further than the first did. */
    private final long last;

    S3ReadStream(S3FileSystem fs, RemotePath file, String key, long offset, long last,
            ResponseInputStream<GetObjectResponse> in) throws IOException {
        checkStart(in, file, offset, last);
        fs.streams.streamOpened();
        this.fs = fs;
        this.last = last;
        this.file = file;
        this.key = key;
        this.in = in;
        this.position = offset;
        this.etag = in.response().eTag(); // sent back verbatim (quoted) in If-Match
        this.stat = describe(fs, in.response(), offset);
        this.trickle = new dev.remotepath.spi.TrickleGuard(file.toString(), fs.options().requestTimeout());
    }

    /**
     * A ranged GET's answer must start at the byte asked for: a store that ignored the Range (the
     * whole object) or answered another one would have those bytes taken for the ones asked.
     */
    private static void checkStart(ResponseInputStream<GetObjectResponse> in, RemotePath file, long offset, long last)
            throws IOException {
        if (offset == 0 && last < 0) {
            return; // no Range was asked
        }
        String range = in.response().contentRange();
        if (range == null && offset == 0) {
            return; // the whole object from byte 0: the window's reads stop at its last byte
        }
        if (ContentRange.parse(range).map(ContentRange::first).orElse(-1L) != offset) {
            in.abort();
            throw new java.nio.file.FileSystemException(file.toString(), null, "asked for bytes from " + offset
                    + " but the store answered " + (range == null ? "without a Content-Range (the whole object?)"
                            : "'" + range + "'") + "; not read");
        }
    }

    private static FileStat describe(S3FileSystem fs, GetObjectResponse r, long offset) {
        Long size = null;
        long total = ContentRange.parse(r.contentRange()).map(ContentRange::total).orElse(-1L); // "bytes 10-99/100"
        if (total >= 0) {
            size = total;
        } else if (offset == 0 && r.contentRange() == null) {
            size = r.contentLength();
        }
        return fs.stats.objectStat(size, r.metadata(), r.lastModified(), r.eTag(), r.serverSideEncryption());
    }

    @Override
    public java.util.Optional<FileStat> reportedStat() {
        return java.util.Optional.of(stat);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException(file + ": stream closed");
        }
        if (len == 0) {
            return 0;
        }
        if (last >= 0 && position > last) {
            eof = true; // the window is read: a failure now would otherwise resume past it
            return -1;
        }
        if (last >= 0) {
            len = (int) Math.min(len, last - position + 1); // never past the window, whatever is sent
        }
        while (true) {
            long started = System.nanoTime();
            int n;
            try {
                n = in.read(b, off, len);
            } catch (IOException | SdkException e) {
                resume(e);
                continue;
            }
            if (n < 0) {
                eof = true;
            } else {
                position += n;
            }
            trickle.read(started, n);
            return n;
        }
    }

    private void resume(Exception cause) throws IOException {
        fs.requireOpen();
        if (etag == null || ++resumes > RESUMES) {
            throw cause instanceof IOException io ? new IOException(file + ": reading failed: " + io.getMessage(), io)
                    : fs.translate((SdkException) cause, file);
        }
        in.abort();
        try {
            in = fs.get(key, position, last, etag);
            checkStart(in, file, position, last);
        } catch (SdkException e) {
            IOException t = fs.translate(e, file);
            t.addSuppressed(cause);
            throw t;
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!eof) {
                in.abort(); // do not download the rest just to reuse the connection
            }
            in.close();
        } finally {
            fs.streams.streamEnded();
        }
    }
}
