package dev.remotepath.http;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Index pages that show dates without a zone (Apache, lighttpd, npm http-server: the server's
 * local time) are read as UTC, which shifts every mtime by the server's offset: a mirror would
 * then copy every file again on every run. HTTP's own dates are UTC by definition (RFC 9110),
 * so the first such page of a file system is calibrated with one HEAD of one of its dated
 * files: the difference between the page's time and {@code Last-Modified}, rounded to the
 * quarter hour every zone offset is a multiple of, is the server's offset, and every unzoned
 * date of that server is corrected by it. One request per file system, not per file.
 *
 * <p>A difference that is no whole quarter hour within the page's precision (the file changed
 * between the listing and the HEAD), beyond 14 hours, or a server that sends no
 * {@code Last-Modified} leaves the dates as UTC, and the next page tries again (at most
 * {@value #ATTEMPTS} times). A zone with daylight saving shows dates from the other half of the
 * year an hour away from the calibrated offset; such a file differs by exactly that hour and
 * is looked at with a HEAD of its own by the syncer rather than copied (docs/http.md).
 */
final class ZoneCalibration {

    private static final Logger LOG = LoggerFactory.getLogger(ZoneCalibration.class);
    private static final long QUARTER_HOUR = 15 * 60;
    private static final long MAX_OFFSET = 14 * 3600;
    static final int ATTEMPTS = 3;

    /** What to HEAD a file with: its stat from the server's own headers. */
    interface Head {
        FileStat stat(RemotePath file) throws IOException;
    }

    /** Local time minus UTC, once learned. */
    private volatile Duration offset;
    private int attempts;

    /** The server's offset, if learned: for the docs' and tests' sake. */
    Optional<Duration> offset() {
        return Optional.ofNullable(offset);
    }

    /** {@code entries} of {@code directory}'s page with their unzoned dates moved to UTC. */
    List<ListedEntry> correct(RemotePath directory, List<ListedEntry> entries, Head head) {
        Duration o = offset;
        if (o == null) {
            o = learn(directory, entries, head);
            if (o == null) {
                return entries;
            }
        }
        if (o.isZero()) {
            return entries;
        }
        List<ListedEntry> out = new ArrayList<>(entries.size());
        for (ListedEntry e : entries) {
            FileStat s = e.stat();
            out.add(s.lastModified().isEmpty() ? e : new ListedEntry(e.name(), shifted(s, o)));
        }
        return out;
    }

    private synchronized Duration learn(RemotePath directory, List<ListedEntry> entries, Head head) {
        if (offset != null || attempts >= ATTEMPTS) {
            return offset;
        }
        ListedEntry sample = entries.stream().filter(e -> e.stat().isRegularFile() && e.stat().lastModified().isPresent())
                .findFirst().orElse(null);
        if (sample == null) {
            return null; // nothing dated to calibrate with on this page; the next may have
        }
        attempts++;
        Optional<Instant> utc;
        try {
            utc = head.stat(directory.child(sample.name())).lastModified();
        } catch (IOException | RuntimeException e) {
            LOG.debug("{}: cannot calibrate the page's dates with {}: {}", directory, sample.name(), e.toString());
            return null;
        }
        if (utc.isEmpty()) {
            LOG.debug("{}: the server sends no Last-Modified: its pages' dates are taken as UTC", directory);
            offset = Duration.ZERO;
            return offset;
        }
        Instant shown = sample.stat().lastModified().get();
        long diff = shown.getEpochSecond() - utc.get().getEpochSecond();
        long rounded = Math.round((double) diff / QUARTER_HOUR) * QUARTER_HOUR;
        long residual = diff - rounded;
        long precision = Math.max(1, sample.stat().lastModifiedPrecision().toSeconds());
        if (Math.abs(rounded) > MAX_OFFSET || residual > 1 || residual < -precision - 1) {
            LOG.debug("{}: {} shown at {}, Last-Modified {}: no zone offset explains it; trying another page",
                    directory, sample.name(), shown, utc.get());
            return null;
        }
        offset = Duration.ofSeconds(rounded);
        if (rounded != 0) {
            LOG.info("{}: the server shows dates in a zone {} from UTC without saying so; corrected", directory, offset);
        }
        return offset;
    }

    private static FileStat shifted(FileStat s, Duration o) {
        return s.toBuilder().lastModified(s.lastModified().get().minus(o), s.lastModifiedPrecision()).build();
    }
}
