package dev.remotepath.webdav;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ContentRange;
import dev.remotepath.spi.StatReportingStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.FileSystemException;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * A ranged GET of a file whose stat was just read: it asks for {@code bytes=offset-last} and,
 * when the connection breaks, for the rest with {@code If-Range} on the stat's ETag (or its
 * Last-Modified), so a file replaced meanwhile makes the read fail rather than mix two versions.
 * It stops at the length the stat gave: a body that ends before it fails, and one that runs past
 * it is cut there.
 */
final class WebDavReadStream extends InputStream implements StatReportingStream {

    private static final int MAX_RESUMES = 3;

    private final WebDavFileSystem fs;
    private final WebDavWire wire;
    private final RemotePath file;
    private final FileStat stat;
    private final URI uri;
    private final String validator;
    private long position;
    /** Where the read stops, exclusive. */
    private final long end;
    private WebDavWire.Exchange exchange;
    private InputStream in;
    private int resumes;
    private boolean closed;
    /** A body that trickles within each idle timeout is cut off, not resumed: a resume would trickle too. */
    private final dev.remotepath.spi.TrickleGuard trickle;

    WebDavReadStream(WebDavFileSystem fs, WebDavWire wire, RemotePath file, FileStat stat, URI uri, long offset,
            long length) throws IOException {
        this.fs = fs;
        this.wire = wire;
        this.file = file;
        this.stat = stat;
        this.uri = uri;
        this.trickle = new dev.remotepath.spi.TrickleGuard("GET " + uri, fs.options().idleTimeout());
        // If-Range takes a strong ETag or a date; a weak ETag would never match
        this.validator = stat.etag().filter(e -> !e.startsWith("W/"))
                .or(() -> stat.storedAt().map(t -> java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME
                        .format(t.atOffset(java.time.ZoneOffset.UTC))))
                .orElse(null);
        long size = stat.size().orElse(Long.MAX_VALUE);
        this.position = Math.min(offset, size);
        this.end = length > size - position ? size : position + length;
        fs.streamOpened();
        if (position < end) {
            try {
                open(false);
            } catch (IOException | RuntimeException e) {
                closed = true;
                fs.streamClosed();
                throw e;
            }
        }
    }

    private void open(boolean resuming) throws IOException {
        HttpFields.Mutable h = HttpFields.build();
        if (position > 0 || end < stat.size().orElse(Long.MAX_VALUE)) {
            h.put(HttpHeader.RANGE, "bytes=" + position + "-" + (end - 1));
        }
        if (resuming && validator != null) {
            h.put(HttpHeader.IF_RANGE, validator);
        }
        WebDavWire.Exchange ex = wire.send("GET", uri, h, null, null);
        int status = ex.status();
        try {
            if (status == 206) {
                Optional<ContentRange> range = ContentRange.parse(ex.headers().get(HttpHeader.CONTENT_RANGE));
                if (range.isEmpty() || range.get().first() != position) {
                    throw new FileSystemException(file.toString(), null, "the server answered a range that was not "
                            + "asked for (" + ex.headers().get(HttpHeader.CONTENT_RANGE) + ")");
                }
            } else if (status == 200) {
                if (resuming) {
                    throw new FileSystemException(file.toString(), null, "the file changed while it was read "
                            + "(the server sent it whole again instead of the rest)");
                }
                if (position > 0) { // a server that ignores Range: skip to the offset
                    ex.body().getInputStream().skipNBytes(position);
                }
            } else {
                throw fs.readFailure(file, uri, status);
            }
        } catch (IOException | RuntimeException e) {
            ex.close();
            throw e;
        }
        exchange = ex;
        in = ex.body().getInputStream();
    }

    @Override
    public Optional<FileStat> reportedStat() {
        return Optional.of(stat);
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
            throw new IOException(file + ": the read stream is closed");
        }
        if (len == 0) {
            return 0;
        }
        while (true) {
            if (position >= end) {
                return -1;
            }
            int n;
            long started = System.nanoTime();
            try {
                n = in.read(b, off, (int) Math.min(len, end - position));
            } catch (IOException e) {
                resume(e);
                continue;
            }
            if (n < 0) {
                if (end == Long.MAX_VALUE) {
                    return -1; // no size known: the body's end is the file's
                }
                resume(new EOFException(file + ": the body ended at byte " + position + " of " + end));
                continue;
            }
            position += n;
            try {
                trickle.read(started, n);
            } catch (java.net.SocketTimeoutException slow) {
                exchange.close();
                throw slow;
            }
            return n;
        }
    }

    private void resume(IOException cause) throws IOException {
        exchange.close();
        if (resumes++ >= MAX_RESUMES || cause instanceof java.net.SocketTimeoutException) {
            throw cause instanceof EOFException || cause instanceof FileSystemException ? cause
                    : WebDavWire.transportFailure("GET", uri, cause);
        }
        open(true);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (exchange != null) {
                exchange.close();
            }
        } finally {
            fs.streamClosed();
        }
    }
}
