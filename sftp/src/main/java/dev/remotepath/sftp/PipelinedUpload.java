package dev.remotepath.sftp;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Optional;

/**
 * Writes an open SFTP v3 handle with WRITE requests sent without waiting for their answers (at
 * most {@code inFlight} unanswered, and at most {@code maxBytesInFlight} bytes of them), and
 * finishes it with the last WRITE, an FSETSTAT carrying the modification time, and the CLOSE
 * sent back to back, then collects every answer: after the OPEN, a small file costs one round
 * trip instead of three. The server handles a handle's requests in order, so the time is set
 * after the last byte, and a failed WRITE is reported by close() (the CLOSE is always sent, so
 * the handle never leaks). Each client's wire says how a request is sent and its answer read.
 *
 * @param <R> a request sent, whose answer is awaited later
 */
abstract class PipelinedUpload<R> extends OutputStream {

    private final int chunkSize;
    /** Starts small and grows to chunkSize once a file is bigger: most files of a tree are small. */
    private byte[] chunk;
    private final int inFlight;
    /**
     * Bytes of WRITEs unanswered at most (the SSH window): more cannot be on the wire, only
     * queued in the client, and 64 requests of OpenSSH's 255 KiB were 16 MiB per upload held
     * long enough to be promoted out of the young generation: the command's peak RSS grew by
     * hundreds of MB on a tree of large files.
     */
    private final long maxBytesInFlight;
    private long bytesInFlight;
    private final Optional<Instant> mtime;
    /** Unanswered requests, oldest first. */
    private final ArrayDeque<Sent<R>> pending = new ArrayDeque<>();

    private record Sent<R>(R request, int bytes) {
    }

    private int count;
    private long offset;
    private boolean closed;
    /**
     * A request went unanswered for the read timeout: the server stopped reading or answering.
     * The answers still owed are not awaited one timeout after another (64 WRITEs in flight
     * would hold close() for 64 timeouts), only dropped.
     */
    private boolean stalled;

    PipelinedUpload(long start, int chunkSize, int inFlight, long maxBytesInFlight, Optional<Instant> mtime) {
        this.offset = start;
        this.chunkSize = chunkSize;
        this.chunk = new byte[Math.min(chunkSize, 32 * 1024)];
        this.inFlight = inFlight;
        this.maxBytesInFlight = maxBytesInFlight;
        this.mtime = mtime;
    }

    /** Sends a WRITE of {@code length} bytes of {@code data} (copied before this returns) at {@code offset}. */
    abstract R sendWrite(long offset, byte[] data, int length) throws IOException;

    /** Sends an FSETSTAT of both v3 times (unsigned 32-bit seconds). */
    abstract R sendSetTimes(long seconds) throws IOException;

    /** Sends the CLOSE of the handle. */
    abstract R sendClose() throws IOException;

    /** Waits for the answer to {@code request}; a status other than OK is thrown as the client's exception. */
    abstract void awaitOk(R request) throws IOException;

    /** A request whose answer will not be awaited: its answer is to be dropped when it comes. */
    abstract void abandon(R request);

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
            writeChunk();
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
            if (!stalled && count > 0) {
                writeChunk();
            }
            if (!stalled && mtime.isPresent()) {
                pending.add(new Sent<>(sendSetTimes(mtime.get().getEpochSecond() & SftpWire.MAX_V3_SECONDS), 0));
            }
        } catch (IOException e) {
            failure = e;
        }
        try {
            pending.add(new Sent<>(sendClose(), 0)); // always: the handle must not leak
        } catch (IOException e) {
            failure = first(failure, e);
        }
        if (stalled && failure == null) {
            failure = new java.net.SocketTimeoutException("the upload stalled: a request went unanswered");
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
            writeChunk();
        }
    }

    private void writeChunk() throws IOException {
        pending.add(new Sent<>(sendWrite(offset, chunk, count), count));
        bytesInFlight += count;
        offset += count;
        count = 0;
        while (pending.size() > inFlight || pending.size() > 1 && bytesInFlight > maxBytesInFlight) {
            await(pending.poll());
        }
    }

    private void await(Sent<R> sent) throws IOException {
        bytesInFlight -= sent.bytes();
        if (stalled) {
            abandon(sent.request());
            return;
        }
        try {
            awaitOk(sent.request());
        } catch (java.net.SocketTimeoutException e) {
            stalled = true;
            throw e;
        }
    }
}
