package dev.remotepath.spi;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystemException;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * One backend instance (a volume, a host, a bucket): the few primitives every backend
 * translates from its wire protocol. Everything richer (exists, createDirectories, walk,
 * glob, tree copy, recursive delete, move, streamed checksums) is written once in the api on
 * top of these.
 *
 * <p>Every path argument belongs to this file system, is absolute and lexically normalized.
 * Failures are the {@code java.nio.file} exceptions a Java user expects
 * ({@link java.nio.file.NoSuchFileException}, {@link java.nio.file.FileAlreadyExistsException},
 * {@link java.nio.file.DirectoryNotEmptyException}, {@link java.nio.file.NotDirectoryException},
 * {@link java.nio.file.AccessDeniedException}, ...), naming the path by its URI; no client
 * library's exception type escapes. Implementations are thread-safe.
 *
 * <p>Optional primitives have defaults that say "not supported"; a backend overrides those
 * its {@link #capabilities()} declare.
 */
public interface RemoteFileSystem extends Closeable {

    /** The provider that made this file system. */
    RemoteFileSystemProvider provider();

    /**
     * The URI prefix of every path here, without credentials and without a trailing slash:
     * {@code mem://vol}, {@code file://}, {@code sftp://user@host:2222}.
     */
    String uriPrefix();

    /** What this backend can do beyond reading and listing. */
    Set<Capability> capabilities();

    /** A path on this file system; {@code path} is parsed and normalized. */
    default RemotePath path(String path) {
        return RemotePath.of(this, path);
    }

    /** Stats a path, following a final symbolic link or not. */
    FileStat stat(RemotePath path, boolean followLinks) throws IOException;

    /**
     * Lists a directory (following the directory itself if it is a link), returning at least
     * the metadata {@code detail} asks for.
     */
    DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException;

    /**
     * Lists {@code directory}, a child of the directory that the still-open {@code parent}
     * listing (returned by this file system) lists. A backend that can open a directory
     * relative to its parent's handle does so (the local lister uses {@code openat} on the
     * parent's descriptor, so a deep walk never resolves a full path); the default lists by
     * path.
     */
    default DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
            throws IOException {
        return list(directory, detail);
    }

    /**
     * Lists everything below {@code directory} at any depth, for a backend that declares
     * {@link Capability#FLAT_LISTING}: each entry's name is its path below {@code directory},
     * its raw names joined by {@code /} ({@code a/b/c.txt}), with the metadata {@code detail}
     * asks for. Directories need not be listed: one is implied by anything below it (a listed
     * directory, an object store's marker, is an empty one's only trace). Entries come in any
     * order. Fails as {@link #list} does for a missing directory or a file. The api validates
     * every name of every path ({@link dev.remotepath.tree.FlatIndex}); a backend need not.
     */
    default DirectoryListing listTree(RemotePath directory, ListDetail detail) throws IOException {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no flat listing");
    }

    /** Opens a file for reading from byte {@code offset} (0 for the start). */
    InputStream openRead(RemotePath file, long offset) throws IOException;

    /**
     * Opens a file for reading at most {@code length} bytes from {@code offset}: a random-access
     * reader's window (the NIO provider's seekable channel), so a backend that reads ahead or asks
     * for ranges asks no more than that (SFTP bounds its pipelined READs by it). The default reads
     * through {@link #openRead(RemotePath, long)} and stops after {@code length} bytes.
     */
    default InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        return new BoundedInputStream(openRead(file, offset), length);
    }

    /**
     * Opens a file to read all of it, from its start, given the stat its listing reported (a
     * copy's source). The default is {@link #openRead(RemotePath, long) openRead(file, 0)}; a
     * backend whose reads run ahead of the caller may bound them by the listed size, as long as
     * it still reads past that size where the file grew (one byte more is enough), so the
     * caller can tell a file that changed while it was copied.
     */
    default InputStream openReadAll(RemotePath file, FileStat listed) throws IOException {
        return openRead(file, 0);
    }

    /** Opens a file for writing; the parent must exist. */
    OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException;

    /**
     * Opens a file for writing that is to carry {@code lastModified} once closed, stored in the
     * same request as the content ({@link Capability#MTIME_ON_WRITE}: S3 keeps the mtime in the
     * object's metadata, where setting it afterwards would cost a server-side copy per file).
     */
    default OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
        throw unsupported(file, "writing with a given modification time");
    }

    /**
     * Opens a file for writing with {@code attributes}: its modification time stored with the
     * content ({@link Capability#MTIME_ON_WRITE}), and the permissions a file this call creates
     * is asked for, the file system's own mask applying ({@link WriteAttributes}). The default
     * passes the time on to {@link #openWrite(RemotePath, WriteMode, Instant)} and ignores the
     * permissions: a backend with {@link Capability#POSIX_PERMISSIONS} overrides it.
     */
    default OutputStream openWrite(RemotePath file, WriteMode mode, WriteAttributes attributes) throws IOException {
        return attributes.lastModified().isPresent() ? openWrite(file, mode, attributes.lastModified().get())
                : openWrite(file, mode);
    }

    /** Creates one directory; the parent must exist. */
    void createDirectory(RemotePath directory) throws IOException;

    /**
     * Creates one directory as {@link #createDirectory(RemotePath)}, asking for
     * {@code permissions} as {@code mkdir(2)}'s mode asks for them: the file system's own mask
     * (the umask of the process or server that creates it) still applies. The default ignores
     * them: a backend with {@link Capability#POSIX_PERMISSIONS} overrides it.
     */
    default void createDirectory(RemotePath directory, java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions)
            throws IOException {
        createDirectory(directory);
    }

    /** Deletes a regular file, link or other non-directory. Called only for such entries. */
    void deleteFile(RemotePath file) throws IOException;

    /** Deletes an empty directory. Called only for directories. */
    void deleteDirectory(RemotePath directory) throws IOException;

    /**
     * Renames within this file system. With {@code replaceExisting}, an existing target file is
     * replaced atomically where {@link Capability#ATOMIC_RENAME} is declared; without it, an
     * existing target is a {@link java.nio.file.FileAlreadyExistsException}.
     */
    void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException;

    /**
     * Sets a file's modification time ({@link Capability#SET_LAST_MODIFIED_TIME}). Never through a
     * symbolic link: a link at {@code path} gets the time itself, or the call fails where the
     * backend cannot set a link's own time; what the link points to is left alone.
     */
    default void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        throw unsupported(path, "setting the modification time");
    }

    /** Sets POSIX permissions ({@link Capability#POSIX_PERMISSIONS}). */
    default void setPermissions(RemotePath path, Set<PosixFilePermission> permissions) throws IOException {
        throw unsupported(path, "setting permissions");
    }

    /** Creates {@code link} pointing at {@code target}, stored verbatim ({@link Capability#SYMBOLIC_LINKS}). */
    default void createSymbolicLink(RemotePath link, String target) throws IOException {
        throw unsupported(link, "creating symbolic links");
    }

    /** The verbatim target of a symbolic link ({@link Capability#SYMBOLIC_LINKS}). */
    default String readSymbolicLink(RemotePath link) throws IOException {
        throw unsupported(link, "reading symbolic links");
    }

    /**
     * Where {@code path} really is: the same location with every symbolic link on the way
     * resolved by the system itself (local {@code realpath}). The api asks it of
     * {@link Capability#IN_PROCESS} backends, where it is one system call; on remote backends
     * with links {@code tree.RealPaths} resolves component by component instead, since a
     * server's REALPATH may be lexical (MINA's is). Safety checks compare these, never the text
     * of the paths, so a link that aliases a directory cannot make a sync delete its own
     * source. The default, for backends without links, is the path itself.
     *
     * @throws java.nio.file.NoSuchFileException when {@code path} does not exist
     */
    default RemotePath realPath(RemotePath path) throws IOException {
        return path;
    }

    /** The algorithms the server can compute without sending content ({@link Capability#NATIVE_CHECKSUM}). */
    default Set<ChecksumAlgorithm> nativeChecksums() {
        return Set.of();
    }

    /**
     * The server's checksum of a file, or empty when it cannot compute this one after all (the
     * caller then streams the content).
     */
    default Optional<Checksum> nativeChecksum(RemotePath file, ChecksumAlgorithm algorithm) throws IOException {
        return Optional.empty();
    }

    /**
     * Copies a regular file to another path of this file system without the bytes passing
     * through the client ({@link Capability#SERVER_SIDE_COPY}), giving the copy the source's
     * modification time from {@code sourceStat} (what its listing said; a backend must not
     * need to stat it again). Must leave no partial file under {@code target}'s name. Returns
     * false when this pair cannot be copied natively after all; the caller then streams.
     */
    default boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        return false;
    }

    /**
     * Deletes many non-directories, in as few requests as the backend allows
     * ({@link Capability#BATCH_DELETE}). Files already gone are not errors. The default
     * deletes one by one and reports every failure, the first as the thrown exception and the
     * others suppressed by it.
     */
    default void deleteFiles(Collection<RemotePath> files) throws IOException {
        IOException first = null;
        for (RemotePath file : files) {
            try {
                deleteFile(file);
            } catch (java.nio.file.NoSuchFileException gone) {
                // Already gone: the goal is reached.
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * The space of the storage holding {@code path}, where the backend can tell (the local disk,
     * mem, SFTP servers offering {@code statvfs@openssh.com}); empty where it cannot (object
     * stores, web servers). A missing path fails with {@link java.nio.file.NoSuchFileException}
     * where the backend can tell.
     */
    default Optional<StoreSpace> storeSpace(RemotePath path) throws IOException {
        return Optional.empty();
    }

    /** The {@link java.nio.file.Path} behind a path, for backends built on NIO. */
    default Optional<java.nio.file.Path> toNioPath(RemotePath path) {
        return Optional.empty();
    }

    /** False once closed; a closed file system fails every operation with {@link java.nio.file.ClosedFileSystemException}. */
    boolean isOpen();

    /** The exception optional primitives throw when the backend lacks them. */
    static UnsupportedOperationException unsupported(RemotePath path, String what) {
        return new UnsupportedOperationException(
                path.toUri().getScheme() + ": " + what + " is not supported (" + path + ")");
    }

    /** Helper for backends: a {@link FileSystemException} naming the path and the reason. */
    static FileSystemException failure(RemotePath path, String reason) {
        return new FileSystemException(path.toString(), null, reason);
    }
}
