package dev.remotepath.sftp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.NetworkChannel;
import jdk.net.ExtendedSocketOptions;

/**
 * Acknowledges what the server sent at once, where the platform allows it ({@code TCP_QUICKACK},
 * Linux), while an SSH connection is being set up. Until a session's channel is open, OpenSSH's
 * sshd leaves Nagle's algorithm on, so where it answers with two writes in a row it holds the
 * second until the client has acknowledged the first; the client, waiting in silence for that
 * second one, sends no data to carry its acknowledgement, and Linux delays it ~40 ms. That
 * happened once a connection, with both clients (and with rclone's): after the login, the
 * server's {@code hostkeys-00@openssh.com} request and debug messages, then the answer to the
 * channel open held back; with MINA, whose request of the ssh-userauth service and first login
 * attempt go out together, sometimes after the key exchange too. The option is not sticky:
 * the kernel returns to delayed acknowledgements as soon as the client sends again, so it is
 * set after every read of the socket until the SFTP channel is open: MINA's transport
 * ({@link MinaTransport}) and sshj's sockets ({@link #socketFactory}) do so until settled.
 * Transfers after that are unchanged.
 */
final class QuickAcks {

    private QuickAcks() {
    }

    /** Sends any acknowledgement the kernel is delaying now, and the next ones promptly. */
    static void now(Socket socket) {
        if (socket != null && socket.supportedOptions().contains(ExtendedSocketOptions.TCP_QUICKACK)) {
            try {
                socket.setOption(ExtendedSocketOptions.TCP_QUICKACK, true);
            } catch (IOException | UnsupportedOperationException ignored) {
                // only a delay saved; a socket that refuses it keeps the kernel's timing
            }
        }
    }

    /** As {@link #now(Socket)}, for a channel (MINA's). */
    static void now(NetworkChannel channel) {
        if (channel != null && channel.isOpen() && channel.supportedOptions().contains(ExtendedSocketOptions.TCP_QUICKACK)) {
            try {
                channel.setOption(ExtendedSocketOptions.TCP_QUICKACK, true);
            } catch (IOException | UnsupportedOperationException ignored) {
                // as above
            }
        }
    }

    /**
     * Sockets for sshj that acknowledge each read at once, until {@link #settle settled}, and
     * send at once ({@code TCP_NODELAY}, as MINA's are configured and rclone's are by default):
     * sshj leaves Nagle's algorithm on, which held each small request (a READ, an FSETSTAT and
     * CLOSE behind a WRITE) until the server had acknowledged what went before. A 256 MiB get
     * took 1.30 s instead of 1.76 s, a put 1.39 s instead of 1.67 s, a no-op resync of T1
     * 0.64 s instead of 0.72 s (docs/benchmarks.md, "sshj's sockets without Nagle's algorithm").
     */
    static javax.net.SocketFactory socketFactory() {
        return new javax.net.SocketFactory() {
            @Override
            public Socket createSocket() throws IOException {
                return new SettingUp();
            }

            @Override
            public Socket createSocket(String host, int port) throws IOException {
                return connected(new InetSocketAddress(host, port));
            }

            @Override
            public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
                return connected(new InetSocketAddress(host, port), new InetSocketAddress(local, localPort));
            }

            @Override
            public Socket createSocket(InetAddress host, int port) throws IOException {
                return connected(new InetSocketAddress(host, port));
            }

            @Override
            public Socket createSocket(InetAddress host, int port, InetAddress local, int localPort) throws IOException {
                return connected(new InetSocketAddress(host, port), new InetSocketAddress(local, localPort));
            }

            private Socket connected(InetSocketAddress to, InetSocketAddress... from) throws IOException {
                Socket s = new SettingUp();
                try {
                    if (from.length > 0) {
                        s.bind(from[0]);
                    }
                    s.connect(to);
                    return s;
                } catch (IOException e) {
                    s.close();
                    throw e;
                }
            }
        };
    }

    /** Ends the prompt acknowledgements of a {@link #socketFactory} socket: the set-up is over. */
    static void settle(Socket socket) {
        if (socket instanceof SettingUp s) {
            s.settingUp = false;
        }
    }

    /** A socket whose reads are acknowledged at once while the connection is being set up. */
    private static final class SettingUp extends Socket {
        private volatile boolean settingUp = true;
        private InputStream in;

        SettingUp() throws IOException {
            setTcpNoDelay(true);
        }

        @Override
        public synchronized InputStream getInputStream() throws IOException {
            if (in == null) {
                in = new FilterInputStream(super.getInputStream()) {
                    @Override
                    public int read() throws IOException {
                        int b = super.read();
                        acknowledge();
                        return b;
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        int n = super.read(b, off, len);
                        acknowledge();
                        return n;
                    }
                };
            }
            return in;
        }

        private void acknowledge() {
            if (settingUp) {
                now(this);
            }
        }
    }
}
