package dev.remotepath;

import java.util.Locale;
import java.util.Optional;

/** The digests RemotePath computes by streaming content, or asks a backend for natively. */
public enum ChecksumAlgorithm {
    MD5("MD5", 32),
    SHA1("SHA-1", 40),
    SHA256("SHA-256", 64),
    SHA512("SHA-512", 128),
    CRC32(null, 8),
    CRC32C(null, 8),
    /** CRC-64/NVME, S3's default checksum for new objects. */
    CRC64NVME(null, 16);

    private final String jcaName;
    private final int hexLength;

    ChecksumAlgorithm(String jcaName, int hexLength) {
        this.jcaName = jcaName;
        this.hexLength = hexLength;
    }

    /** The {@link java.security.MessageDigest} name, empty for the CRCs. */
    public Optional<String> jcaName() {
        return Optional.ofNullable(jcaName);
    }

    /** Length of the lower-case hex form of a value of this algorithm. */
    public int hexLength() {
        return hexLength;
    }

    /**
     * Parses a user-supplied name leniently: {@code sha256}, {@code SHA-256}, {@code sha_256}
     * and {@code crc32c} are all accepted.
     *
     * @throws IllegalArgumentException naming the accepted values when the name is unknown
     */
    public static ChecksumAlgorithm parse(String name) {
        String key = name.toUpperCase(Locale.ROOT).replace("-", "").replace("_", "");
        for (ChecksumAlgorithm a : values()) {
            if (a.name().equals(key)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown checksum algorithm '" + name
                + "'; expected one of md5, sha1, sha256, sha512, crc32, crc32c, crc64nvme");
    }
}
