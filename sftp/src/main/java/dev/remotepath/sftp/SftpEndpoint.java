package dev.remotepath.sftp;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where a wire connects and how, with the connection failures worded once for both clients.
 *
 * @param host      the host as the URI names it (an alias of ~/.ssh/config, perhaps)
 * @param connectTo the host actually connected to (the config's HostName, or {@code host})
 * @param via       the ProxyJump hop this endpoint is reached through (itself perhaps through another)
 */
record SftpEndpoint(String user, String host, String connectTo, int port, SftpOptions options,
        java.util.Optional<SftpEndpoint> via) {

    SftpEndpoint {
        java.util.Objects.requireNonNull(via, "via");
    }

    /** {@code user@host:port}, as every error names the server. */
    String where() {
        return where(user, host, port);
    }

    /** {@code user@host:port}, an IPv6 host in brackets so that its colons do not read as a port. */
    static String where(String user, String host, int port) {
        return user + "@" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** The refused login, naming what was offered and why any key could not be (never a secret). */
    AccessDeniedException authenticationFailed(Login login) {
        String offered = login.offered();
        String problems = login.problems().isEmpty() ? "" : "; " + String.join("; ", login.problems());
        return new AccessDeniedException(where(), null, "authentication failed for user " + user
                + (offered.isEmpty() ? " (nothing was offered: give a key (SftpOptions.identityFiles), an ssh-agent or a password (SftpOptions.password)"
                + problems + ")" : " (offered: " + offered + problems + ")"));
    }

    /** {@code user@host:port}, and the hops it is reached through when there are any. */
    String route() {
        return via.map(v -> where() + " via " + v.route()).orElse(where());
    }

    /** The innermost cause's message, for errors that name what went wrong underneath. */
    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    /**
     * Fails clearly for an identity file that cannot be a private key, before either client
     * tries it (MINA answered a {@code .pub} file with a NullPointerException's message).
     */
    static void requirePrivateKey(Path file) throws IOException {
        String head;
        try (java.io.BufferedReader r = java.nio.file.Files.newBufferedReader(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            head = String.valueOf(r.readLine()).strip();
        } catch (java.nio.file.NoSuchFileException e) {
            throw new java.nio.file.NoSuchFileException(file.toString(), null, "identity file not found");
        }
        boolean publicKey = head.startsWith("ssh-") || head.startsWith("ecdsa-sha2-") || head.startsWith("sk-")
                || head.contains("PUBLIC KEY");
        if (publicKey) {
            throw new IOException("the identity file " + file + " is a public key, not a private key"
                    + (file.toString().endsWith(".pub") ? " (give " + file.toString().replaceFirst("\\.pub$", "")
                    + ", without .pub)" : ""));
        }
        if (!head.startsWith("-----BEGIN ") && !head.startsWith("PuTTY-User-Key-File-")) {
            throw new IOException("the identity file " + file + " is not a private key (no PEM, OpenSSH or PuTTY header)");
        }
    }

    static String unknownKey(String type, String fingerprint, Path knownHosts) {
        return "the server's " + type + " key (" + fingerprint + ") is not in " + knownHosts
                + "; add it (ssh-keyscan), or accept new keys (SftpOptions.hostKeyPolicy(ACCEPT_NEW))";
    }

    static String revokedKey(Path knownHosts, String type, String fingerprint) {
        return "the server's " + type + " key (" + fingerprint + ") is REVOKED in " + knownHosts + " (@revoked): refused";
    }

    static String changedKey(Path knownHosts, String expected, String actual) {
        return "the server's key CHANGED: " + knownHosts + " expects " + expected + " but the server sent " + actual
                + " (possible man-in-the-middle)";
    }

    static IOException connectFailure(String where, IOException e, Duration timeout) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        if (root instanceof ConnectException) {
            ConnectException c = new ConnectException("sftp " + where + ": connection refused");
            c.initCause(e);
            return c;
        }
        if (root instanceof java.util.concurrent.TimeoutException || root instanceof SocketTimeoutException) {
            SocketTimeoutException t = new SocketTimeoutException("sftp " + where + ": no connection within "
                    + timeout.toSeconds() + " s");
            t.initCause(e);
            return t;
        }
        if (root instanceof java.net.UnknownHostException || root instanceof java.nio.channels.UnresolvedAddressException) {
            // MINA's channel throws UnresolvedAddressException, which carries no message at all
            java.net.UnknownHostException u = new java.net.UnknownHostException("sftp " + where
                    + ": unknown host (the name does not resolve)");
            u.initCause(e);
            return u;
        }
        return new IOException("sftp " + where + ": cannot connect: "
                + (root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName()), e);
    }
}
