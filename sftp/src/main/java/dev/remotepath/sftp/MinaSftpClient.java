package dev.remotepath.sftp;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.channel.AbstractChannel;
import org.apache.sshd.common.channel.ChannelOutputStream;
import org.apache.sshd.common.channel.IoWriteFutureImpl;
import org.apache.sshd.common.io.IoWriteFuture;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.apache.sshd.sftp.client.SftpErrorDataHandler;
import org.apache.sshd.sftp.client.SftpMessage;
import org.apache.sshd.sftp.client.SftpVersionSelector;
import org.apache.sshd.sftp.client.impl.DefaultSftpClient;
import org.apache.sshd.sftp.client.impl.SftpStatus;
import org.apache.sshd.sftp.client.impl.SftpResponse;
import org.apache.sshd.sftp.common.SftpException;
import org.apache.sshd.sftp.common.SftpConstants;

/**
 * MINA's SFTP client with requests that do not wait for the socket. MINA's own
 * {@code write} holds a lock until the previous request's packet has left the socket, and its
 * {@code send} waits for its own: the completion of each socket write arrives on a thread of
 * MINA's pool, so every request cost a round trip between the caller's thread and that pool
 * before it could even be answered (a first sync of 1,000 small files: 76,000 futex calls, against
 * 17,000 with sshj). Here requests go through a blocking channel stream that waits only for the
 * server's channel window, as any SSH channel write must, and returns once the packet is handed
 * to the session; answers are matched to requests on MINA's reading thread, as before.
 *
 * <p>A channel that closes fails every awaited request at once (and any made later) instead of
 * leaving them to the read timeout; an answer to a request not awaited fails the connection, as
 * MINA's own client does. The version exchange is MINA's own, unchanged.
 */
final class MinaSftpClient extends DefaultSftpClient {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MinaSftpClient.class);

    /** Room before a request's payload that the packet's length, type and id are written into. */
    static final int HEADER = 9;

    /** What a request's {@code waitUntilSent} finds: done, as the packet is with the session. */
    private static final IoWriteFuture HANDED_OVER = handedOver();

    /** Stands for a request whose answer is to be dropped when it comes ({@link #forget}). */
    private static final CompletableFuture<Buffer> DROPPED = new CompletableFuture<>();

    private final Map<Integer, CompletableFuture<Buffer>> awaited = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final ReentrantLock writing = new ReentrantLock();
    private final ChannelOutputStream requests;
    private final Duration answerTimeout;
    private volatile IOException broken;

    MinaSftpClient(ClientSession session, SftpVersionSelector version, Duration answerTimeout) throws IOException {
        super(session, version, SftpErrorDataHandler.EMPTY);
        this.answerTimeout = answerTimeout;
        AbstractChannel channel = (AbstractChannel) getClientChannel();
        // Waits for the server's window no longer than for an answer: a server that never opens
        // it fails the request as one that never answers does.
        this.requests = new ChannelOutputStream(channel, channel.getRemoteWindow(), answerTimeout,
                LOG, SshConstants.SSH_MSG_CHANNEL_DATA, false);
        channel.addCloseFutureListener(closed -> failAll(new IOException("the SFTP channel closed")));
        negotiateVersion(version);
    }

    /** MKDIR as MINA's own {@code mkdir} sends it, with {@code permissions} in its attributes where asked. */
    void mkdir(String path, int permissions) throws IOException {
        if (permissions == SftpWire.NO_PERMISSIONS) {
            mkdir(path);
            return;
        }
        Buffer request = putReferencedName(SftpConstants.SSH_FXP_MKDIR, new ByteArrayBuffer(path.length() + 64, false),
                path, 1);
        Attributes attributes = new Attributes();
        attributes.setPermissions(permissions & 0777);
        request = writeAttributes(SftpConstants.SSH_FXP_MKDIR, request, attributes);
        checkCommandStatus(SftpConstants.SSH_FXP_MKDIR, request);
    }

    /**
     * OPEN as MINA's own {@code open} sends it (SFTP v3 flags), with {@code permissions} in its
     * attributes where asked ({@link SftpWire#NO_PERMISSIONS}: none): MINA's sends empty ones,
     * so a file it creates takes the server's default, whatever its source's.
     */
    CloseableHandle open(String path, java.util.Collection<OpenMode> modes, int permissions) throws IOException {
        if (permissions == SftpWire.NO_PERMISSIONS) {
            return open(path, modes);
        }
        int flags = 0;
        for (OpenMode m : modes) {
            flags |= switch (m) {
                case Read -> SftpConstants.SSH_FXF_READ;
                case Write -> SftpConstants.SSH_FXF_WRITE;
                case Append -> SftpConstants.SSH_FXF_WRITE | SftpConstants.SSH_FXF_APPEND;
                case Create -> SftpConstants.SSH_FXF_CREAT;
                case Truncate -> SftpConstants.SSH_FXF_TRUNC;
                case Exclusive -> SftpConstants.SSH_FXF_EXCL;
            };
        }
        Buffer request = putReferencedName(SftpConstants.SSH_FXP_OPEN, new ByteArrayBuffer(path.length() + 64, false),
                path, 1);
        request.putInt(flags);
        Attributes attributes = new Attributes();
        attributes.setPermissions(permissions & 0777);
        request = writeAttributes(SftpConstants.SSH_FXP_OPEN, request, attributes);
        return new org.apache.sshd.sftp.client.impl.DefaultCloseableHandle(this, path,
                checkHandle(SftpConstants.SSH_FXP_OPEN, request));
    }

    /**
     * A request's payload starting with {@code handle}, with room for {@code more} bytes after
     * it and for the packet's header before it ({@link #write} fills that in, copying nothing).
     */
    static Buffer handleRequest(byte[] handle, int more) {
        Buffer b = new ByteArrayBuffer(HEADER + 4 + handle.length + more, false);
        b.rpos(HEADER);
        b.wpos(HEADER);
        b.putBytes(handle);
        return b;
    }

    @Override
    public SftpMessage write(int type, Buffer payload) throws IOException {
        int id = ids.incrementAndGet();
        CompletableFuture<Buffer> answer = new CompletableFuture<>();
        awaited.put(id, answer);
        IOException failed = broken;
        if (failed != null) {
            awaited.remove(id);
            throw new IOException(failed.getMessage(), failed);
        }
        int length = payload.available();
        byte[] packet;
        int from;
        if (payload.rpos() >= HEADER) { // room left by the caller: no copy of the payload
            packet = payload.array();
            from = payload.rpos() - HEADER;
        } else {
            packet = new byte[HEADER + length];
            from = 0;
            System.arraycopy(payload.array(), payload.rpos(), packet, HEADER, length);
        }
        putInt(packet, from, length + 5);
        packet[from + 4] = (byte) type;
        putInt(packet, from + 5, id);
        writing.lock();
        try {
            requests.write(packet, from, HEADER + length);
            requests.flush();
        } catch (IOException | RuntimeException e) {
            awaited.remove(id);
            throw e;
        } finally {
            writing.unlock();
        }
        return new SftpMessage(id, HANDED_OVER, answerTimeout);
    }

    /**
     * Sends the CLOSE of {@code handle}: its answer awaited and checked if {@code await},
     * otherwise dropped when it comes (the caller is failing: the server may be gone or silent).
     */
    void closeHandle(byte[] handle, boolean await) throws IOException {
        int id = write(SftpConstants.SSH_FXP_CLOSE, handleRequest(handle, 0)).getId();
        if (!await) {
            forget(id);
            return;
        }
        SftpStatus status = SftpStatus.parse(SftpResponse.parse(SftpConstants.SSH_FXP_CLOSE, receive(id)));
        if (!status.isOk()) {
            throw new SftpException(status.getStatusCode(), status.getMessage());
        }
    }

    /** After {@code failure} with {@code handle} open: its CLOSE sent, not awaited; one not even sent is added to the failure. */
    void closeAfter(byte[] handle, Exception failure) {
        try {
            closeHandle(handle, false);
        } catch (IOException notSent) {
            failure.addSuppressed(notSent);
        }
    }

    private static IoWriteFuture handedOver() {
        IoWriteFutureImpl done = new IoWriteFutureImpl("handed over", new ByteArrayBuffer(0));
        done.setValue(Boolean.TRUE);
        return done;
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    /**
     * Channel data as it arrives: what MINA refuses in it (a packet announced over its 256 KiB
     * limit, say) fails the awaited requests with that reason before the session closes.
     */
    @Override
    protected int data(byte[] buf, int start, int len) throws IOException {
        try {
            return super.data(buf, start, len);
        } catch (IOException e) {
            if (awaited != null) {
                failAll(e);
            }
            throw e;
        }
    }

    /** One whole SFTP packet, on MINA's reading thread; the buffer is reused after this returns. */
    @Override
    protected void process(Buffer incoming) throws IOException {
        if (awaited == null) { // still in MINA's constructor: the version exchange
            super.process(incoming);
            return;
        }
        int start = incoming.rpos();
        incoming.getInt(); // the length, checked by MINA before this is called
        int type = incoming.getUByte();
        int id = incoming.getInt();
        incoming.rpos(start);
        CompletableFuture<Buffer> answer = awaited.get(id);
        if (answer == DROPPED) {
            awaited.remove(id, DROPPED);
            return;
        }
        if (answer == null || answer.isDone()) {
            // fails the awaited requests (data), and MINA closes the session on it
            throw new IOException("SFTP answer (type " + type + ") to request " + id
                    + ", which was not made or was answered already");
        }
        Buffer copy = new ByteArrayBuffer(incoming.available(), false);
        copy.putBuffer(incoming);
        answer.complete(copy);
    }

    @Override
    public Buffer receive(int id, Duration timeout) throws IOException {
        CompletableFuture<Buffer> answer = awaited.get(id);
        if (answer == null) {
            throw new IllegalStateException("no SFTP request " + id + " awaits an answer");
        }
        try {
            return timeout == null || timeout.isZero() || timeout.isNegative() ? answer.get()
                    : answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new IOException("no answer to SFTP request " + id + " in " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException i = new InterruptedIOException("interrupted waiting for the answer to SFTP request " + id);
            i.initCause(e);
            throw i;
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } finally {
            awaited.remove(id);
        }
    }

    /**
     * The answer to request {@code id} will not be received: dropped when it comes (an answer
     * to a request no longer known would fail the connection), or now if it came already.
     */
    void forget(int id) {
        awaited.computeIfPresent(id, (k, answer) -> answer.isDone() ? null : DROPPED);
    }

    private void failAll(IOException why) {
        if (broken == null) {
            broken = why;
        }
        awaited.forEach((id, answer) -> {
            if (answer == DROPPED) {
                awaited.remove(id, DROPPED);
            } else {
                answer.completeExceptionally(why);
            }
        });
    }
}
