package dev.remotepath.sftp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.schmizz.concurrent.Promise;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.DisconnectReason;
import net.schmizz.sshj.common.Message;
import net.schmizz.sshj.common.SSHException;
import net.schmizz.sshj.common.SSHPacket;
import net.schmizz.sshj.connection.ConnectionException;
import net.schmizz.sshj.connection.channel.ChannelInputStream;
import net.schmizz.sshj.connection.channel.direct.Session;
import net.schmizz.sshj.connection.channel.direct.SessionChannel;
import net.schmizz.sshj.connection.channel.direct.SessionFactory;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPException;
import net.schmizz.sshj.sftp.SFTPPacket;

/**
 * sshj's session channel for the SFTP subsystem, whose answers are parsed and handed to the
 * requests awaiting them on sshj's transport thread, as each channel packet is received.
 *
 * <p>sshj itself copies a channel's data into a stream that a thread of its own (its
 * {@code PacketReader}) reads, parses and delivers, so every answer woke two threads in turn:
 * the transport's reader, then the packet reader, then the request's. On two cores shared with
 * the server, a first sync of 10,000 small files spent a third of its time switching threads
 * (docs/benchmarks.md, "sshj's answers read where they arrive"). Here the transport's reader
 * delivers each answer itself. The version exchange still goes through sshj's stream (its
 * {@code init} reads it there); {@link #answerInline} switches over once it is done, before
 * any other request is sent. sshj's packet reader then waits on an empty stream until the
 * channel closes.
 *
 * <p>What sshj's reader did on a bad answer holds here too, and more promptly: an SFTP packet
 * longer than {@link #MAX_ANSWER}, or an answer to no request awaited, fails every awaited request and
 * every later one with that error (sshj left later ones to time out). The channel closing, its
 * end of data, or the connection failing fails what is awaited as well. The local window is
 * consumed and re-opened here as sshj's stream does when read.
 */
final class SshjSftpChannel extends SessionChannel {

    /**
     * The longest SFTP packet taken from a server: 64 times the largest READ this library asks
     * for (255 KiB), and far above a listing's page. OpenSSH's own client takes 256 KiB; sshj
     * took up to a gigabyte, which a hostile server could make it allocate.
     */
    static final int MAX_ANSWER = 16 << 20;

    /** Requests sent and not answered yet, by id. */
    private final Map<Long, Promise<Response, SFTPException>> awaited = new ConcurrentHashMap<>();
    private volatile boolean inline;
    /** Set once: why no answer can come any more; every awaited and later request fails with it. */
    private volatile IOException broken;
    private int version;

    // The SFTP packet being assembled: written by the transport's reader thread only.
    private final byte[] lengthBytes = new byte[4];
    private int lengthRead;
    private SFTPPacket<Response> packet;
    private int missing;

    private SshjSftpChannel(SSHClient ssh) {
        super(ssh.getConnection(), ssh.getRemoteCharset());
    }

    /** Opens session channels of this kind over {@code ssh}, remembering the last one opened. */
    static final class Opener implements SessionFactory {
        private final SSHClient ssh;
        private SshjSftpChannel opened;

        Opener(SSHClient ssh) {
            this.ssh = ssh;
        }

        @Override
        public Session startSession() throws SSHException {
            SshjSftpChannel channel = new SshjSftpChannel(ssh);
            channel.open();
            opened = channel;
            return channel;
        }

        @Override
        public InetSocketAddress getRemoteSocketAddress() {
            return ssh.getRemoteSocketAddress();
        }

        SshjSftpChannel opened() {
            if (opened == null) {
                throw new IllegalStateException("no session channel opened");
            }
            return opened;
        }
    }

    /**
     * From now on, answers are parsed as they arrive, for protocol {@code version}. Called once
     * the version exchange has been read, before any request is sent.
     */
    void answerInline(int version) {
        this.version = version;
        this.inline = true;
    }

    /** Whether answers can still come: false once one broke the framing or the channel ended. */
    boolean answering() {
        return broken == null;
    }

    /**
     * A promise of the answer to request {@code id}, to be sent next. Fails at once if no answer
     * can come any more.
     */
    Promise<Response, SFTPException> await(long id) throws IOException {
        IOException why = broken;
        if (why == null) {
            Promise<Response, SFTPException> promise = new Promise<>("sftp / " + id, SFTPException.chainer, getLoggerFactory());
            awaited.put(id, promise);
            why = broken; // failed meanwhile: the sweep may have missed this one
            if (why == null) {
                return promise;
            }
            awaited.remove(id);
        }
        throw new SFTPException("no SFTP answer can come any more: " + why.getMessage(), why);
    }

    /** The request was not sent after all: its answer is not awaited. */
    void forget(long id) {
        awaited.remove(id);
    }

    @Override
    protected void receiveInto(ChannelInputStream stream, SSHPacket buf) throws SSHException {
        if (!inline || stream != getInputStream()) {
            super.receiveInto(stream, buf); // the version exchange, and standard error
            return;
        }
        int length;
        try {
            length = buf.readUInt32AsInt();
        } catch (Buffer.BufferException e) {
            throw new ConnectionException(e);
        }
        if (length < 0 || length > getLocalMaxPacketSize() || length > buf.available()) {
            throw new ConnectionException(DisconnectReason.PROTOCOL_ERROR, "Bad item length: " + length);
        }
        if (broken == null) {
            try {
                take(buf.array(), buf.rpos(), length);
            } catch (IOException e) {
                fail(e); // the stream cannot be followed any further: what comes after is dropped
            }
        }
        lwin.consume(length);
        long adjustment = lwin.neededAdjustment();
        if (adjustment > 0) {
            trans.write(new SSHPacket(Message.CHANNEL_WINDOW_ADJUST).putUInt32FromInt(getRecipient()).putUInt32(adjustment));
            lwin.expand(adjustment);
        }
    }

    /** Adds {@code length} bytes of the subsystem's stream, delivering each SFTP packet completed. */
    private void take(byte[] data, int offset, int length) throws IOException {
        while (length > 0) {
            if (packet == null) {
                int n = Math.min(length, 4 - lengthRead);
                System.arraycopy(data, offset, lengthBytes, lengthRead, n);
                lengthRead += n;
                offset += n;
                length -= n;
                if (lengthRead < 4) {
                    return;
                }
                long size = (lengthBytes[0] & 0xffL) << 24 | (lengthBytes[1] & 0xffL) << 16
                        | (lengthBytes[2] & 0xffL) << 8 | lengthBytes[3] & 0xffL;
                if (size > MAX_ANSWER) {
                    throw new SFTPException("the server announced an SFTP packet of " + size + " bytes (at most "
                            + MAX_ANSWER + " are taken)");
                }
                lengthRead = 0;
                packet = new SFTPPacket<>();
                missing = (int) size;
                // Room for what a server sends in one answer (OpenSSH: 256 KiB of data); a larger
                // packet grows as its bytes arrive, so a length alone allocates no more.
                packet.ensureCapacity(Math.min(missing, 1 << 20));
            }
            int n = Math.min(length, missing);
            packet.putRawBytes(data, offset, n);
            missing -= n;
            offset += n;
            length -= n;
            if (missing == 0) {
                SFTPPacket<Response> complete = packet;
                packet = null;
                deliver(complete);
            }
        }
    }

    private void deliver(SFTPPacket<Response> complete) throws SFTPException {
        Response response = new Response(complete, version);
        Promise<Response, SFTPException> promise = awaited.remove(response.getRequestID());
        if (promise == null) {
            throw new SFTPException("the server answered request " + response.getRequestID() + " ("
                    + response.getType() + "), which was not made or was answered already");
        }
        promise.deliver(response);
    }

    /** No answer can come any more: every request awaiting one, and every later one, fails with {@code why}. */
    private void fail(IOException why) {
        if (broken == null) {
            broken = why;
        }
        for (Long id : awaited.keySet()) {
            Promise<Response, SFTPException> promise = awaited.remove(id);
            if (promise != null) {
                promise.deliverError(why);
            }
        }
    }

    @Override
    public void notifyError(SSHException error) {
        fail(error);
        super.notifyError(error);
    }

    @Override
    protected void eofInputStreams() {
        fail(new SFTPException("the server ended the SFTP channel's data"));
        super.eofInputStreams();
    }

    @Override
    protected void closeAllStreams() {
        fail(new SFTPException("the SFTP channel was closed"));
        super.closeAllStreams();
    }
}
