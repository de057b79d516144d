package dev.remotepath.ftp;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.spi.Timeouts;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * How an FTP file system talks to its server. Equal options share one file system (one pool of
 * control connections) per server and user.
 * Every timeout must be at least 1 ms and at most 24 days ({@link Timeouts}), checked when the options
 * are built: zero would read as "wait for ever" in the client library underneath.
 *
 * @param password        the password of the URI's user; none for {@code anonymous}, which logs
 *                        in with an e-mail-style password as RFC 1635 asks. Never in messages or
 *                        {@code toString()}
 * @param implicitTls     for {@code ftps:}: TLS from the first byte (the old port-990 style)
 *                        instead of {@code AUTH TLS} on a plain connection; false by default
 * @param sslContext      where {@code ftps:} takes its trust (the JDK's default trust store
 *                        unless given); the server's name is always checked against its certificate
 * @param passive         passive data connections (the default); false: active ({@code PORT}),
 *                        the server connects back to this host
 * @param connections     at most this many control connections held open and idle (4 by default;
 *                        FTP carries one transfer per connection). A thread that already holds
 *                        one, to copy between two paths of one server, may open one more
 * @param connectTimeout  how long a control or data connection (and its TLS handshake) may take
 *                        (1 ms to 24 days, as {@code readTimeout})
 * @param readTimeout     the longest a reply or a data connection may stall (1 ms to 24
 *                        days); a whole answer, however steadily it trickles, may take ten of them
 * @param keepAlive       how often (zero or more, at most 24 days) a {@code NOOP} goes on the control connection while a long
 *                        transfer runs, so a firewall does not drop it (and how long an idle
 *                        connection is trusted before it is checked)
 * @param charset         the charset of names where the server does not speak UTF-8 ({@code
 *                        OPTS UTF8 ON} is sent wherever {@code FEAT} lists {@code UTF8}); UTF-8 by default
 * @param listTimeZone    the zone of the times in {@code LIST} answers (UTC by default); {@code
 *                        MLSD}, {@code MLST} and {@code MDTM} are UTC by definition
 * @param listing         which listing command ({@link Listing#AUTO} by default)
 */
public record FtpOptions(Optional<String> password, boolean implicitTls, Optional<SSLContext> sslContext,
        boolean passive, int connections, Duration connectTimeout, Duration readTimeout, Duration keepAlive,
        Charset charset, ZoneId listTimeZone, Listing listing) implements FileSystemOptions {

    /** Which command lists a directory. */
    public enum Listing {
        /** {@code MLSD} where {@code FEAT} lists {@code MLST}, else {@code LIST}. */
        AUTO,
        /** {@code MLSD} (RFC 3659): exact sizes, types and UTC times to the second or better. */
        MLSD,
        /**
         * {@code LIST -a}, parsed by Apache Commons Net's entry parsers (Unix, Windows/IIS and
         * others, chosen by {@code SYST}): times to the minute, or the day for old files.
         */
        LIST
    }

    public FtpOptions {
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(sslContext, "sslContext");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(keepAlive, "keepAlive");
        Objects.requireNonNull(charset, "charset");
        Objects.requireNonNull(listTimeZone, "listTimeZone");
        Objects.requireNonNull(listing, "listing");
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be at least 1, not " + connections);
        }
        // Bounded so that every deadline made from them (a whole answer may take ten read
        // timeouts) is a representable number of nanoseconds: a larger one failed with
        // "long overflow" where the command began, naming nothing.
        Timeouts.requireTimeout("connectTimeout", connectTimeout);
        Timeouts.requireTimeout("readTimeout", readTimeout);
        Timeouts.requireInterval("keepAlive", keepAlive);
        password.ifPresent(p -> {
            if (p.indexOf('\r') >= 0 || p.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("a password cannot hold a line break (it would end the PASS command)");
            }
        });
    }


    public static FtpOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String toString() {
        return "FtpOptions[password=" + (password.isPresent() ? "***" : "none") + ", implicitTls=" + implicitTls
                + ", sslContext=" + sslContext.map(c -> c.getProtocol()).orElse("default") + ", passive=" + passive
                + ", connections=" + connections + ", connectTimeout=" + connectTimeout + ", readTimeout="
                + readTimeout + ", keepAlive=" + keepAlive + ", charset=" + charset + ", listTimeZone=" + listTimeZone
                + ", listing=" + listing + "]";
    }

    /** Builds {@link FtpOptions}; every setting has the default documented on the record. */
    public static final class Builder {
        private String password;
        private boolean implicitTls;
        private SSLContext sslContext;
        private boolean passive = true;
        private int connections = 4;
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration readTimeout = Duration.ofSeconds(60);
        private Duration keepAlive = Duration.ofSeconds(30);
        private Charset charset = StandardCharsets.UTF_8;
        private ZoneId listTimeZone = ZoneOffset.UTC;
        private Listing listing = Listing.AUTO;

        public Builder password(String password) {
            this.password = Objects.requireNonNull(password, "password");
            return this;
        }

        public Builder implicitTls(boolean implicit) {
            this.implicitTls = implicit;
            return this;
        }

        public Builder sslContext(SSLContext context) {
            this.sslContext = Objects.requireNonNull(context, "sslContext");
            return this;
        }

        public Builder passive(boolean passive) {
            this.passive = passive;
            return this;
        }

        public Builder connections(int n) {
            this.connections = n;
            return this;
        }

        public Builder connectTimeout(Duration d) {
            this.connectTimeout = d;
            return this;
        }

        public Builder readTimeout(Duration d) {
            this.readTimeout = d;
            return this;
        }

        public Builder keepAlive(Duration d) {
            this.keepAlive = d;
            return this;
        }

        public Builder charset(Charset c) {
            this.charset = c;
            return this;
        }

        public Builder listTimeZone(ZoneId zone) {
            this.listTimeZone = zone;
            return this;
        }

        public Builder listing(Listing l) {
            this.listing = l;
            return this;
        }

        public FtpOptions build() {
            return new FtpOptions(Optional.ofNullable(password), implicitTls, Optional.ofNullable(sslContext), passive,
                    connections, connectTimeout, readTimeout, keepAlive, charset, listTimeZone, listing);
        }
    }
}
