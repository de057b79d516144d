package dev.remotepath.spi;

import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a write asks of the file it writes beyond its content, for
 * {@link RemoteFileSystem#openWrite(dev.remotepath.RemotePath, WriteMode, WriteAttributes)}:
 *
 * <ul>
 *   <li>{@code lastModified}: a modification time stored with the content, where the backend
 *       does so ({@link Capability#MTIME_ON_WRITE}); elsewhere it is ignored and the caller
 *       sets the time afterwards;
 *   <li>{@code permissions}: the permission bits a file the write creates is asked for, as
 *       {@code open(2)}'s mode asks for them: the file system's own mask (the umask of the
 *       process or the server that creates the file) still applies, as for {@code cp} and
 *       {@code sftp put}. An existing file keeps its own; a backend that keeps no
 *       permissions ignores them (a new tar or zip records them as the entry's mode). A copy so never opens a file wider
 *       than its source, and a private file is private from its first byte.
 * </ul>
 */
public record WriteAttributes(Optional<Instant> lastModified, Optional<Set<PosixFilePermission>> permissions) {

    /** Nothing asked beyond the content. */
    public static final WriteAttributes NONE = new WriteAttributes(Optional.empty(), Optional.empty());

    public WriteAttributes {
        Objects.requireNonNull(lastModified, "lastModified");
        permissions = Objects.requireNonNull(permissions, "permissions").map(Set::copyOf);
    }

    /** These attributes with {@code time} as the modification time. */
    public WriteAttributes withLastModified(Instant time) {
        return new WriteAttributes(Optional.of(time), permissions);
    }

    /** These attributes with {@code bits} as the permissions of a file the write creates. */
    public WriteAttributes withPermissions(Set<PosixFilePermission> bits) {
        return new WriteAttributes(lastModified, Optional.of(bits));
    }

    /** True when nothing is asked beyond the content. */
    public boolean isEmpty() {
        return lastModified.isEmpty() && permissions.isEmpty();
    }
}
