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
 * identity and checksums it reported. Every property other than {@link #type()} may be unknown
 * (an empty {@code Optional}); a listing often carries only part of a full stat.
 *
 * <p>{@link #lastModifiedPrecision()} says how coarse {@link #lastModified()} is (one nanosecond
 * on ext4, one second on SFTPv3 and S3, one minute on most HTTP index pages) so that two
 * times from different backends can be compared fairly. {@link #sizeExact()} is false when the
 * size is a rounded display value such as an HTTP index's {@code 1.2K}.
 *
 * <p>An immutable value, equal to another with the same properties. Made by a {@link Builder}
 * (or {@link #listed} for a listing's entries), never by a public constructor, so a property
 * added later breaks no caller. What listings carry (type, size, mtime, ctime, permissions) is
 * held in the value itself, owner and group as one interned pair; the rest (access time, file
 * key, ETag, checksums, storage time) in one shared "none" unless a backend reported any, so an
 * entry of a large listing costs little more than its name.
 */
public final class FileStat {

    /** Precision used when a backend gives no better figure: one nanosecond (exact). */
    public static final Duration EXACT = Duration.ofNanos(1);

    private final FileType type;
    private final OptionalLong size;
    private final boolean sizeExact;
    private final Optional<Instant> lastModified;
    private final Duration lastModifiedPrecision;
    private final Optional<Instant> changeTime;
    private final Optional<Set<PosixFilePermission>> permissions;
    private final Extras extras;
    /** Owner and group, shared between the entries of a listing ({@link Owners#NONE} when unknown). */
    private final Owners owners;

    /**
     * A file's owner and group as the backend names them. Few distinct pairs exist on a server,
     * so the values are interned (up to a bound): an entry that carries them costs one reference.
     */
    private record Owners(Optional<String> user, Optional<String> group) {
        static final Owners NONE = new Owners(Optional.empty(), Optional.empty());
        private static final java.util.concurrent.ConcurrentHashMap<Owners, Owners> SEEN =
                new java.util.concurrent.ConcurrentHashMap<>();

        static Owners of(Optional<String> user, Optional<String> group) {
            if (user.isEmpty() && group.isEmpty()) {
                return NONE;
            }
            Owners o = new Owners(user, group);
            Owners seen = SEEN.get(o);
            if (seen != null) {
                return seen;
            }
            if (SEEN.size() < 4096) { // a bound, so a server inventing owners cannot grow it
                seen = SEEN.putIfAbsent(o, o);
            }
            return seen != null ? seen : o;
        }
    }

    /** The properties few listings carry; {@link Extras#NONE} when none is known. */
    private record Extras(Optional<Instant> lastAccess, Optional<String> fileKey, Optional<String> etag,
            Map<ChecksumAlgorithm, String> checksums, Optional<Instant> storedAt) {
        static final Extras NONE = new Extras(Optional.empty(), Optional.empty(), Optional.empty(), Map.of(),
                Optional.empty());

        static Extras of(Optional<Instant> lastAccess, Optional<String> fileKey, Optional<String> etag,
                Map<ChecksumAlgorithm, String> checksums, Optional<Instant> storedAt) {
            Objects.requireNonNull(lastAccess, "lastAccess");
            Objects.requireNonNull(fileKey, "fileKey");
            Objects.requireNonNull(etag, "etag");
            Objects.requireNonNull(storedAt, "storedAt");
            if (lastAccess.isEmpty() && fileKey.isEmpty() && etag.isEmpty() && checksums.isEmpty() && storedAt.isEmpty()) {
                return NONE;
            }
            return new Extras(lastAccess, fileKey, etag, checksums.isEmpty() ? Map.of() : Map.copyOf(checksums), storedAt);
        }
    }

    private FileStat(FileType type, OptionalLong size, boolean sizeExact, Optional<Instant> lastModified,
            Duration lastModifiedPrecision, Optional<Instant> changeTime, Optional<Set<PosixFilePermission>> permissions,
            Extras extras, Owners owners) {
        this.type = Objects.requireNonNull(type, "type");
        this.size = Objects.requireNonNull(size, "size");
        this.sizeExact = sizeExact;
        this.lastModified = Objects.requireNonNull(lastModified, "lastModified");
        this.lastModifiedPrecision = Objects.requireNonNull(lastModifiedPrecision, "lastModifiedPrecision");
        this.changeTime = Objects.requireNonNull(changeTime, "changeTime");
        if (lastModifiedPrecision.isNegative() || lastModifiedPrecision.isZero()) {
            throw new IllegalArgumentException("precision must be positive: " + lastModifiedPrecision);
        }
        if (permissions.isPresent()) {
            Set<PosixFilePermission> copy = Set.copyOf(permissions.get());
            if (copy != permissions.get()) { // copyOf returns an immutable set itself: no re-wrap per listed entry
                permissions = Optional.of(copy);
            }
        }
        this.permissions = permissions;
        this.extras = extras;
        this.owners = owners;
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
        return new FileStat(type, size, sizeExact, lastModified, lastModifiedPrecision, Optional.empty(), permissions,
                Extras.NONE, Owners.NONE);
    }

    /**
     * As {@link #listed(FileType, OptionalLong, boolean, Optional, Duration, Optional)}, with the
     * status-change time a local listing gets at no extra cost ({@link #changeTime()}).
     */
    public static FileStat listed(FileType type, OptionalLong size, boolean sizeExact, Optional<Instant> lastModified,
            Duration lastModifiedPrecision, Optional<Set<PosixFilePermission>> permissions, Optional<Instant> changeTime) {
        return new FileStat(type, size, sizeExact, lastModified, lastModifiedPrecision, changeTime, permissions,
                Extras.NONE, Owners.NONE);
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

    /** A builder pre-filled with this stat's properties. */
    public Builder toBuilder() {
        Builder b = new Builder(type);
        b.size = size;
        b.sizeExact = sizeExact;
        b.lastModified = lastModified;
        b.precision = lastModifiedPrecision;
        b.lastAccess = extras.lastAccess();
        b.changeTime = changeTime;
        b.permissions = permissions;
        b.fileKey = extras.fileKey();
        b.etag = extras.etag();
        b.checksums = extras.checksums();
        b.storedAt = extras.storedAt();
        b.owner = owners.user();
        b.group = owners.group();
        return b;
    }

    /** The kind of object. */
    public FileType type() {
        return type;
    }

    /** The size in bytes, when known. */
    public OptionalLong size() {
        return size;
    }

    /** False when {@link #size()} is an approximation (a page's {@code 1.2K}). */
    public boolean sizeExact() {
        return sizeExact;
    }

    /** The modification time, when known. */
    public Optional<Instant> lastModified() {
        return lastModified;
    }

    /** The granularity of {@link #lastModified()}. */
    public Duration lastModifiedPrecision() {
        return lastModifiedPrecision;
    }

    /** The access time, when known. */
    public Optional<Instant> lastAccess() {
        return extras.lastAccess();
    }

    /**
     * The status-change time (POSIX ctime), when known: moved forward by every change of content
     * or metadata (an mtime set back included) and never settable, so a time after it proves
     * nothing changed since. Never a creation time: quick-check against storage times relies on it.
     */
    public Optional<Instant> changeTime() {
        return changeTime;
    }

    /** The POSIX permissions, when known. */
    public Optional<Set<PosixFilePermission>> permissions() {
        return permissions;
    }

    /**
     * The owner, as the backend names it, when known: a user name, or a numeric id where the
     * protocol has only numbers (SFTP version 3's {@code uid}).
     */
    public Optional<String> owner() {
        return owners.user();
    }

    /** The group, as the backend names it (SFTP version 3: the numeric {@code gid}), when known. */
    public Optional<String> group() {
        return owners.group();
    }

    /** An identity that is equal for two paths naming the same object (an inode), when known. */
    public Optional<String> fileKey() {
        return extras.fileKey();
    }

    /** An opaque version tag (HTTP/S3 ETag), when known. */
    public Optional<String> etag() {
        return extras.etag();
    }

    /** Digests known from metadata alone, by algorithm (lower-case hex); empty when none. */
    public Map<ChecksumAlgorithm, String> checksums() {
        return extras.checksums();
    }

    /**
     * When the server stored this content, where that differs from the user-visible
     * {@link #lastModified()} and a listing carries only it (S3's {@code LastModified}: the upload
     * time, while the file's own mtime lives in metadata a listing does not return). Content
     * unchanged since then has an mtime no later than this, which lets quick-check skip a stat
     * per entry.
     */
    public Optional<Instant> storedAt() {
        return extras.storedAt();
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

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof FileStat f && type == f.type && sizeExact == f.sizeExact
                && size.equals(f.size) && lastModified.equals(f.lastModified)
                && lastModifiedPrecision.equals(f.lastModifiedPrecision) && changeTime.equals(f.changeTime)
                && permissions.equals(f.permissions) && extras.equals(f.extras) && owners.equals(f.owners);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, size, sizeExact, lastModified, lastModifiedPrecision, changeTime, permissions, extras,
                owners);
    }

    /** The known properties, by name ({@code FileStat[type=FILE, size=12, lastModified=...]}). */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("FileStat[type=").append(type);
        size.ifPresent(n -> b.append(", size=").append(n).append(sizeExact ? "" : " (approximate)"));
        lastModified.ifPresent(t -> b.append(", lastModified=").append(t).append(" (±").append(lastModifiedPrecision)
                .append(')'));
        changeTime.ifPresent(t -> b.append(", changeTime=").append(t));
        permissions.ifPresent(p -> b.append(", permissions=").append(java.nio.file.attribute.PosixFilePermissions.toString(p)));
        owners.user().ifPresent(o -> b.append(", owner=").append(o));
        owners.group().ifPresent(g -> b.append(", group=").append(g));
        extras.lastAccess().ifPresent(t -> b.append(", lastAccess=").append(t));
        extras.fileKey().ifPresent(k -> b.append(", fileKey=").append(k));
        extras.etag().ifPresent(e -> b.append(", etag=").append(e));
        if (!extras.checksums().isEmpty()) {
            b.append(", checksums=").append(new java.util.TreeMap<>(extras.checksums()));
        }
        extras.storedAt().ifPresent(t -> b.append(", storedAt=").append(t));
        return b.append(']').toString();
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
        private Optional<String> owner = Optional.empty();
        private Optional<String> group = Optional.empty();

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

        /** The owner as the backend names it ({@link FileStat#owner()}). */
        public Builder owner(String name) {
            this.owner = Optional.of(name);
            return this;
        }

        /** The group as the backend names it ({@link FileStat#group()}). */
        public Builder group(String name) {
            this.group = Optional.of(name);
            return this;
        }

        /** When the server stored the content ({@link FileStat#storedAt()}). */
        public Builder storedAt(Instant time) {
            this.storedAt = Optional.of(time);
            return this;
        }

        public FileStat build() {
            return new FileStat(type, size, sizeExact, lastModified, precision, changeTime, permissions,
                    Extras.of(lastAccess, fileKey, etag, checksums, storedAt), Owners.of(owner, group));
        }
    }
}
