package dev.remotepath.azure;

import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.wire.WireTimes;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Azure's answers say about a blob, as a {@link FileStat}: size, the mtime kept in the
 * blob's metadata ({@code mtime}, RFC 3339 with nanoseconds, as rclone's azureblob backend
 * writes it) else Last-Modified to the second, Last-Modified as {@code storedAt}, the ETag, and
 * the Content-MD5 where the blob has one. Listings carry metadata too, so a listed blob's stat
 * equals its HEAD's.
 */
final class AzureBlobStats {

    private static final Logger LOG = LoggerFactory.getLogger(AzureBlobStats.class);

    /** The metadata key of the modification time, rclone's. */
    static final String MTIME_KEY = "mtime";
    /** The metadata that marks a zero-length blob as a directory (ADLS, rclone, Storage Explorer). */
    static final String FOLDER_KEY = "hdi_isfolder";

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final DateTimeFormatter MTIME_OUT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSXXX")
            .withZone(ZoneOffset.UTC);

    private AzureBlobStats() {
    }

    /** Whether a blob is a directory marker: zero bytes, and named {@code dir/} or carrying {@code hdi_isfolder=true}. */
    static boolean isMarker(String name, long size, Map<String, String> metadata) {
        return size == 0 && (name.endsWith("/") || "true".equalsIgnoreCase(metadata(metadata, FOLDER_KEY)));
    }

    static FileStat fileStat(long size, Map<String, String> metadata, OffsetDateTime lastModified, String eTag,
            byte[] contentMd5) {
        FileStat.Builder b = FileStat.builder(FileType.FILE).size(size);
        Optional<Instant> mtime = parseMtime(metadata(metadata, MTIME_KEY));
        if (mtime.isPresent()) {
            b.lastModified(mtime.get(), FileStat.EXACT);
        } else if (lastModified != null) {
            b.lastModified(storedAt(lastModified), SECOND);
        }
        if (lastModified != null) {
            b.storedAt(storedAt(lastModified));
        }
        if (eTag != null) {
            b.etag(unquote(eTag));
        }
        if (contentMd5 != null && contentMd5.length == 16) {
            b.checksum(ChecksumAlgorithm.MD5, HexFormat.of().formatHex(contentMd5));
        }
        return b.build();
    }

    static FileStat directoryStat(Map<String, String> metadata, OffsetDateTime lastModified) {
        FileStat.Builder b = FileStat.builder(FileType.DIRECTORY);
        Optional<Instant> mtime = parseMtime(metadata(metadata, MTIME_KEY));
        mtime.ifPresent(t -> b.lastModified(t, FileStat.EXACT));
        if (lastModified != null) {
            b.storedAt(storedAt(lastModified));
        }
        return b.build();
    }

    /** Last-Modified as every answer gives it: HEAD's header and the listing's XML both to the second. */
    static Instant storedAt(OffsetDateTime lastModified) {
        return lastModified.toInstant().truncatedTo(ChronoUnit.SECONDS);
    }

    /** A metadata value by key, ignoring case (Azure keeps keys case-insensitively). */
    static String metadata(Map<String, String> metadata, String key) {
        if (metadata == null) {
            return null;
        }
        String v = metadata.get(key);
        if (v != null) {
            return v;
        }
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            if (e.getKey().equalsIgnoreCase(key)) {
                return e.getValue();
            }
        }
        return null;
    }

    static Optional<Instant> parseMtime(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(WireTimes.isoOffsetDateTime(value.strip())); // read per blob of a listing
        } catch (DateTimeParseException e) {
            LOG.debug("ignoring unparsable mtime metadata '{}'", value);
            return Optional.empty();
        }
    }

    /** RFC 3339 with nanoseconds in UTC ({@code 2006-01-02T15:04:05.000000000Z}), as rclone writes it. */
    static String formatMtime(Instant time) {
        return MTIME_OUT.format(time);
    }

    static String unquote(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1)
                : etag;
    }
}
