package dev.remotepath.sftp;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The client half of the ssh-agent protocol (draft-miller-ssh-agent) over the agent's Unix
 * domain socket, through the JDK's own Unix-domain channels: listing the agent's keys and
 * asking it to sign. Both SSH libraries sign through it, so agent logins behave alike. Every
 * exchange has a deadline and a size bound: an agent that stops answering or sends a huge
 * answer fails the login with an {@link IOException} instead of holding it.
 */
final class AgentClient {

    static final byte REQUEST_IDENTITIES = 11;
    static final byte IDENTITIES_ANSWER = 12;
    static final byte SIGN_REQUEST = 13;
    static final byte SIGN_RESPONSE = 14;
    static final byte FAILURE = 5;
    /** Sign-request flags: an RSA key signs with SHA-2 (OpenSSH servers refuse SHA-1 "ssh-rsa"). */
    static final int RSA_SHA2_256 = 2;
    static final int RSA_SHA2_512 = 4;

    private static final int MAX_MESSAGE = 256 * 1024;

    /** A key the agent holds: its public key blob (string type, then the type's fields) and comment. */
    record Identity(byte[] blob, String comment) {
        /** The blob's key type, e.g. {@code ssh-ed25519}. */
        String keyType() {
            ByteBuffer b = ByteBuffer.wrap(blob);
            int n = b.getInt();
            return new String(blob, 4, n, StandardCharsets.US_ASCII);
        }
    }

    private final Path socket;
    private final Duration deadline;

    AgentClient(Path socket, Duration deadline) {
        this.socket = socket;
        this.deadline = deadline;
    }

    Path socket() {
        return socket;
    }

    /** The agent's keys, in the agent's order. */
    List<Identity> identities() throws IOException {
        ByteBuffer answer = exchange(new byte[] {REQUEST_IDENTITIES});
        byte type = answer.get();
        if (type != IDENTITIES_ANSWER) {
            throw new IOException("the ssh-agent at " + socket + " refused to list its keys (answer " + type + ")");
        }
        int count = answer.getInt();
        if (count < 0 || count > 1024) {
            throw new IOException("the ssh-agent at " + socket + " claims " + Integer.toUnsignedString(count) + " keys");
        }
        List<Identity> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] blob = string(answer);
            byte[] comment = string(answer);
            keys.add(new Identity(blob, new String(comment, StandardCharsets.UTF_8)));
        }
        return keys;
    }

    /**
     * The agent's signature of {@code data} by the key {@code blob}, as the SSH signature blob
     * (string algorithm, string signature) that goes into a publickey request.
     */
    byte[] sign(byte[] blob, byte[] data, int flags) throws IOException {
        ByteBuffer req = ByteBuffer.allocate(1 + 4 + blob.length + 4 + data.length + 4);
        req.put(SIGN_REQUEST).putInt(blob.length).put(blob).putInt(data.length).put(data).putInt(flags);
        ByteBuffer answer = exchange(req.array());
        byte type = answer.get();
        if (type != SIGN_RESPONSE) {
            throw new IOException("the ssh-agent at " + socket + " refused to sign (answer " + type
                    + (type == FAILURE ? ": the key may need confirmation or be restricted" : "") + ")");
        }
        return string(answer);
    }

    private static byte[] string(ByteBuffer b) throws IOException {
        if (b.remaining() < 4) {
            throw new IOException("truncated ssh-agent answer");
        }
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IOException("malformed ssh-agent answer: a field of " + Integer.toUnsignedString(n) + " bytes in "
                    + b.remaining());
        }
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    /** One request and its answer on a connection of its own, within the deadline. */
    private ByteBuffer exchange(byte[] message) throws IOException {
        long until = System.nanoTime() + deadline.toNanos();
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            try {
                ch.connect(UnixDomainSocketAddress.of(socket));
            } catch (IOException e) {
                throw new IOException("cannot reach the ssh-agent at " + socket + ": " + e.getMessage(), e);
            }
            ch.configureBlocking(false);
            try (Selector selector = Selector.open()) {
                ByteBuffer out = ByteBuffer.allocate(4 + message.length).putInt(message.length).put(message).flip();
                SelectionKey key = ch.register(selector, SelectionKey.OP_WRITE);
                while (out.hasRemaining()) {
                    await(selector, until);
                    ch.write(out);
                }
                key.interestOps(SelectionKey.OP_READ);
                ByteBuffer length = ByteBuffer.allocate(4);
                fill(ch, selector, length, until);
                int n = length.flip().getInt();
                if (n < 1 || n > MAX_MESSAGE) {
                    throw new IOException("the ssh-agent at " + socket + " sent a message of "
                            + Integer.toUnsignedString(n) + " bytes (at most " + MAX_MESSAGE + " taken)");
                }
                ByteBuffer body = ByteBuffer.allocate(n);
                fill(ch, selector, body, until);
                return body.flip();
            }
        }
    }

    private void fill(SocketChannel ch, Selector selector, ByteBuffer into, long until) throws IOException {
        while (into.hasRemaining()) {
            await(selector, until);
            if (ch.read(into) < 0) {
                throw new IOException("the ssh-agent at " + socket + " closed the connection mid-answer");
            }
        }
    }

    private void await(Selector selector, long until) throws IOException {
        long left = until - System.nanoTime();
        if (left <= 0 || selector.select(Math.max(1, left / 1_000_000)) == 0 && System.nanoTime() >= until) {
            throw new SocketTimeoutException("the ssh-agent at " + socket + " did not answer within "
                    + deadline.toMillis() + " ms");
        }
        selector.selectedKeys().clear();
    }
}
