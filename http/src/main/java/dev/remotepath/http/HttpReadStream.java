package dev.remotepath.http;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ContentRange;
import dev.remotepath.spi.StatReportingStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.FileSystemException;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;

/**
 * A body stream that, when the connection breaks, asks for the rest with
 * {@code Range} + {@code If-Range} on the first response's validator: a server that answers
 * with the whole (changed) file instead makes the read fail rather than mix two versions. A body
 * that ends before, or runs past, the length its response declared fails the read, and one that
 * trickles below {@link HttpOptions#minimumBodyRate} is cut off. A read of a window asks a bounded
 * range ({@code bytes=offset-last}), resumes included, and stops at its end whatever the server
 * sends.
 */
final class HttpReadStream extends InputStream implements StatReportingStream {

    private static final int MAX_RESUMES = 3;

    private final HttpFileSystem fs;
    private final RemotePath file;
    /** The file as the first response described it (a copy takes its mtime from here, no HEAD). */
    private FileStat reported;
    private final URI uri;
    private long position;
    /** Where the read stops (exclusive; Long.MAX_VALUE: the end of the file). */
    private final long end;
    private String validator;
    private HttpFileSystem.Exchange exchange;
    private InputStream in;
    private int resumes;
    private boolean eof;
    /** Where the current response says its body ends (-1: it did not say). */
    private long declaredEnd = -1;
    /** The slow-body check: minimumBodyRate over each idleTimeout spent waiting for the body. */
    private final dev.remotepath.spi.TrickleGuard trickle;
    private boolean refused;

    HttpReadStream(HttpFileSystem fs, RemotePath file, long offset, long length) throws IOException {
        this.fs = fs;
        this.file = file;
        this.uri = fs.uriOf(file, false);
        this.trickle = new dev.remotepath.spi.TrickleGuard("GET " + uri, fs.options().minimumBodyRate(),
                fs.options().idleTimeout(), "HttpOptions.minimumBodyRate");
        this.position = offset;
        this.end = length > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + length;
        if (position >= end) {
            eof = true; // an empty window asks nothing
            return;
        }
        open(false);
    }

    private void open(boolean resuming) throws IOException {
        HttpFields.Mutable h = HttpFields.build();
        boolean ranged = position > 0 || end != Long.MAX_VALUE;
        if (ranged) {
            h.put(HttpHeader.RANGE, "bytes=" + position + "-" + (end == Long.MAX_VALUE ? "" : String.valueOf(end - 1)));
            if (resuming && validator != null) {
                h.put(HttpHeader.IF_RANGE, validator);
            }
        }
        HttpFileSystem.Exchange ex = fs.sendFollowing(HttpMethod.GET, uri, h, true);
        if (HttpFileSystem.isSlashRedirect(uri, ex.uri())) {
            ex.close();
            throw new dev.remotepath.IsDirectoryException(file.toString());
        }
        int status = ex.status();
        if (status == 416) {
            ex.close();
            eof = true;
            return;
        }
        if (status != 200 && status != 206) {
            ex.close();
            throw HttpErrors.status("GET", uri, status, file);
        }
        if (resuming && ranged && status == 200) {
            ex.close();
            throw new FileSystemException(file.toString(), null,
                    "the file changed while it was being read (the server sent a new version instead of the rest)");
        }
        String etag = ex.headers().get(HttpHeader.ETAG);
        String modified = ex.headers().get(HttpHeader.LAST_MODIFIED);
        if (validator == null) {
            validator = etag != null && !etag.startsWith("W/") ? etag : modified;
        }
        Optional<ContentRange> range = status == 206 ? ContentRange.parse(ex.headers().get(HttpHeader.CONTENT_RANGE))
                : Optional.empty();
        if (status == 206 && ranged && range.map(ContentRange::first).orElse(-1L) != position) {
            ex.close();
            // Bytes from elsewhere in the file would be taken for the ones asked: refuse them.
            throw new FileSystemException(file.toString(), null, "asked for bytes from " + position
                    + " but the server answered a range from "
                    + range.map(r -> String.valueOf(r.first())).orElse("nowhere it said") + "; not read");
        }
        if (reported == null) {
            long size = status == 206 ? range.map(ContentRange::total).orElse(-1L)
                    : ex.headers().getLongField(HttpHeader.CONTENT_LENGTH);
            reported = HttpHeaderStats.fileStat(ex.headers(), size);
        }
        // Where the body ends: the range's last byte + 1, or Content-Length for a 200 (-1: unsaid).
        declaredEnd = status == 206 ? range.map(ContentRange::end).orElse(-1L)
                : ex.headers().getLongField(HttpHeader.CONTENT_LENGTH);
        InputStream body = ex.body().getInputStream();
        if (status == 200 && position > 0) {
            body.skipNBytes(position); // the server ignored Range: skip to the offset
        }
        this.exchange = ex;
        this.in = body;
    }

    @Override
    public java.util.Optional<FileStat> reportedStat() {
        return java.util.Optional.ofNullable(reported);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (eof) {
            return -1;
        }
        if (position >= end) {
            eof = true; // the window's end: what the server sends past it is not read
            return -1;
        }
        len = (int) Math.min(len, end - position);
        while (true) {
            try {
                long started = System.nanoTime();
                int n = in.read(b, off, len);
                if (n < 0) {
                    if (declaredEnd >= 0 && position != declaredEnd) {
                        // Never a silently short (or long) copy: the response said how long it is.
                        throw new FileSystemException(file.toString(), null, "the server declared "
                                + declaredEnd + " bytes but sent " + position + "; not copied");
                    }
                    eof = true;
                    return -1;
                }
                position += n;
                if (declaredEnd >= 0 && position > declaredEnd) {
                    throw new FileSystemException(file.toString(), null, "the server sent more than the "
                            + declaredEnd + " bytes it declared; not copied");
                }
                checkRate(started, n);
                return n;
            } catch (IOException e) {
                if (e instanceof FileSystemException || refused) {
                    throw e; // the body was wrong or too slow: resuming would not mend it
                }
                if (!fs.isOpen() || resumes >= MAX_RESUMES || validator == null) {
                    throw new IOException("GET " + uri + ": reading failed at byte " + position + ": " + e.getMessage(), e);
                }
                resumes++;
                closeQuietly();
                open(true);
                if (eof) {
                    return -1;
                }
            }
        }
    }

    /** Cuts off a body that trickles: fewer than minimumBodyRate bytes a second while waited for. */
    private void checkRate(long started, int n) throws IOException {
        try {
            trickle.read(started, n);
        } catch (java.net.SocketTimeoutException slow) {
            refused = true;
            closeQuietly();
            throw slow;
        }
    }

    private void closeQuietly() {
        try {
            if (exchange != null) {
                exchange.close();
            }
        } catch (IOException ignored) {
            // the connection is already broken
        }
    }

    @Override
    public void close() throws IOException {
        eof = true;
        if (exchange != null) {
            exchange.close();
        }
    }
}
