package dev.remotepath.ftp;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.StatReportingStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.util.Optional;

/**
 * A {@code RETR}'s data connection. Its end is checked, not assumed: the transfer's final reply
 * must be positive and, for a read to the end, the bytes must number what the stat said, so a
 * download the server cut short fails instead of passing as a shorter file. Closed before its
 * end, the stream drops its control connection (it still owes a reply to a transfer nobody reads).
 */
final class FtpReadStream extends InputStream implements StatReportingStream {

    private final FtpFileSystem fs;
    private final FtpPool pool;
    private final FtpConnection connection;
    private final InputStream data;
    private final RemotePath file;
    private final long expected;
    private final FileStat stat;
    private long remaining;
    private long read;
    private boolean ended;
    private boolean closed;
    private boolean healthy;
    /** A data connection that trickles within each read timeout is cut off. */
    private final dev.remotepath.spi.TrickleGuard trickle;

    FtpReadStream(FtpFileSystem fs, FtpPool pool, FtpConnection connection, InputStream data, RemotePath file,
            FileStat stat, long length, long expected) {
        this.stat = stat;
        this.fs = fs;
        this.pool = pool;
        this.connection = connection;
        this.data = data;
        this.file = file;
        this.remaining = length;
        this.expected = expected;
        this.trickle = new dev.remotepath.spi.TrickleGuard(file.toString(), fs.options().readTimeout());
    }

    /** A read at or beyond the end: nothing to transfer. */
    static InputStream empty(FtpFileSystem fs) {
        return new InputStream() {
            private boolean closed;

            @Override
            public int read() {
                return -1;
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    fs.streamClosed();
                }
            }
        };
    }

    /**
     * The MLST (or SIZE and MDTM) answer the read began with: a file listed by {@code LIST}, to
     * the minute, is copied with its time to the second.
     */
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
            throw new IOException("stream closed");
        }
        if (ended || remaining == 0) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int n;
        long started = System.nanoTime();
        try {
            n = data.read(b, off, (int) Math.min(len, remaining));
        } catch (IOException e) {
            throw FtpErrors.transport("RETR", file, e);
        }
        if (n < 0) {
            end();
            return -1;
        }
        read += n;
        if (remaining != Long.MAX_VALUE) {
            remaining -= n;
        }
        trickle.read(started, n); // close() then drops the control connection, which still owes a reply
        return n;
    }

    /** The data connection ended: the transfer's reply and the count say whether all of it came. */
    private void end() throws IOException {
        ended = true;
        try {
            data.close();
            if (!connection.completeTransfer()) {
                healthy = connection.client.isConnected();
                throw FtpErrors.of("RETR", connection.client.getReplyCode(), FtpConnection.reply(connection.client), file);
            }
        } catch (FileSystemException e) {
            throw e;
        } catch (IOException e) {
            throw FtpErrors.transport("RETR", file, e);
        }
        healthy = true;
        if (expected >= 0 && remaining == Long.MAX_VALUE && read < expected) {
            throw new FileSystemException(file.toString(), null, "the download ended after " + read + " of "
                    + expected + " bytes: the file shrank while it was read, or the server cut it short");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!ended) {
            try {
                data.close();
            } catch (IOException ignored) {
                // the connection is dropped below
            }
        }
        pool.release(connection, ended && healthy);
        fs.streamClosed();
    }
}
