package dev.remotepath;

import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What a backend knows about a path: its type and whichever of size, times, permissions,
 * identity and checksums it reported. Every field other than {@code type} may be unknown
 * (an empty {@code Optional}); a listing often carries only part of a full stat.
 *
 * <p>{@code lastModifiedPrecision} says how coarse {@code lastModified} is (one nanosecond
 * on ext4, one second on SFTPv3 and S3, one minute on most HTTP index pages) so that two
 * times from different backends can be compared fairly. {@code sizeExact} is false when the
 * size is a rounded display value such as an HTTP index's {@code 1.2K}.
 *
 * @param type          the kind of object
 * @param size          the size in bytes, when known
 * @param sizeExact     false when {@code size} is an approximation
 * @param lastModified  the modification time, when known
 * @param lastModifiedPrecision the granularity of {@code lastModified}
 * @param lastAccess    the access time, when known
 * @param changeTime    the status-change time (POSIX ctime), when known: moved forward by every
 *                      change of content or metadata (an mtime set back included) and never
 *                      settable, so a time after it proves nothing changed since. Never a
 *                      creation time: quick-check against storage times relies on it.
 * @param permissions   the POSIX permissions, when known
 * @param fileKey       an identity that is equal for two paths naming the same object (an inode)
 * @param etag          an opaque version tag (HTTP/S3 ETag)
 * @param checksums     digests known from metadata alone, by algorithm (lower-case hex)
 * @param storedAt      when the server stored this content, where that differs from the
 *                      user-visible {@code lastModified} and a listing carries only it (S3's
 *                      {@code LastModified}: the upload time, while the file's own mtime lives in
 *                      metadata a listing does not return). Content unchanged since then has an
 *                      mtime no later than this, which lets quick-check skip a stat per entry.
 */
public record FileStat(
        FileType type,
        OptionalLong size,
        boolean sizeExact,
        Optional<Instant> lastModified,
        Duration lastModifiedPrecision,
        Optional<Instant> lastAccess,
        Optional<Instant> changeTime,
        Optional<Set<PosixFilePermission>> permissions,
        Optional<String> fileKey,
        Optional<String> etag,
        Map<ChecksumAlgorithm, String> checksums,
        Optional<Instant> storedAt) {

    /** Precision used when a backend gives no better figure: one nanosecond (exact). */
    public static final Duration EXACT = Duration.ofNanos(1);

    public FileStat {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(size, "size");
        Objects.requireNonNull(lastModified, "lastModified");
        Objects.requireNonNull(lastModifiedPrecision, "lastModifiedPrecision");
        Objects.requireNonNull(lastAccess, "lastAccess");
        Objects.requireNonNull(changeTime, "changeTime");
        Objects.requireNonNull(fileKey, "fileKey");
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(storedAt, "storedAt");
        if (lastModifiedPrecision.isNegative() || lastModifiedPrecision.isZero()) {
            throw new IllegalArgumentException("precision must be positive: " + lastModifiedPrecision);
        }
        if (permissions.isPresent()) {
            Set<PosixFilePermission> copy = Set.copyOf(permissions.get());
            if (copy != permissions.get()) { // copyOf returns an immutable set itself: no re-wrap per listed entry
                permissions = Optional.of(copy);
            }
        }
        checksums = checksums.isEmpty() ? Map.of() : Map.copyOf(checksums);
    }

    /**
     * What a listing gives for one entry: type, size, mtime and, where the listing has them, the
     * permissions. Built without a {@link Builder}: a listing makes one per entry, and in a
     * fresh JVM (or where C2 cannot scalar-replace it) the builder is a fifth of that cost.
     *
     * @param size      empty where the listing shows none (directories, a dash)
     * @param sizeExact false for a rounded size ({@code 1.2K})
     */
    public static FileStat listed(FileType type, OptionalLong size, boolean sizeExact, Optional<Instant> lastModified,
            Duration lastModifiedPrecision, Optional<Set<PosixFilePermission>> permissions) {
        return new FileStat(type, size, sizeExact, lastModified, lastModifiedPrecision, Optional.empty(),
                Optional.empty(), permissions, Optional.empty(), Optional.empty(), Map.of(), Optional.empty());
    }

    /** A stat that knows only the type, as a types-only listing gives (one shared value per type). */
    public static FileStat ofType(FileType type) {
        return TYPE_ONLY[type.ordinal()];
    }

    private static final FileStat[] TYPE_ONLY = new FileStat[FileType.values().length];

    static {
        for (FileType t : FileType.values()) {
            TYPE_ONLY[t.ordinal()] = builder(t).build();
        }
    }

    public static Builder builder(FileType type) {
        return new Builder(type);
    }

    /** A builder pre-filled with this stat's fields. */
    public Builder toBuilder() {
        Builder b = new Builder(type);
        b.size = size;
        b.sizeExact = sizeExact;
        b.lastModified = lastModified;
        b.precision = lastModifiedPrecision;
        b.lastAccess = lastAccess;
        b.changeTime = changeTime;
        b.permissions = permissions;
        b.fileKey = fileKey;
        b.etag = etag;
        b.checksums = checksums;
        b.storedAt = storedAt;
        return b;
    }

    public boolean isRegularFile() {
        return type == FileType.FILE;
    }

    public boolean isDirectory() {
        return type == FileType.DIRECTORY;
    }

    public boolean isSymbolicLink() {
        return type == FileType.SYMLINK;
    }

    /** True when both the exact size and the modification time are known: what quick-check needs. */
    public boolean hasSizeAndTime() {
        return size.isPresent() && sizeExact && lastModified.isPresent();
    }

    /** Builds a {@link FileStat}; every field but the type starts unknown. */
    public static final class Builder {
        private final FileType type;
        private OptionalLong size = OptionalLong.empty();
        private boolean sizeExact = true;
        private Optional<Instant> lastModified = Optional.empty();
        private Duration precision = EXACT;
        private Optional<Instant> lastAccess = Optional.empty();
        private Optional<Instant> changeTime = Optional.empty();
        private Optional<Set<PosixFilePermission>> permissions = Optional.empty();
        private Optional<String> fileKey = Optional.empty();
        private Optional<String> etag = Optional.empty();
        private Map<ChecksumAlgorithm, String> checksums = Map.of(); // made mutable on first checksum
        private Optional<Instant> storedAt = Optional.empty();

        private Builder(FileType type) {
            this.type = Objects.requireNonNull(type, "type");
        }

        public Builder size(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("negative size " + bytes);
            }
            this.size = OptionalLong.of(bytes);
            this.sizeExact = true;
            return this;
        }

        /** A size known only roughly (a page's {@code 1.2K}). */
        public Builder approximateSize(long bytes) {
            size(bytes);
            this.sizeExact = false;
            return this;
        }

        public Builder lastModified(Instant time, Duration precision) {
            this.lastModified = Optional.of(time);
            this.precision = Objects.requireNonNull(precision, "precision");
            return this;
        }

        public Builder lastAccess(Instant time) {
            this.lastAccess = Optional.of(time);
            return this;
        }

        public Builder changeTime(Instant time) {
            this.changeTime = Optional.of(time);
            return this;
        }

        public Builder permissions(Set<PosixFilePermission> perms) {
            this.permissions = Optional.of(perms);
            return this;
        }

        public Builder fileKey(String key) {
            this.fileKey = Optional.of(key);
            return this;
        }

        public Builder etag(String tag) {
            this.etag = Optional.of(tag);
            return this;
        }

        public Builder checksum(ChecksumAlgorithm algorithm, String hex) {
            if (!(checksums instanceof EnumMap)) {
                checksums = checksums.isEmpty() ? new EnumMap<>(ChecksumAlgorithm.class) : new EnumMap<>(checksums);
            }
            this.checksums.put(algorithm, new Checksum(algorithm, hex, Checksum.Origin.METADATA).hex());
            return this;
        }

        /** When the server stored the content ({@link FileStat#storedAt()}). */
        public Builder storedAt(Instant time) {
            this.storedAt = Optional.of(time);
            return this;
        }

        public FileStat build() {
            return new FileStat(type, size, sizeExact, lastModified, precision, lastAccess, changeTime,
                    permissions, fileKey, etag, checksums, storedAt);
        }
    }
}
