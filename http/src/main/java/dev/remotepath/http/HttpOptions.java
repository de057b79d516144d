package dev.remotepath.http;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.spi.Timeouts;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Connection options of the HTTP backend. Credentials never appear in {@link #toString()}.
 * Every timeout must be at least 1 ms and at most 24 days ({@link Timeouts}), checked when the options
 * are built: zero would read as "wait for ever" in the client library underneath.
 *
 * @param connectTimeout        how long to wait for a connection
 * @param requestTimeout        how long one request may take to answer (headers); bodies are
 *                              streamed with {@code idleTimeout} between chunks
 * @param idleTimeout           the longest silence inside a response body
 * @param credentials           basic or bearer authentication, sent with every request
 * @param crossOriginRedirects  follow redirects to another scheme, host or port (off by default)
 * @param maxIndexPageBytes     the largest directory index page read (8 MiB by default)
 * @param userAgent             the User-Agent sent
 * @param listingTimeout        the longest a whole index page may take, headers and body (2 min by
 *                              default): a page that trickles is cut off, however steadily it trickles
 * @param minimumBodyRate       the slowest a file body may arrive, in bytes per second averaged over
 *                              each {@code idleTimeout} (1 KiB/s by default; 0 turns the check off)
 * @param lenientIndexPages     list an HTML page whose title and headings do not name its directory
 *                              (off by default: such a page is a maintenance, login or error page,
 *                              not evidence that a directory is empty)
 */
public record HttpOptions(Duration connectTimeout, Duration requestTimeout, Duration idleTimeout,
        Optional<Credentials> credentials, boolean crossOriginRedirects, long maxIndexPageBytes, String userAgent,
        Duration listingTimeout, long minimumBodyRate, boolean lenientIndexPages)
        implements FileSystemOptions {

    /** Authentication for every request. */
    public sealed interface Credentials {
        /** HTTP basic authentication. */
        record Basic(String user, String password) implements Credentials {
            public Basic {
                Objects.requireNonNull(user, "user");
                Objects.requireNonNull(password, "password");
            }

            @Override
            public String toString() {
                return "Basic[user=" + user + ", password=***]";
            }
        }

        /** A bearer token. */
        record Bearer(String token) implements Credentials {
            public Bearer {
                Objects.requireNonNull(token, "token");
            }

            @Override
            public String toString() {
                return "Bearer[***]";
            }
        }
    }

    public HttpOptions {
        // Jetty reads zero or less as no timeout at all: refused, as every backend's (Timeouts)
        Timeouts.requireTimeout("connectTimeout", connectTimeout);
        Timeouts.requireTimeout("requestTimeout", requestTimeout);
        Timeouts.requireTimeout("idleTimeout", idleTimeout);
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(userAgent, "userAgent");
        Timeouts.requireTimeout("listingTimeout", listingTimeout);
        if (minimumBodyRate < 0) {
            throw new IllegalArgumentException("minimumBodyRate must not be negative");
        }
        if (maxIndexPageBytes < 1) {
            throw new IllegalArgumentException("maxIndexPageBytes must be positive");
        }
    }

    public static HttpOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds {@link HttpOptions}; defaults: 10 s connect, 60 s request and idle, 8 MiB pages read
     * within 2 min, bodies at 1 KiB/s at least, pages that do not name their directory refused.
     */
    public static final class Builder {
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration requestTimeout = Duration.ofSeconds(60);
        private Duration idleTimeout = Duration.ofSeconds(60);
        private Credentials credentials;
        private boolean crossOriginRedirects;
        private long maxIndexPageBytes = 8L * 1024 * 1024;
        private String userAgent = "RemotePath/0.1";
        private Duration listingTimeout = Duration.ofMinutes(2);
        private long minimumBodyRate = 1024;
        private boolean lenientIndexPages;

        public Builder listingTimeout(Duration d) {
            this.listingTimeout = d;
            return this;
        }

        public Builder minimumBodyRate(long bytesPerSecond) {
            this.minimumBodyRate = bytesPerSecond;
            return this;
        }

        public Builder lenientIndexPages(boolean lenient) {
            this.lenientIndexPages = lenient;
            return this;
        }

        public Builder connectTimeout(Duration d) {
            this.connectTimeout = d;
            return this;
        }

        public Builder requestTimeout(Duration d) {
            this.requestTimeout = d;
            return this;
        }

        public Builder idleTimeout(Duration d) {
            this.idleTimeout = d;
            return this;
        }

        public Builder basicAuth(String user, String password) {
            this.credentials = new Credentials.Basic(user, password);
            return this;
        }

        public Builder bearerToken(String token) {
            this.credentials = new Credentials.Bearer(token);
            return this;
        }

        public Builder crossOriginRedirects(boolean allow) {
            this.crossOriginRedirects = allow;
            return this;
        }

        public Builder maxIndexPageBytes(long bytes) {
            this.maxIndexPageBytes = bytes;
            return this;
        }

        public Builder userAgent(String ua) {
            this.userAgent = ua;
            return this;
        }

        public HttpOptions build() {
            return new HttpOptions(connectTimeout, requestTimeout, idleTimeout, Optional.ofNullable(credentials),
                    crossOriginRedirects, maxIndexPageBytes, userAgent, listingTimeout, minimumBodyRate, lenientIndexPages);
        }
    }
}
