package dev.remotepath.ftp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import javax.net.SocketFactory;
import org.apache.commons.net.ProtocolCommandEvent;
import org.apache.commons.net.ProtocolCommandListener;

/**
 * Bounds every reply on a control connection in time and size. A socket's read timeout only
 * bounds silence: a server that sends one byte of a reply per second, or an endless multi-line
 * reply ({@code 211-...} forever, which Commons Net would gather in memory), would hold a
 * command for ever. Each command sent (and each wait for a transfer's final reply, and the
 * greeting) starts a new bound: {@link #MAX_REPLY_BYTES} and {@code deadline} in all.
 *
 * <p>It is the client's socket factory, and guards the first socket it makes (the control
 * connection; TLS is layered over it, so the bound counts the encrypted bytes); data
 * connections are plain sockets, bounded by their own readers.
 */
final class ControlReplies extends SocketFactory implements ProtocolCommandListener {

    /** The most a single reply may take: far above any FEAT, MLST or STAT answer a server sends. */
    static final int MAX_REPLY_BYTES = 1 << 20;

    private final long boundNanos;
    private final Duration bound;
    private volatile long deadline;
    private volatile long bytes;
    private boolean controlMade;

    ControlReplies(Duration bound) {
        this.bound = bound;
        this.boundNanos = bound.toNanos();
        expect();
    }

    /** A reply is awaited from now on: its bounds start again. */
    void expect() {
        deadline = System.nanoTime() + boundNanos;
        bytes = 0;
    }

    @Override
    public void protocolCommandSent(ProtocolCommandEvent event) {
        expect();
    }

    @Override
    public void protocolReplyReceived(ProtocolCommandEvent event) {
        // the bound of the next reply starts with the next command
    }

    @Override
    public synchronized Socket createSocket() {
        if (controlMade) {
            return new Socket();
        }
        controlMade = true;
        expect(); // the greeting
        return new Guarded();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return SocketFactory.getDefault().createSocket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
        return SocketFactory.getDefault().createSocket(host, port, local, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return SocketFactory.getDefault().createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress local, int localPort) throws IOException {
        return SocketFactory.getDefault().createSocket(address, port, local, localPort);
    }

    private void count(int n) throws IOException {
        if (n > 0 && (bytes += n) > MAX_REPLY_BYTES) {
            throw new IOException("a reply longer than " + (MAX_REPLY_BYTES >> 10) + " KiB: refused");
        }
        if (System.nanoTime() - deadline > 0) {
            throw new SocketTimeoutException("no complete reply within " + bound + " (the server trickles it)");
        }
    }

    /** The control connection's socket: its input counted against the current reply's bounds. */
    private final class Guarded extends Socket {
        private InputStream in;

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read() throws IOException {
                        int b = super.read();
                        count(b < 0 ? 0 : 1);
                        return b;
                    }

                    @Override
                    public int read(byte[] buf, int off, int len) throws IOException {
                        int n = super.read(buf, off, len);
                        count(n);
                        return n;
                    }
                };
            }
            return in;
        }
    }
}
