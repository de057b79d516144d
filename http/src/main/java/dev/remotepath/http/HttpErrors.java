package dev.remotepath.http;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpMethod;

/**
 * The HTTP backend's failures as {@code java.nio.file} and {@code java.net} exceptions: a
 * status code by its number, a transport failure by its exception's type (never by the words
 * of Jetty's message), each naming the request and, for timeouts, the option that bounds it.
 */
final class HttpErrors {

    private HttpErrors() {
    }

    /** A response of {@code status} to {@code operation} of {@code uri}, for {@code path}. */
    static IOException status(String operation, URI uri, int status, RemotePath path) {
        String p = path.toString();
        return switch (status) {
            case 404, 410 -> new NoSuchFileException(p);
            case 401 -> new AccessDeniedException(p, null, "HTTP 401: authentication required or refused");
            case 403 -> new AccessDeniedException(p, null, "HTTP 403: forbidden");
            default -> new FileSystemException(p, null, operation + " " + uri + " answered HTTP " + status);
        };
    }

    /**
     * A request that got no response: refused or unreachable, timed out by Jetty's own bounds,
     * or failed otherwise; {@code total} is the listing's bound in all, where one was set.
     */
    static IOException transport(HttpMethod method, URI uri, Throwable cause, HttpOptions options, Duration total) {
        String what = method + " " + uri;
        if (cause instanceof ConnectException || (cause != null && cause.getCause() instanceof ConnectException)) {
            ConnectException c = new ConnectException(what + ": connection refused or unreachable");
            c.initCause(cause);
            return c;
        }
        if (cause instanceof TimeoutException || cause instanceof SocketTimeoutException) {
            // Jetty's own bounds, set on the request, fired before the headers came (they race
            // with requestTimeout when both are equal, as the CLI's --timeout sets them): name
            // them too, so the error says which option would have let it wait longer.
            SocketTimeoutException t = new SocketTimeoutException(what + ": timed out: silent for "
                    + options.idleTimeout().toSeconds() + " s (HttpOptions.idleTimeout)" + (total == null ? ""
                            : " or over " + total.toSeconds() + " s in all (HttpOptions.listingTimeout)"));
            t.initCause(cause);
            return t;
        }
        return new IOException(what + ": " + (cause == null ? "failed" : cause.getMessage() == null
                ? cause.getClass().getSimpleName() : cause.getMessage()), cause);
    }
}
