package dev.remotepath.webdav;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.spi.Timeouts;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a WebDAV file system talks to its server. Equal options share one file system (and one
 * connection pool) per origin.
 * Every timeout must be at least 1 ms and at most 24 days ({@link Timeouts}), checked when the options
 * are built: zero would read as "wait for ever" in the client library underneath.
 *
 * @param connectTimeout  how long a TCP (and TLS) connection may take
 * @param requestTimeout  how long a response's headers may take to come
 * @param idleTimeout     the longest a body may stall, in either direction
 * @param credentials     Basic (answered as Digest where the server asks for Digest) or a bearer
 *                        token; none by default. Never in messages or {@code toString()}
 * @param maxListingBytes the largest PROPFIND answer read (64 MiB by default): a directory whose
 *                        answer is larger fails naming this option, never read in part
 * @param listingTimeout  the longest a PROPFIND answer (or another small answer) may take in all,
 *                        2 minutes by default: a server that trickles it is cut off, however
 *                        steadily it trickles
 * @param mtimes          how modification times are kept ({@link Mtimes#AUTO} by default)
 * @param userAgent       the User-Agent header
 * @param flatListings    whether a whole tree (a sync's side, {@code ls -R}) is asked for in one
 *                        {@code PROPFIND Depth: infinity} (true by default), where the server
 *                        answers one: a refusal (Apache's and lighttpd's default) costs one
 *                        request, after which trees are walked directory by directory
 */
public record WebDavOptions(Duration connectTimeout, Duration requestTimeout, Duration idleTimeout,
        Optional<Credentials> credentials, long maxListingBytes, Duration listingTimeout, Mtimes mtimes,
        String userAgent, boolean flatListings)
        implements FileSystemOptions {

    /** How a file's modification time is kept on a server whose own time is when it was written. */
    public enum Mtimes {
        /**
         * Asks the server once, when the file system opens, whether it keeps dead properties (a
         * {@code PROPPATCH} that removes this library's property from the root): {@link #PROPERTY}
         * where it does, else {@link #SERVER}.
         */
        AUTO,
        /**
         * In a dead property ({@code https://remotepath.dev/ns/ mtime}) set by {@code PROPPATCH}
         * after each write, to the nanosecond; honoured only while the server's own time of the
         * file is not later than when it was written (a file changed by another client since falls
         * back to the server's time). ownCloud and Nextcloud take the time with the upload
         * ({@code X-OC-Mtime}) instead.
         */
        PROPERTY,
        /** The server's own time ({@code getlastmodified}), which cannot be set: quick-check compares upload times. */
        SERVER
    }

    /** Authentication for every request. */
    public sealed interface Credentials {
        /** A user and password: Basic, or Digest when the server's challenge asks for it. */
        record Password(String user, String password) implements Credentials {
            public Password {
                Objects.requireNonNull(user, "user");
                Objects.requireNonNull(password, "password");
            }

            @Override
            public String toString() {
                return "Password[user=" + user + ", password=***]";
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

    public WebDavOptions {
        // Jetty reads zero or less as no timeout at all: refused, as every backend's (Timeouts)
        Timeouts.requireTimeout("connectTimeout", connectTimeout);
        Timeouts.requireTimeout("requestTimeout", requestTimeout);
        Timeouts.requireTimeout("idleTimeout", idleTimeout);
        Objects.requireNonNull(credentials, "credentials");
        Timeouts.requireTimeout("listingTimeout", listingTimeout);
        Objects.requireNonNull(mtimes, "mtimes");
        Objects.requireNonNull(userAgent, "userAgent");
        if (maxListingBytes < 1) {
            throw new IllegalArgumentException("maxListingBytes must be positive");
        }
    }

    public static WebDavOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link WebDavOptions}; every setting has the default documented on the record. */
    public static final class Builder {
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration requestTimeout = Duration.ofSeconds(60);
        private Duration idleTimeout = Duration.ofSeconds(60);
        private Credentials credentials;
        private long maxListingBytes = 64L << 20;
        private Duration listingTimeout = Duration.ofMinutes(2);
        private Mtimes mtimes = Mtimes.AUTO;
        private String userAgent = "RemotePath/0.1";
        private boolean flatListings = true;

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

        public Builder password(String user, String password) {
            this.credentials = new Credentials.Password(user, password);
            return this;
        }

        public Builder bearerToken(String token) {
            this.credentials = new Credentials.Bearer(token);
            return this;
        }

        public Builder maxListingBytes(long bytes) {
            this.maxListingBytes = bytes;
            return this;
        }

        public Builder listingTimeout(Duration d) {
            this.listingTimeout = d;
            return this;
        }

        public Builder mtimes(Mtimes m) {
            this.mtimes = m;
            return this;
        }

        public Builder userAgent(String ua) {
            this.userAgent = ua;
            return this;
        }

        public Builder flatListings(boolean on) {
            this.flatListings = on;
            return this;
        }

        public WebDavOptions build() {
            return new WebDavOptions(connectTimeout, requestTimeout, idleTimeout, Optional.ofNullable(credentials),
                    maxListingBytes, listingTimeout, mtimes, userAgent, flatListings);
        }
    }
}
