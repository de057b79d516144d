package dev.remotepath.webdav;

import dev.remotepath.wire.WireTimes;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.Authentication;
import org.eclipse.jetty.client.BasicAuthentication;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.DigestAuthentication;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * The HTTP exchanges of one WebDAV origin: one Jetty client (HTTP/1.1, keep-alive), requests
 * with any method and a body, every response's headers held to {@code requestTimeout} and every
 * body to {@code idleTimeout}. Redirects are not followed (a WebDAV server answers a method on
 * the URL it was asked). A user and password answer the server's challenge, Basic or Digest
 * (then sent ahead on every request); a bearer token goes on every request; neither goes into a
 * message.
 */
final class WebDavWire implements AutoCloseable {

    private final String origin;
    private final WebDavOptions options;
    private final HttpClient client;
    /** The server's clock minus ours, in seconds, from the last response's Date. */
    private volatile long clockOffsetSeconds;

    WebDavWire(String origin, WebDavOptions options) {
        this.origin = origin;
        this.options = options;
        // Jetty's default queue sizes itself by the CPU's cache line, which it asks of the
        // platform MBean server: starting JMX (and JFR's MBean) cost a command ~0.1 s.
        QueuedThreadPool threads = new QueuedThreadPool(200, 8, 60_000, new LinkedBlockingQueue<>());
        threads.setName("remotepath-webdav-" + origin);
        threads.setDaemon(true);
        ClientConnector connector = new ClientConnector();
        if (origin.startsWith("http:")) {
            // plain HTTP never uses TLS: its context (the JDK's trust store read, keys made)
            // cost every webdav:// command ~0.3 s at start
            connector.setSslContextFactory(new NoTls());
        }
        HttpClient c = new HttpClient(new HttpClientTransportOverHTTP(connector));
        c.setExecutor(threads);
        c.setScheduler(new ScheduledExecutorScheduler("remotepath-webdav-scheduler", true));
        c.setFollowRedirects(false);
        c.setConnectTimeout(options.connectTimeout().toMillis());
        c.setIdleTimeout(options.idleTimeout().toMillis());
        c.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, options.userAgent()));
        if (options.credentials().orElse(null) instanceof WebDavOptions.Credentials.Password p) {
            // Answered to the server's challenge (Basic or Digest), then sent ahead on every
            // request to the origin once one was accepted.
            URI base = URI.create(origin);
            c.getAuthenticationStore().addAuthentication(new BasicAuthentication(base, Authentication.ANY_REALM,
                    p.user(), p.password()));
            c.getAuthenticationStore().addAuthentication(new DigestAuthentication(base, Authentication.ANY_REALM,
                    p.user(), p.password()));
        }
        try {
            c.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the HTTP client for " + origin, e);
        }
        c.getContentDecoderFactories().clear(); // a file's bytes as stored: no transparent gunzip
        this.client = c;
    }

    /** The TLS context of a file system that speaks plain HTTP only: never started, never used. */
    private static final class NoTls extends SslContextFactory.Client {
        @Override
        protected void doStart() {
        }
    }

    /** A response whose body is still to be read or discarded. */
    record Exchange(String method, URI uri, Response response, InputStreamResponseListener body) implements AutoCloseable {
        int status() {
            return response.getStatus();
        }

        HttpFields headers() {
            return response.getHeaders();
        }

        @Override
        public void close() throws IOException {
            body.close();
        }
    }

    /** A request to start: the caller adds headers and a body, then calls {@link #send}. */
    Request request(String method, URI uri) {
        return client.newRequest(uri).method(method)
                .idleTimeout(options.idleTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .headers(h -> {
                    h.put(HttpHeader.ACCEPT_ENCODING, "identity");
                    if (options.credentials().orElse(null) instanceof WebDavOptions.Credentials.Bearer t) {
                        h.put(HttpHeader.AUTHORIZATION, "Bearer " + t.token());
                    }
                });
    }

    /**
     * Sends {@code method} with an optional small body. Every method but GET and PUT (whose
     * bodies are files, which may rightly take hours) is held to {@code listingTimeout} in all,
     * its answer's body included.
     */
    Exchange send(String method, URI uri, HttpFields extra, byte[] body, String contentType) throws IOException {
        Request r = request(method, uri);
        if (!method.equals("GET") && !method.equals("PUT") && !method.equals("COPY")) {
            r.timeout(options.listingTimeout().toMillis(), TimeUnit.MILLISECONDS);
        }
        if (extra != null) {
            r.headers(h -> extra.forEach(h::put));
        }
        if (body != null) {
            r.body(new BytesRequestContent(contentType, body));
        }
        return send(r);
    }

    /** Sends a prepared request and waits for its response's headers. */
    Exchange send(Request request) throws IOException {
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        return await(request, listener);
    }

    /** Waits for the headers of a request already sent with {@code listener}. */
    Exchange await(Request request, InputStreamResponseListener listener) throws IOException {
        String method = request.getMethod();
        URI uri = request.getURI();
        try {
            Response response = listener.get(options.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
            noteDate(response.getHeaders());
            return new Exchange(method, uri, response, listener);
        } catch (InterruptedException e) {
            request.abort(e);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(method + " " + uri + " interrupted");
        } catch (TimeoutException e) {
            request.abort(e);
            throw new SocketTimeoutException(method + " " + uri + ": no response within "
                    + options.requestTimeout().toSeconds() + " s (WebDavOptions.requestTimeout)");
        } catch (ExecutionException e) {
            IOException failure = transportFailure(method, uri, e.getCause());
            if (failure instanceof SocketTimeoutException) {
                // The connection's idle timeout, the request's total timeout and our own wait
                // can each fire first on a silent server: name every option that bounds it.
                SocketTimeoutException t = new SocketTimeoutException(method + " " + uri + ": no response in time"
                        + " (WebDavOptions.requestTimeout, WebDavOptions.idleTimeout"
                        + (request.getTimeout() > 0 ? ", WebDavOptions.listingTimeout)" : ")"));
                t.initCause(e.getCause());
                throw t;
            }
            throw failure;
        }
    }

    static IOException transportFailure(String method, URI uri, Throwable cause) {
        String what = method + " " + uri;
        for (Throwable c = cause; c != null; c = c.getCause()) {
            if (c instanceof ConnectException) {
                ConnectException e = new ConnectException(what + ": connection refused or unreachable");
                e.initCause(cause);
                return e;
            }
            if (c instanceof TimeoutException || c instanceof SocketTimeoutException) {
                SocketTimeoutException t = new SocketTimeoutException(what + ": timed out");
                t.initCause(cause);
                return t;
            }
        }
        return new IOException(what + ": " + (cause == null ? "failed" : cause.getMessage() == null
                ? cause.getClass().getSimpleName() : cause.getMessage()), cause);
    }

    /**
     * The whole body of {@code ex}, at most {@code max} bytes: a longer one fails naming
     * {@code what}, never read in part.
     */
    static byte[] body(Exchange ex, long max, String what) throws IOException {
        long declared = ex.headers().getLongField(HttpHeader.CONTENT_LENGTH);
        if (declared > max) {
            throw new java.nio.file.FileSystemException(what, null, "the server's answer of " + declared
                    + " bytes is larger than WebDavOptions.maxListingBytes (" + max + ")");
        }
        try (InputStream in = ex.body().getInputStream()) {
            byte[] all = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, max + 1));
            if (all.length > max) {
                throw new java.nio.file.FileSystemException(what, null, "the server's answer is larger than "
                        + "WebDavOptions.maxListingBytes (" + max + ")");
            }
            if (declared >= 0 && all.length != declared) {
                throw new java.nio.file.FileSystemException(what, null, "the server's answer was cut short: "
                        + all.length + " of " + declared + " bytes");
            }
            return all;
        } catch (IOException e) {
            if (e instanceof java.nio.file.FileSystemException) {
                throw e;
            }
            IOException failure = transportFailure(ex.method(), ex.uri(), e);
            if (failure instanceof SocketTimeoutException) {
                SocketTimeoutException t = new SocketTimeoutException(ex.method() + " " + ex.uri() + ": the answer did "
                        + "not arrive in time (WebDavOptions.listingTimeout, idleTimeout)");
                t.initCause(e);
                throw t;
            }
            throw failure;
        }
    }

    private void noteDate(HttpFields headers) {
        serverDate(headers).ifPresent(d -> clockOffsetSeconds = d.getEpochSecond() - Instant.now().getEpochSecond());
    }

    /** A response's {@code Date}, where it has a readable one. */
    static Optional<Instant> serverDate(HttpFields headers) {
        String date = headers.get(HttpHeader.DATE);
        if (date == null) {
            return Optional.empty();
        }
        return WireTimes.rfc1123OrEmpty(date.strip());
    }

    /** Now, by the server's clock as its last Date said (to the second). */
    Instant serverNow() {
        return Instant.now().plusSeconds(clockOffsetSeconds);
    }

    /** Connections lent out to exchanges now; none once every stream is closed (the tests' leak check). */
    int activeConnections() {
        int active = 0;
        for (org.eclipse.jetty.client.Destination d : client.getDestinations()) {
            if (d.getConnectionPool() instanceof org.eclipse.jetty.client.AbstractConnectionPool pool) {
                active += pool.getActiveConnectionCount();
            }
        }
        return active;
    }

    @Override
    public void close() throws IOException {
        try {
            client.stop();
        } catch (Exception e) {
            throw new IOException("closing the HTTP client for " + origin + " failed", e);
        }
    }
}
