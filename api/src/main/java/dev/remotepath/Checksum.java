package dev.remotepath;

import java.util.Locale;
import java.util.Objects;

/**
 * A digest of a file's content: the algorithm, its lower-case hex value, and where it came
 * from, so that a report can say whether content was read to get it.
 */
public record Checksum(ChecksumAlgorithm algorithm, String hex, Origin origin) {

    /** How a checksum was obtained. */
    public enum Origin {
        /** Computed by the server on request (SFTP check-file, ...): no content crossed the wire. */
        NATIVE,
        /** Known from metadata already at hand (S3 ETag, HTTP Digest header). */
        METADATA,
        /** Computed here by reading the whole content. */
        STREAMED
    }

    public Checksum {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(origin, "origin");
        hex = hex.toLowerCase(Locale.ROOT);
        if (hex.length() != algorithm.hexLength() || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalArgumentException("not a " + algorithm + " hex value: '" + hex + "'");
        }
    }

    /** True when both name the same algorithm and value, wherever they came from. */
    public boolean sameValueAs(Checksum other) {
        return algorithm == other.algorithm && hex.equals(other.hex);
    }

    @Override
    public String toString() {
        return algorithm.name().toLowerCase(Locale.ROOT) + ":" + hex;
    }
}
