package dev.remotepath.webdav;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.wire.WireTimes;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;

/**
 * Where a WebDAV server keeps a file's modification time, and the stats that follow from it.
 *
 * <p>A server's {@code getlastmodified} is when the file was written there, to the second, and
 * no standard method sets it. Where the server keeps dead properties (Apache {@code mod_dav_fs},
 * lighttpd with its property database, Nextcloud, IIS), the mtime is the property
 * {@code <R:mtime xmlns:R="https://remotepath.dev/ns/">}, whose text is the time to the
 * nanosecond (RFC 3339) and, after a space, the server's time of the write in epoch seconds.
 * A listing honours it only while {@code getlastmodified} is not later than that second: a file
 * another client rewrote since then (which leaves dead properties behind on most servers) is
 * given the server's time again, so a quick-check sees the change instead of trusting a stale
 * property. ownCloud and Nextcloud take the time with the upload ({@code X-OC-Mtime}, sent with
 * every PUT) and answer {@code X-OC-Mtime: accepted}; no property is written there.
 */
final class WebDavMtimes {

    static final String OC_MTIME = "X-OC-Mtime";
    private static final Duration SECOND = Duration.ofSeconds(1);
    /**
     * How much later than the recorded write the server's own time may be and the property still
     * stand: servers stamp Date once a second (lighttpd's may lag its files' times by one), and
     * the time recorded by a later PROPPATCH is our estimate of the server's clock.
     */
    static final long SLACK_SECONDS = 2;

    private final boolean kept;
    private final WebDavWire wire;
    private final WebDavFileSystem fs;

    private WebDavMtimes(boolean kept, WebDavWire wire, WebDavFileSystem fs) {
        this.kept = kept;
        this.wire = wire;
        this.fs = fs;
    }

    /**
     * The mode {@code requested} resolves to; {@link WebDavOptions.Mtimes#AUTO} asks the server
     * with a PROPPATCH that removes a property nobody sets from {@code probePath} (or the nearest directory
     * above it that answers for itself): a 2xx for it means dead properties are kept; anything
     * else, a refused login included, means the server's own times are used.
     */
    static WebDavMtimes resolve(WebDavOptions.Mtimes requested, WebDavWire wire, WebDavFileSystem fs, String probePath)
            throws IOException {
        return switch (requested) {
            case PROPERTY -> new WebDavMtimes(true, wire, fs);
            case SERVER -> new WebDavMtimes(false, wire, fs);
            case AUTO -> new WebDavMtimes(probe(wire, fs, probePath), wire, fs);
        };
    }

    private static boolean probe(WebDavWire wire, WebDavFileSystem fs, String probePath) throws IOException {
        // removes a property nobody sets: the probe changes nothing, whatever it is sent to
        byte[] body = ("<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:R=\""
                + Multistatus.RP + "\"><D:remove><D:prop><R:probe/></D:prop></D:remove></D:propertyupdate>")
                .getBytes(StandardCharsets.UTF_8);
        RemotePath at = fs.path(probePath);
        while (true) {
            boolean root = at.parent() == null;
            URI uri = fs.uriOf(at, root);
            try (WebDavWire.Exchange ex = wire.send("PROPPATCH", uri, null, body, "application/xml; charset=utf-8")) {
                int status = ex.status();
                if (status == 207) {
                    return allPropstatsSucceeded(WebDavWire.body(ex, 1 << 20, at.toString()));
                }
                if (status / 100 == 2) {
                    return true;
                }
                // Not this resource's answer (missing, a file's '/' form, a redirect, no right
                // here): ask the directory above. A refusal of the method itself, a login
                // refused, or the root's own answer decide. (A read-only login says nothing of
                // reads, which work with the server's times.)
                boolean undecided = status / 100 == 3 || status == 400 || status == 403 || status == 404 || status == 409;
                if (!undecided || root) {
                    return false;
                }
            }
            at = at.parent();
        }
    }

    /** A PROPPATCH's multistatus: every response and propstat in it 2xx (a 403 or 409 propstat refuses the property). */
    private static boolean allPropstatsSucceeded(byte[] body) {
        try {
            java.util.List<Multistatus.Response> rs = Multistatus.parse(body, body.length);
            return !rs.isEmpty() && rs.stream().allMatch(r -> r.status() < 300 && !r.anyPropertyRefused());
        } catch (Multistatus.MalformedException e) {
            return false;
        }
    }

    boolean kept() {
        return kept;
    }

    /** A listed or stat'ed resource as a {@link FileStat}. */
    FileStat stat(Multistatus.Response r) {
        FileStat.Builder b = FileStat.builder(r.collection() ? FileType.DIRECTORY : FileType.FILE);
        if (!r.collection()) {
            r.contentLength().ifPresent(b::size);
        }
        r.etag().ifPresent(b::etag);
        r.lastModified().ifPresent(b::storedAt);
        Optional<Instant> own = kept ? r.mtime().flatMap(v -> honoured(v, r.lastModified())) : Optional.empty();
        if (own.isPresent()) {
            b.lastModified(own.get(), Duration.ofNanos(1));
        } else {
            r.lastModified().ifPresent(t -> b.lastModified(t, SECOND));
        }
        return b.build();
    }

    /** The property's time, if it parses and the server's own time is not later than the write it records. */
    static Optional<Instant> honoured(String value, Optional<Instant> serverTime) {
        String[] parts = Multistatus.fields(value);
        if (parts.length != 2) {
            return Optional.empty();
        }
        try {
            Instant mtime = WireTimes.isoInstant(parts[0]);
            long writtenAt = Long.parseLong(parts[1]);
            if (serverTime.isPresent() && serverTime.get().getEpochSecond() > writtenAt + SLACK_SECONDS) {
                return Optional.empty(); // changed by another client since
            }
            return Optional.of(mtime);
        } catch (DateTimeParseException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** After a PUT of {@code file} was answered: keeps the mtime the write was given, if any. */
    void written(RemotePath file, Optional<Instant> mtime, HttpFields headers) throws IOException {
        if (mtime.isEmpty() || !kept) {
            return;
        }
        String oc = headers.get(OC_MTIME);
        if (oc != null && oc.strip().equalsIgnoreCase("accepted")) {
            return; // ownCloud / Nextcloud set it with the upload
        }
        set(file, mtime.get(), WebDavWire.serverDate(headers).orElse(wire.serverNow()));
    }

    /** Sets the property of {@code path}: {@code time}, written at {@code writtenAt} by the server's clock. */
    void set(RemotePath path, Instant time, Instant writtenAt) throws IOException {
        String value = time + " " + writtenAt.getEpochSecond();
        byte[] body = ("<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propertyupdate xmlns:D=\"DAV:\" xmlns:R=\""
                + Multistatus.RP + "\"><D:set><D:prop><R:mtime>" + value
                + "</R:mtime></D:prop></D:set></D:propertyupdate>").getBytes(StandardCharsets.UTF_8);
        URI uri = fs.uriOf(path, false);
        try (WebDavWire.Exchange ex = wire.send("PROPPATCH", uri, null, body, "application/xml; charset=utf-8")) {
            int status = ex.status();
            if (status == 207) {
                if (!allPropstatsSucceeded(WebDavWire.body(ex, 1 << 20, path.toString()))) {
                    throw new FileSystemException(path.toString(), null, "the server refused to keep its modification "
                            + "time (PROPPATCH of a dead property); WebDavOptions.Mtimes.SERVER uses the server's own");
                }
                return;
            }
            if (status / 100 != 2) {
                throw WebDavErrors.of("PROPPATCH", uri, status, path);
            }
        }
    }
}
