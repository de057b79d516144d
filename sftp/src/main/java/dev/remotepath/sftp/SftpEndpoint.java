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
 */
record SftpEndpoint(String user, String host, String connectTo, int port, SftpOptions options) {

    /** {@code user@host:port}, as every error names the server. */
    String where() {
        return user + "@" + host + ":" + port;
    }

    AccessDeniedException authenticationFailed() {
        return new AccessDeniedException(where(), null, "authentication failed for user " + user
                + " (offered: " + (options.password().isPresent() ? "password" : "")
                + (options.identityFiles().isEmpty() ? "" : " keys " + options.identityFiles()) + ")");
    }

    static String unknownKey(String type, String fingerprint, Path knownHosts) {
        return "the server's " + type + " key (" + fingerprint + ") is not in " + knownHosts
                + "; add it, or choose HostKeyPolicy.ACCEPT_NEW";
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
        if (root instanceof ConnectException || String.valueOf(root.getMessage()).contains("Connection refused")) {
            ConnectException c = new ConnectException("sftp " + where + ": connection refused");
            c.initCause(e);
            return c;
        }
        if (root instanceof java.util.concurrent.TimeoutException || root instanceof SocketTimeoutException
                || String.valueOf(e.getMessage()).contains("timeout")) {
            SocketTimeoutException t = new SocketTimeoutException("sftp " + where + ": no connection within "
                    + timeout.toSeconds() + " s");
            t.initCause(e);
            return t;
        }
        return new IOException("sftp " + where + ": cannot connect: " + root.getMessage(), e);
    }
}
