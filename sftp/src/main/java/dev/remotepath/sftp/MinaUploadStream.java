package dev.remotepath.sftp;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Optional;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.apache.sshd.sftp.client.RawSftpClient;
import org.apache.sshd.sftp.client.SftpMessage;
import org.apache.sshd.sftp.client.impl.SftpResponse;
import org.apache.sshd.sftp.client.impl.SftpStatus;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * Writes an open SFTP v3 handle with WRITE requests that are sent without waiting for their
 * answers (at most {@code inFlight} unanswered), and finishes it with the last WRITE, an
 * FSETSTAT carrying the modification time, and the CLOSE sent back to back, then collects every
 * answer: after the OPEN, a small file costs one round trip instead of three (MINA's own stream
 * waits for the WRITEs before it sends the CLOSE, and the time took a SETSTAT of its own). The
 * server handles a handle's requests in order, so the time is set after the last byte.
 */
final class MinaUploadStream extends OutputStream {

    private final RawSftpClient raw;
    private final byte[] handle;
    private final int chunkSize;
    /** Starts small and grows to chunkSize once a file is bigger: most files of a tree are small. */
    private byte[] chunk;
    private final int inFlight;
    /**
     * Bytes of WRITEs unanswered at most (the SSH window): more cannot be on the wire, only
     * queued in MINA, and 64 requests of OpenSSH's 255 KiB were 16 MiB per upload held long
     * enough to be promoted out of the young generation: the command's peak RSS grew by
     * hundreds of MB on a tree of large files.
     */
    private final long maxBytesInFlight;
    private long bytesInFlight;
    private final Optional<Instant> mtime;
    /** Unanswered requests, oldest first. */
    private final ArrayDeque<Sent> pending = new ArrayDeque<>();

    private record Sent(SftpMessage message, int command, int bytes) {
    }
    private int count;
    private long offset;
    private boolean closed;

    MinaUploadStream(RawSftpClient raw, byte[] handle, long start, int chunkSize, int inFlight, long maxBytesInFlight,
            Optional<Instant> mtime) {
        this.raw = raw;
        this.handle = handle;
        this.offset = start;
        this.chunkSize = chunkSize;
        this.chunk = new byte[Math.min(chunkSize, 32 * 1024)];
        this.inFlight = inFlight;
        this.maxBytesInFlight = maxBytesInFlight;
        this.mtime = mtime;
    }

    @Override
    public void write(int b) throws IOException {
        ensureOpen();
        if (count == chunk.length) {
            full();
        }
        chunk[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        while (len > 0) {
            if (count == chunk.length) {
                full();
            }
            int n = Math.min(len, chunk.length - count);
            System.arraycopy(b, off, chunk, count, n);
            count += n;
            off += n;
            len -= n;
        }
    }

    /** Sends what is buffered; nothing is durable before close() anyway, so no answer is awaited. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        if (count > 0) {
            sendWrite();
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        try {
            if (count > 0) {
                sendWrite();
            }
            if (mtime.isPresent()) {
                long seconds = mtime.get().getEpochSecond();
                Buffer b = handleBuffer(12);
                b.putUInt(SftpConstants.SSH_FILEXFER_ATTR_ACMODTIME);
                b.putUInt(seconds & 0xffff_ffffL); // v3 times are unsigned 32-bit seconds
                b.putUInt(seconds & 0xffff_ffffL);
                send(SftpConstants.SSH_FXP_FSETSTAT, b);
            }
        } catch (IOException e) {
            failure = e;
        }
        try {
            send(SftpConstants.SSH_FXP_CLOSE, handleBuffer(0)); // always: the handle must not leak
        } catch (IOException e) {
            failure = first(failure, e);
        }
        while (!pending.isEmpty()) {
            try {
                await(pending.poll());
            } catch (IOException e) {
                failure = first(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static IOException first(IOException failure, IOException next) {
        if (failure == null) {
            return next;
        }
        failure.addSuppressed(next);
        return failure;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
    }

    /** The chunk is full: grow it to the full request size the first time, else send it. */
    private void full() throws IOException {
        if (chunk.length < chunkSize) {
            chunk = java.util.Arrays.copyOf(chunk, chunkSize);
        } else {
            sendWrite();
        }
    }

    private void sendWrite() throws IOException {
        Buffer b = handleBuffer(8 + 4 + count);
        b.putLong(offset);
        b.putBytes(chunk, 0, count);
        send(SftpConstants.SSH_FXP_WRITE, b, count);
        offset += count;
        count = 0;
        while (pending.size() > inFlight || pending.size() > 1 && bytesInFlight > maxBytesInFlight) {
            await(pending.poll());
        }
    }

    /** Room MINA writes the packet's length, type and id into, instead of copying the request. */
    private static final int HEADER = 9;

    private Buffer handleBuffer(int more) {
        Buffer b = new ByteArrayBuffer(HEADER + 4 + handle.length + more, false);
        b.rpos(HEADER);
        b.wpos(HEADER);
        b.putBytes(handle);
        return b;
    }

    /**
     * Queues a request without waiting until it is on the wire (MINA's send() waits for the
     * socket write's completion, a thread hand-off per request); that is checked when its answer
     * is awaited, long after.
     */
    private void send(int command, Buffer b) throws IOException {
        send(command, b, 0);
    }

    private void send(int command, Buffer b, int bytes) throws IOException {
        pending.add(new Sent(raw.write(command, b), command, bytes));
        bytesInFlight += bytes;
    }

    /** The status answer to one request; an error status becomes MINA's SftpException, as its own calls throw. */
    private void await(Sent request) throws IOException {
        bytesInFlight -= request.bytes();
        request.message().waitUntilSent();
        SftpStatus status = SftpStatus.parse(SftpResponse.parse(request.command(), raw.receive(request.message().getId())));
        if (!status.isOk()) {
            throw new SftpException(status.getStatusCode(), status.getMessage());
        }
    }
}
