package dev.remotepath.ftp;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystemException;

/**
 * A {@code STOR} (or {@code APPE}) data connection. Closing it ends the upload and waits for the
 * transfer's final reply: a refusal there (a full disk's 552 or 452) fails the close, and what
 * the server kept of the file is deleted, so no half-written file is left under its name.
 */
final class FtpWriteStream extends OutputStream {

    private final FtpFileSystem fs;
    private final FtpPool pool;
    private final FtpConnection connection;
    private final OutputStream data;
    private final RemotePath file;
    private final String command;
    private boolean closed;
    /** The transfer ended with a refusal (5xx): the connection owes nothing more. */
    private boolean healthyAfterRefusal;

    FtpWriteStream(FtpFileSystem fs, FtpPool pool, FtpConnection connection, OutputStream data, RemotePath file,
            String command) {
        this.fs = fs;
        this.pool = pool;
        this.connection = connection;
        // A socket times out reads, never writes: a server that stops reading the data
        // connection would hold a write for good. Bounded below the buffer, so once per 64 KiB.
        this.data = new java.io.BufferedOutputStream(dev.remotepath.spi.WriteDeadline.bounding(data,
                fs.options().readTimeout(), data, file.toString(), "FtpOptions.readTimeout"), 64 * 1024);
        this.file = file;
        this.command = command;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
        try {
            data.write(b, off, len);
        } catch (IOException e) {
            IOException failure = e instanceof java.net.SocketTimeoutException ? e // a stalled write says so itself
                    : FtpErrors.transport(command, file, e);
            fail(failure);
            throw failure;
        }
    }

    @Override
    public void flush() throws IOException {
        if (!closed) {
            data.flush();
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        IOException failure = null;
        try {
            connection.endUpload(data);
            if (!connection.completeTransfer()) {
                failure = FtpErrors.of(command, connection.client.getReplyCode(), FtpConnection.reply(connection.client), file);
                if (connection.client.getReplyCode() / 100 == 5) {
                    healthyAfterRefusal = true;
                }
            }
        } catch (FileSystemException e) {
            failure = e;
        } catch (IOException e) {
            failure = e instanceof java.net.SocketTimeoutException ? e : FtpErrors.transport(command, file, e);
        }
        if (failure != null) {
            fail(failure);
            throw healthyAfterRefusal ? fs.uploadFailure(file, failure) : failure;
        }
        closed = true;
        pool.release(connection, true);
        fs.streamClosed();
    }

    /** The upload failed: drop the connection (a reply may still be owed) and delete what was stored. */
    private void fail(IOException failure) {
        if (closed) {
            return;
        }
        closed = true;
        try {
            data.close();
        } catch (IOException ignored) {
            // the connection is dropped anyway
        }
        pool.release(connection, false);
        fs.streamClosed();
        if (command.equals("STOR")) {
            fs.deleteLeftover(file, failure);
        }
    }
}
