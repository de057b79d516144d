package dev.remotepath.sftp;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;

/**
 * Reads an open SFTP v3 handle with READ requests pipelined the way OpenSSH's client pipelines
 * them: one request at first, and twice as many in flight after each answer that came back full,
 * up to {@code maxInFlight}. A file of a few KiB costs two READs (its data, then end of file)
 * instead of a pipeline's worth of them, each answered by the server, while a large file reaches
 * the full pipeline within a few requests. A short answer is followed by a request for the rest
 * of that range ahead of everything else in flight (a server may answer less than asked at any
 * point, not only at the end), and later requests ask no more than the server gave. Nothing is
 * requested past {@code end}. Each client's wire says how a READ is sent and its answer read.
 *
 * @param <R> a READ sent, whose answer is awaited later
 */
abstract class PipelinedDownload<R> extends InputStream {

    /** The smallest READ asked after short answers (OpenSSH's MIN_READ_SIZE). */
    private static final int MIN_REQUEST = 512;

    /** A READ's answer: {@code length} bytes of {@code data} from {@code from}. */
    record Data(byte[] data, int from, int length) {
    }

    private record Sent<R>(long offset, int length, R request) {
    }

    /** Unanswered READs, in file order, the first at {@link #position}. */
    private final ArrayDeque<Sent<R>> inFlight = new ArrayDeque<>();
    private final int maxInFlight;
    private final long end;
    private int requestSize;
    private int window = 1;
    /** The next byte to hand out, and the next to ask for. */
    private long position;
    private long next;
    private Data chunk;
    private final byte[] one = new byte[1];
    private int chunkRead;
    private boolean atEnd;
    private boolean closed;
    /** Why a read failed: the stream's place in the file is lost, so every later read fails too. */
    private IOException failure;

    /**
     * @param start       the offset of the first byte
     * @param end         the offset the stream stops at (Long.MAX_VALUE: the end of the file)
     * @param requestSize bytes per READ
     * @param maxInFlight READs in flight at most
     */
    PipelinedDownload(long start, long end, int requestSize, int maxInFlight) {
        this.position = start;
        this.next = start;
        this.end = end;
        this.requestSize = requestSize;
        this.maxInFlight = Math.max(1, maxInFlight);
    }

    /** Sends a READ of {@code length} bytes at {@code offset}. */
    abstract R sendRead(long offset, int length) throws IOException;

    /** The answer to {@code request}: its data, or null for end of file; another status is thrown. */
    abstract Data awaitData(R request) throws IOException;

    /** A READ whose answer will not be read: its answer is to be dropped when it comes. */
    abstract void abandon(R request);

    /**
     * Sends the CLOSE of the handle, and waits for its answer if {@code await}; otherwise (the
     * read failed: the server may be gone or silent) its answer is dropped when it comes.
     */
    abstract void closeHandle(boolean await) throws IOException;

    @Override
    public int read() throws IOException {
        return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException("stream closed");
        }
        if (failure != null) {
            throw new IOException(failure.getMessage(), failure);
        }
        if (len == 0) {
            return 0;
        }
        while (chunk == null || chunkRead == chunk.length()) {
            if (atEnd || position >= end) {
                return -1;
            }
            nextChunk();
        }
        int n = Math.min(len, chunk.length() - chunkRead);
        System.arraycopy(chunk.data(), chunk.from() + chunkRead, b, off, n);
        chunkRead += n;
        return n;
    }

    @Override
    public int available() {
        return chunk == null ? 0 : chunk.length() - chunkRead;
    }

    private void nextChunk() throws IOException {
        try {
            while (inFlight.size() < window && next < end) {
                int length = (int) Math.min(requestSize, end - next);
                inFlight.add(new Sent<>(next, length, sendRead(next, length)));
                next += length;
            }
            Sent<R> sent = inFlight.poll();
            Data data = awaitData(sent.request());
            if (data == null) {
                atEnd = true;
                chunk = null;
                return;
            }
            if (data.length() > sent.length()) {
                throw new IOException("the server answered a READ of " + sent.length() + " bytes at offset "
                        + sent.offset() + " with " + data.length() + " bytes");
            }
            if (data.length() == 0) {
                // v3 says end of file with a STATUS: an empty DATA would ask for the same bytes forever
                throw new IOException("the server answered a READ at offset " + sent.offset()
                        + " with no data and no end of file");
            }
            if (data.length() == sent.length()) {
                window = Math.min(window * 2, maxInFlight);
            } else {
                // The rest of this range first, then what is in flight; ask no more than given from now on.
                long rest = sent.offset() + data.length();
                int restLength = sent.length() - data.length();
                inFlight.addFirst(new Sent<>(rest, restLength, sendRead(rest, restLength)));
                requestSize = Math.max(MIN_REQUEST, Math.min(requestSize, data.length()));
            }
            position += data.length();
            chunk = data;
            chunkRead = 0;
        } catch (IOException e) {
            failure = e;
            throw e;
        } catch (RuntimeException e) {
            failure = new IOException(e.toString(), e);
            throw e;
        }
    }

    /** Drops what is still in flight (not waited for) and closes the handle. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        chunk = null;
        for (Sent<R> sent : inFlight) {
            abandon(sent.request());
        }
        inFlight.clear();
        if (failure != null) {
            try {
                closeHandle(false);
            } catch (IOException afterFailure) {
                // the read already failed with its own reason; the connection may be gone
            }
            return;
        }
        closeHandle(true);
    }
}
