package dev.remotepath.s3;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * What S3's answers say about an object, as a {@link FileStat}: size, the mtime kept in user
 * metadata (decimal seconds, as rclone writes it) else the upload time to the second, the
 * upload time as {@code storedAt}, the ETag, and the MD5 it is where it is one.
 */
final class S3ObjectStats {

    private static final Logger LOG = LoggerFactory.getLogger(S3ObjectStats.class);
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Pattern MD5_ETAG = Pattern.compile("[0-9a-fA-F]{32}");

    private final boolean etagIsMd5;

    S3ObjectStats(boolean etagIsMd5) {
        this.etagIsMd5 = etagIsMd5;
    }

    /** A file's stat from a HEAD. */
    FileStat fileStat(HeadObjectResponse h) {
        return objectStat(h.contentLength(), h.metadata(), h.lastModified(), h.eTag(), h.serverSideEncryption());
    }

    /**
     * A file's stat from what a HEAD or GET response says: size, the stored mtime (else the
     * upload time, to the second), the upload time as {@code storedAt}, the ETag, and the MD5
     * it is for objects not encrypted with a KMS key.
     */
    FileStat objectStat(Long size, Map<String, String> metadata, Instant lastModified, String eTag,
            ServerSideEncryption sse) {
        FileStat.Builder b = FileStat.builder(FileType.FILE);
        if (size != null) {
            b.size(size);
        }
        Optional<Instant> mtime = parseMtime(metadata.get(S3FileSystem.MTIME_KEY));
        if (mtime.isPresent()) {
            b.lastModified(mtime.get(), FileStat.EXACT);
        } else if (lastModified != null) {
            b.lastModified(lastModified, SECOND);
        }
        if (lastModified != null) {
            b.storedAt(storedAt(lastModified));
        }
        if (eTag != null) {
            String etag = unquote(eTag);
            b.etag(etag);
            if (isMd5(etag) && !encryptedWithKey(sse)) {
                b.checksum(ChecksumAlgorithm.MD5, etag);
            }
        }
        return b.build();
    }

    /**
     * An object's upload time as every answer can give it: to the second. A HEAD's
     * Last-Modified is an HTTP date, whole seconds; AWS lists whole seconds too, but other
     * stores (S3Mock) list milliseconds, and a listed time must compare equal to a stat's.
     */
    static Instant storedAt(Instant lastModified) {
        return lastModified.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    }

    boolean isMd5(String etag) {
        return etagIsMd5 && MD5_ETAG.matcher(etag).matches();
    }

    static boolean encryptedWithKey(ServerSideEncryption sse) {
        return sse == ServerSideEncryption.AWS_KMS || sse == ServerSideEncryption.AWS_KMS_DSSE;
    }

    static String unquote(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1)
                : etag;
    }

    /** The listing's view of an object: size, upload time, ETag; the mtime needs a HEAD and is left unknown. */
    FileStat listedFileStat(software.amazon.awssdk.services.s3.model.S3Object o) {
        FileStat.Builder b = FileStat.builder(FileType.FILE);
        if (o.size() != null) {
            b.size(o.size());
        }
        if (o.lastModified() != null) {
            b.storedAt(storedAt(o.lastModified()));
        }
        if (o.eTag() != null) {
            String etag = unquote(o.eTag());
            b.etag(etag);
            if (isMd5(etag)) {
                b.checksum(ChecksumAlgorithm.MD5, etag);
            }
        }
        return b.build();
    }

    /** Decimal seconds since the epoch ({@code 1700000000.123456789}), as rclone stores them. */
    static Optional<Instant> parseMtime(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            BigDecimal seconds = new BigDecimal(value.trim());
            BigDecimal whole = seconds.setScale(0, RoundingMode.FLOOR);
            long nanos = seconds.subtract(whole).movePointRight(9).setScale(0, RoundingMode.HALF_UP).longValueExact();
            return Optional.of(Instant.ofEpochSecond(whole.longValueExact(), nanos));
        } catch (NumberFormatException | ArithmeticException | java.time.DateTimeException e) {
            LOG.debug("ignoring unparsable mtime metadata '{}'", value);
            return Optional.empty();
        }
    }

    static String formatMtime(Instant time) {
        return BigDecimal.valueOf(time.getEpochSecond()).add(BigDecimal.valueOf(time.getNano(), 9)).toPlainString();
    }

    /**
     * The checksum S3 stored with the object, from its HEAD: the ETag for MD5 (single-part, not
     * KMS-encrypted), else the {@code x-amz-checksum-*} value, when it is a whole-object (not
     * composite) one.
     */
    Optional<Checksum> nativeChecksum(HeadObjectResponse h, ChecksumAlgorithm algorithm) {
        String value = switch (algorithm) {
            case MD5 -> {
                String etag = h.eTag() == null ? "" : unquote(h.eTag());
                yield isMd5(etag) && !encryptedWithKey(h.serverSideEncryption()) ? etag : null;
            }
            case SHA1 -> base64ToHex(h.checksumSHA1());
            case SHA256 -> base64ToHex(h.checksumSHA256());
            case CRC32 -> base64ToHex(h.checksumCRC32());
            case CRC32C -> base64ToHex(h.checksumCRC32C());
            case CRC64NVME -> base64ToHex(h.checksumCRC64NVME());
            default -> null;
        };
        if (value == null || value.length() != algorithm.hexLength()) {
            return Optional.empty();
        }
        return Optional.of(new Checksum(algorithm, value, Checksum.Origin.METADATA));
    }

    /** S3's base64 checksum as hex; null for absent or composite ({@code ...-N}) values. */
    private static String base64ToHex(String b64) {
        if (b64 == null || b64.contains("-")) {
            return null;
        }
        try {
            return HexFormat.of().formatHex(Base64.getDecoder().decode(b64));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
