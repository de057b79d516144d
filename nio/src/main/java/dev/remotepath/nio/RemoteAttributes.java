package dev.remotepath.nio;

import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A {@link FileStat} as NIO attributes. What the backend does not know is given as NIO's
 * convention for "none": times as the epoch, a size of 0, a {@code null} file key. Owner,
 * group and permissions are there only where the backend reported them (SFTP: the numeric
 * uid and gid); elsewhere {@link #owner()}, {@link #group()} and {@link #permissions()} throw
 * {@link UnsupportedOperationException}. The {@code remotepath} view names only what is known, so a caller can tell an
 * unknown size or time from 0 or the epoch.
 */
final class RemoteAttributes implements PosixFileAttributes {

    /** The view of what NIO has no name for: checksums, ETag, storage time, precision. */
    static final String VIEW = "remotepath";

    private final FileStat stat;

    RemoteAttributes(FileStat stat) {
        this.stat = stat;
    }

    FileStat stat() {
        return stat;
    }

    private static FileTime time(java.util.Optional<Instant> t) {
        return FileTime.from(t.orElse(Instant.EPOCH));
    }

    @Override
    public FileTime lastModifiedTime() {
        return time(stat.lastModified());
    }

    @Override
    public FileTime lastAccessTime() {
        return time(stat.lastAccess().or(stat::lastModified));
    }

    @Override
    public FileTime creationTime() {
        return lastModifiedTime(); // as the default provider does where no birth time is kept
    }

    @Override
    public boolean isRegularFile() {
        return stat.isRegularFile();
    }

    @Override
    public boolean isDirectory() {
        return stat.isDirectory();
    }

    @Override
    public boolean isSymbolicLink() {
        return stat.isSymbolicLink();
    }

    @Override
    public boolean isOther() {
        return stat.type() == dev.remotepath.FileType.OTHER;
    }

    @Override
    public long size() {
        return stat.size().orElse(0);
    }

    @Override
    public Object fileKey() {
        return stat.fileKey().orElse(null);
    }

    /** A user as the backend names it. */
    record User(String getName) implements UserPrincipal {
        @Override
        public String toString() {
            return getName;
        }
    }

    /** A group as the backend names it. */
    record Group(String getName) implements GroupPrincipal {
        @Override
        public String toString() {
            return getName;
        }
    }

    @Override
    public UserPrincipal owner() {
        return stat.owner().map(User::new).orElseThrow(() -> new UnsupportedOperationException(
                "the backend reported no owner for this file"));
    }

    @Override
    public GroupPrincipal group() {
        return stat.group().map(Group::new).orElseThrow(() -> new UnsupportedOperationException(
                "the backend reported no group for this file"));
    }

    @Override
    public Set<PosixFilePermission> permissions() {
        return stat.permissions().orElseThrow(() -> new UnsupportedOperationException(
                "the backend reported no permissions for this file"));
    }

    /** The attributes of {@code view} ("basic", "posix" or "remotepath") named by {@code names} ("*" for all). */
    Map<String, Object> named(String view, String names) {
        Map<String, Object> all = new LinkedHashMap<>();
        switch (view) {
            case "basic", "posix" -> {
                all.put("lastModifiedTime", lastModifiedTime());
                all.put("lastAccessTime", lastAccessTime());
                all.put("creationTime", creationTime());
                all.put("size", size());
                all.put("isRegularFile", isRegularFile());
                all.put("isDirectory", isDirectory());
                all.put("isSymbolicLink", isSymbolicLink());
                all.put("isOther", isOther());
                all.put("fileKey", fileKey());
                if (view.equals("posix")) {
                    all.put("permissions", permissions());
                    stat.owner().ifPresent(o -> all.put("owner", new User(o)));
                    stat.group().ifPresent(g -> all.put("group", new Group(g)));
                }
            }
            case VIEW -> {
                // The whole FileStat, with only what the backend knows: where basic's convention
                // gives 0 or the epoch for "unknown", this view leaves the name out.
                all.put("type", stat.type().name());
                stat.size().ifPresent(n -> all.put("size", n));
                stat.lastModified().ifPresent(t -> all.put("lastModifiedTime", FileTime.from(t)));
                stat.lastAccess().ifPresent(t -> all.put("lastAccessTime", FileTime.from(t)));
                stat.permissions().ifPresent(p -> all.put("permissions", p));
                stat.fileKey().ifPresent(k -> all.put("fileKey", k));
                stat.owner().ifPresent(o -> all.put("owner", o));
                stat.group().ifPresent(g -> all.put("group", g));
                all.put("sizeExact", stat.sizeExact());
                all.put("lastModifiedPrecision", stat.lastModifiedPrecision());
                stat.etag().ifPresent(e -> all.put("etag", e));
                stat.storedAt().ifPresent(t -> all.put("storedAt", FileTime.from(t)));
                stat.changeTime().ifPresent(t -> all.put("changeTime", FileTime.from(t)));
                for (Map.Entry<ChecksumAlgorithm, String> c : stat.checksums().entrySet()) {
                    all.put("checksum." + c.getKey().name().toLowerCase(Locale.ROOT), c.getValue());
                }
            }
            default -> throw new UnsupportedOperationException("no attribute view '" + view + "'");
        }
        if (names.equals("*")) {
            return all;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (String n : names.split(",")) {
            if (n.equals("*")) {
                out.putAll(all);
            } else if (all.containsKey(n)) {
                out.put(n, all.get(n));
            } else if (!view.equals(VIEW)) { // a checksum the file has none of is simply absent
                throw new IllegalArgumentException("no attribute '" + n + "' in view '" + view + "'");
            }
        }
        return out;
    }
}
