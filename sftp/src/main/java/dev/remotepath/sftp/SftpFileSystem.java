package dev.remotepath.sftp;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One SSH connection as a file system, over the Apache MINA SSHD client or sshj
 * ({@link SftpOptions#client()}), SFTP version 3 (what OpenSSH speaks). Everything but the
 * wire itself is here, once, so both clients behave alike: listings use READDIR's attributes,
 * so walks stat nothing; replacing renames use {@code posix-rename@openssh.com} (a server
 * without it gets {@link Capability#RENAME}: the old file is set aside first). A v3 server
 * answers many distinct failures with a bare FAILURE: those are resolved with one more stat
 * so the caller gets the precise {@code java.nio.file} exception.
 */
public final class SftpFileSystem implements RemoteFileSystem {


    private final RemoteFileSystemProvider provider;
    private final SftpEndpoint endpoint;
    private final String user;
    private final String host;
    private final int port;
    private final Runnable onClose;
    private final Set<Capability> capabilities;
    private final dev.remotepath.spi.OpenState state = new dev.remotepath.spi.OpenState();
    private final SftpConnection connection;
    private final SftpServerCopy serverCopy;
    private volatile boolean checkFileFailed;
    /** The order this server reads SYMLINK's paths in, probed before the first link. */
    private final SymlinkPlacement symlinks = new SymlinkPlacement();
    /** Which of this server's OK answers can be trusted, probed before the first create-only write. */
    private final ServerSemantics semantics = new ServerSemantics();

    SftpFileSystem(RemoteFileSystemProvider provider, SftpEndpoint endpoint, Runnable onClose) throws IOException {
        this.provider = provider;
        this.endpoint = endpoint;
        this.user = endpoint.user();
        this.host = endpoint.host();
        this.port = endpoint.port();
        this.onClose = onClose;
        this.connection = new SftpConnection(endpoint, state);
        this.serverCopy = new SftpServerCopy(connection);
        SftpWire c = connection.current();
        EnumSet<Capability> caps = EnumSet.of(Capability.WRITE, Capability.SYMBOLIC_LINKS,
                Capability.SET_LAST_MODIFIED_TIME, Capability.MTIME_ON_WRITE, Capability.POSIX_PERMISSIONS);
        // Plain v3 RENAME never replaces: without posix-rename, replacing goes through RENAME's
        // set-aside dance in the shared code.
        caps.add(c.hasPosixRename() ? Capability.ATOMIC_RENAME : Capability.RENAME);
        if (c.hasCheckFile()) {
            caps.add(Capability.NATIVE_CHECKSUM);
        }
        if (c.hasCopyData()) {
            caps.add(Capability.SERVER_SIDE_COPY);
        }
        this.capabilities = Set.copyOf(caps);
    }

    /** The client library this file system talks through ({@code mina} or {@code sshj}). */
    public String client() {
        return connection.current().client();
    }

    @Override
    public Set<dev.remotepath.ChecksumAlgorithm> nativeChecksums() {
        return !connection.current().hasCheckFile() || checkFileFailed ? Set.of()
                : Set.of(dev.remotepath.ChecksumAlgorithm.MD5, dev.remotepath.ChecksumAlgorithm.SHA1,
                        dev.remotepath.ChecksumAlgorithm.SHA256, dev.remotepath.ChecksumAlgorithm.SHA512);
    }

    /** {@code check-file-name} over the whole file; a server that fails it is not asked again. */
    @Override
    public java.util.Optional<dev.remotepath.Checksum> nativeChecksum(RemotePath file, dev.remotepath.ChecksumAlgorithm algorithm)
            throws IOException {
        if (!nativeChecksums().contains(algorithm)) {
            return java.util.Optional.empty();
        }
        String name = switch (algorithm) {
            case MD5 -> "md5";
            case SHA1 -> "sha1";
            case SHA256 -> "sha256";
            case SHA512 -> "sha512";
            default -> null;
        };
        try {
            var answer = connection.live().checkFile(file.pathString(), name);
            if (answer.isEmpty() || answer.get().length * 2 != algorithm.hexLength()) {
                return java.util.Optional.empty();
            }
            String hex = java.util.HexFormat.of().formatHex(answer.get());
            return java.util.Optional.of(new dev.remotepath.Checksum(algorithm, hex, dev.remotepath.Checksum.Origin.NATIVE));
        } catch (SftpStatusException e) {
            if (e.status() == SftpStatusException.NO_SUCH_FILE) {
                throw SftpErrors.mapped(e, file, null);
            }
            FileStat s = connection.lstatQuietly(file);
            if (s == null) {
                throw new NoSuchFileException(file.toString()); // a missing file, not a broken extension
            }
            if (e.status() == SftpStatusException.OP_UNSUPPORTED) {
                checkFileFailed = true; // announced but refused: not asked again on this connection
            }
            return java.util.Optional.empty(); // this file only (MINA's server fails an empty one): streamed
        }
    }

    // ------------------------------------------------------------------ identity

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        return "sftp://" + UriPaths.encodePath(user).replace("@", "%40").replace("/", "%2F").replace(":", "%3A") + "@"
                + (host.contains(":") ? "[" + host + "]" : host) + (port == 22 ? "" : ":" + port);
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    /** Open until closed: a dropped connection is re-established by the next operation. */
    @Override
    public boolean isOpen() {
        return state.isOpen();
    }

    @Override
    public void close() throws IOException {
        if (!state.close()) {
            return; // another thread closed it (or is closing it)
        }
        onClose.run();
        connection.closeQuietly();
    }

    @Override
    public String toString() {
        return "SftpFileSystem[" + uriPrefix() + "]";
    }

    /**
     * Open, and every path sendable: names are bytes on the wire (NameBytes.CHARSET), and a
     * lone UTF-16 surrogate that is no byte escape has none, so the clients would send '?' in
     * its place and act on another file ("a?b" deleted for "a\ud800b"). Refused instead.
     */
    private void checkOpen(RemotePath... paths) throws FileSystemException {
        checkOpen();
        for (RemotePath p : paths) {
            if (!dev.remotepath.NameBytes.isEncodable(p.pathString())) {
                throw new FileSystemException(p.toString(), null, "the name cannot be sent to an SFTP server "
                        + "(it holds a lone UTF-16 surrogate, which stands for no bytes)");
            }
        }
    }

    private void checkOpen() {
        state.requireOpen();
    }

    // ------------------------------------------------------------------ metadata

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        checkOpen(path);
        try {
            return SftpStats.toStat(connection.repeatable(sftp -> followLinks ? sftp.stat(path.pathString())
                    : ServerSemantics.lstat(sftp, path.pathString())));
        } catch (SftpStatusException e) {
            // SFTP v3 has no "not a directory" code: some servers (gesftpserver) answer FAILURE for
            // a path below a regular file. Below a non-directory nothing exists, as on every backend.
            if (e.status() == SftpStatusException.FAILURE && !path.parent().equals(path)) {
                FileStat parent = connection.lstatQuietly(path.parent());
                if (parent != null && !parent.isDirectory() && !parent.isSymbolicLink()) {
                    NoSuchFileException missing = new NoSuchFileException(path.toString(), null, "below a non-directory");
                    missing.initCause(e);
                    throw missing;
                }
            }
            throw connection.transport(e, "stat", path);
        } catch (IOException e) {
            throw connection.transport(e, "stat", path);
        }
    }

    /** One READDIR exchange per batch of names, each with its attributes: nothing is stat'ed. */
    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        checkOpen(directory);
        List<ListedEntry> out = new ArrayList<>();
        try {
            for (SftpWire.Entry e : connection.repeatable(sftp -> sftp.readDir(directory.pathString()))) {
                out.add(new ListedEntry(e.name(), SftpStats.toStat(e.attributes())));
            }
        } catch (SftpWire.EndlessListing e) {
            FileSystemException named = e.repeatedName().isPresent()
                    ? new UnsafeNameException(directory.toString(), e.repeatedName().get(),
                            "listed twice (the server's READDIR answers repeat themselves: the listing is not read on)")
                    : new FileSystemException(directory.toString(), null, e.getMessage());
            named.initCause(e);
            throw named;
        } catch (IOException e) {
            if (e instanceof SftpStatusException se && (se.status() == SftpStatusException.FAILURE
                    || se.status() == SftpStatusException.NO_SUCH_FILE)) {
                FileStat s = connection.lstatQuietly(directory);
                if (s != null && !s.isDirectory() && !(s.isSymbolicLink())) {
                    throw new NotDirectoryException(directory.toString());
                }
            }
            throw connection.transport(e, "list", directory);
        }
        return DirectoryListing.of(out);
    }

    // ------------------------------------------------------------------ content

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        return openRead(file, offset, Long.MAX_VALUE - offset);
    }

    /**
     * A copy's source read with its pipelined READs bounded by the listed size plus one byte (the
     * byte that shows a file grew): both clients otherwise send a pipeline's worth of READs ahead
     * (sshj 65, MINA a window's worth), and for a file of a few KiB all but one are answered EOF.
     * T1 from SFTP to local took ~20 s that way (docs/benchmarks.md).
     */
    @Override
    public InputStream openReadAll(RemotePath file, FileStat listed) throws IOException {
        if (listed.sizeExact() && listed.size().isPresent() && listed.size().getAsLong() < Long.MAX_VALUE) {
            return openRead(file, 0, listed.size().getAsLong() + 1);
        }
        return openRead(file, 0);
    }

    /** Pipelined READs never ask past {@code offset + length}: a seekable reader's window stays its size. */
    @Override
    public InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        checkOpen(file);
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
        }
        InputStream in;
        try {
            in = connection.live().read(file.pathString(), offset, length);
        } catch (IOException e) {
            if (!(e instanceof SftpStatusException)) {
                throw connection.transport(e, "open", file); // the connection failed: no stat would tell more
            }
            FileStat s = connection.lstatQuietly(file);
            if (s != null && s.isDirectory()) {
                throw new dev.remotepath.IsDirectoryException(file.toString());
            }
            throw connection.transport(e, "open", file);
        }
        // OpenSSH lets a directory be opened and fails the first READ. Checking up front would
        // cost a round trip per file read; the failure path says "is a directory" instead.
        // Each READ is answered within readTimeout, but with as few bytes as the server likes:
        // the trickle guard bounds the whole.
        return dev.remotepath.spi.TrickleGuard.guarding(new Translated.In(in, e -> {
            if (!(e instanceof SftpStatusException)) {
                return connection.transport(e, "read", file); // the connection failed: no stat would get through
            }
            FileStat s;
            try {
                s = connection.lstatQuietly(file);
            } catch (IOException second) {
                e.addSuppressed(second);
                return connection.transport(e, "read", file);
            }
            return s != null && s.isDirectory() ? new dev.remotepath.IsDirectoryException(file.toString())
                    : connection.transport(e, "read", file);
        }), new dev.remotepath.spi.TrickleGuard(file.toString(), endpoint.options().readTimeout()));
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return openWriting(file, mode, Optional.empty(), SftpWire.NO_PERMISSIONS);
    }

    /** The time goes with the handle (FSETSTAT before CLOSE): a copy saves its SETSTAT round trip. */
    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
        SftpStats.requireStorableTime(file, lastModified);
        return openWriting(file, mode, Optional.of(lastModified), SftpWire.NO_PERMISSIONS);
    }

    /** The time as above; the permissions in the OPEN's attributes, as {@code sftp put} sends them. */
    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, dev.remotepath.spi.WriteAttributes attributes)
            throws IOException {
        if (attributes.lastModified().isPresent()) {
            SftpStats.requireStorableTime(file, attributes.lastModified().get());
        }
        return openWriting(file, mode, attributes.lastModified(),
                attributes.permissions().map(dev.remotepath.PosixModes::mode).orElse(SftpWire.NO_PERMISSIONS));
    }

    private OutputStream openWriting(RemotePath file, WriteMode mode, Optional<Instant> mtime, int permissions)
            throws IOException {
        checkOpen(file);
        if (mode == WriteMode.CREATE_NEW && !answers(file).exclusiveCreateRefusesExisting()
                && connection.lstatQuietly(file) != null) {
            throw new FileAlreadyExistsException(file.toString());
        }
        if (mode == WriteMode.CREATE_OR_APPEND && !answers(file).appendKeepsContent()) {
            throw new FileSystemException(file.toString(), null, "this SFTP server cannot append: a probe file it was "
                    + "asked to append to lost its content (rclone serve sftp without --vfs-cache-mode writes does so); "
                    + "the file was not opened");
        }
        try {
            OutputStream out = connection.live().write(file.pathString(), mode, mtime, permissions);
            return new Translated.Out(out, e -> writeFailure(e, file));
        } catch (IOException e) {
            if (!(e instanceof SftpStatusException)) {
                throw connection.transport(e, "write", file);
            }
            FileStat s = connection.lstatQuietly(file);
            if (s != null && s.isDirectory()) {
                throw new dev.remotepath.IsDirectoryException(file.toString());
            }
            if (s != null && mode == WriteMode.CREATE_NEW && e instanceof SftpStatusException) {
                throw new FileAlreadyExistsException(file.toString());
            }
            if (s == null) {
                FileStat parent = connection.lstatQuietly(file.parent());
                if (parent == null) {
                    throw new NoSuchFileException(file.toString(), null, "the parent directory does not exist");
                }
                if (!parent.isDirectory() && !parent.isSymbolicLink()) {
                    // SFTP v3 has no ENOTDIR: servers answer FAILURE, or (rclone) "file already exists".
                    NoSuchFileException below = new NoSuchFileException(file.toString(), null,
                            "a parent is not a directory: " + file.parent() + " is a file");
                    below.initCause(e);
                    throw below;
                }
            }
            throw writeFailure(e, file);
        }
    }

    // ------------------------------------------------------------------ structure

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        makeDirectory(directory, SftpWire.NO_PERMISSIONS);
    }

    /** The permissions in the MKDIR's attributes, the server's umask applying. */
    @Override
    public void createDirectory(RemotePath directory, java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions)
            throws IOException {
        makeDirectory(directory, dev.remotepath.PosixModes.mode(permissions));
    }

    private void makeDirectory(RemotePath directory, int permissions) throws IOException {
        checkOpen(directory);
        if (!answers(directory).mkdirRefusesExisting() && connection.lstatQuietly(directory) != null) {
            throw new FileAlreadyExistsException(directory.toString());
        }
        try {
            connection.live().mkdir(directory.pathString(), permissions);
        } catch (IOException e) {
            if (e instanceof SftpStatusException se && se.status() != SftpStatusException.NO_SUCH_FILE
                    && connection.lstatQuietly(directory) != null) {
                throw new FileAlreadyExistsException(directory.toString());
            }
            if (e instanceof SftpStatusException && connection.lstatQuietly(directory.parent()) == null) {
                throw new NoSuchFileException(directory.toString(), null, "the parent directory does not exist");
            }
            throw connection.transport(e, "mkdir", directory);
        }
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        checkOpen(file);
        try {
            connection.repeatable(sftp -> {
                sftp.remove(file.pathString());
                return null;
            });
        } catch (IOException e) {
            throw connection.transport(e, "remove", file);
        }
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        checkOpen(directory);
        try {
            connection.repeatable(sftp -> {
                sftp.rmdir(directory.pathString());
                return null;
            });
        } catch (IOException e) {
            if (e instanceof SftpStatusException se && se.status() == SftpStatusException.FAILURE) {
                boolean nonEmpty;
                try {
                    nonEmpty = hasChildren(directory);
                } catch (SftpStatusException unreadable) {
                    nonEmpty = false;
                }
                if (nonEmpty) {
                    throw new DirectoryNotEmptyException(directory.toString());
                }
            }
            throw connection.transport(e, "rmdir", directory);
        }
    }

    private boolean hasChildren(RemotePath directory) throws IOException {
        return !connection.live().readDir(directory.pathString()).isEmpty();
    }

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        checkOpen(source, target);
        try {
            SftpWire wire = connection.live();
            if (replaceExisting && wire.hasPosixRename()) {
                wire.posixRename(source.pathString(), target.pathString());
            } else {
                // RENAME must refuse an existing target; where the probe saw it replace (rclone),
                // an LSTAT first is the best such a server allows.
                if (!replaceExisting && !answers(target).renameRefusesExisting()
                        && connection.lstatQuietly(target) != null) {
                    throw new FileAlreadyExistsException(target.toString());
                }
                wire.rename(source.pathString(), target.pathString());
            }
        } catch (SftpStatusException e) {
            if (connection.lstatQuietly(source) == null) {
                throw new NoSuchFileException(source.toString());
            }
            if (connection.lstatQuietly(target) != null && (!replaceExisting || !connection.live().hasPosixRename())) {
                throw new FileAlreadyExistsException(target.toString());
            }
            throw SftpErrors.mapped(e, source, target);
        } catch (FileSystemException e) {
            throw e;
        } catch (IOException e) {
            throw connection.transport(e, "rename", source);
        }
    }

    /** On the server where it can ({@link SftpServerCopy}); else false, and the caller streams. */
    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        checkOpen(source, target);
        return serverCopy.copy(source, sourceStat, target, replaceExisting, s -> stat(s, true).lastModified());
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        checkOpen(path);
        SftpStats.requireStorableTime(path, time);
        SftpWire wire = connection.live();
        if (wire.hasLsetstat()) {
            requirePresentWhereSetstatCannotTell(path);
            // A link at the path (one swapped in behind the caller's back) gets the time itself:
            // nothing outside the tree it names is touched.
            try {
                wire.setTimesNoFollow(path.pathString(), time); // SFTPv3 sets both times together
            } catch (IOException e) {
                throw connection.transport(e, "lsetstat", path);
            }
            return;
        }
        // SETSTAT follows links: refuse a link seen just before (a window remains, documented),
        // confirmed by READLINK where the server's LSTAT follows links itself (ProFTPD).
        SftpWire.Attributes seen;
        try {
            seen = ServerSemantics.lstat(wire, path.pathString());
        } catch (IOException e) {
            throw connection.transport(e, "lstat", path); // NO_SUCH_FILE maps to NoSuchFileException
        }
        if (seen.kind() == SftpWire.Attributes.Kind.SYMLINK) {
            throw new FileSystemException(path.toString(), null,
                    "is a symbolic link, and this server (no lsetstat@openssh.com) would set the time of what it points to");
        }
        try {
            wire.setTimes(path.pathString(), time);
        } catch (IOException e) {
            throw connection.transport(e, "setstat", path);
        }
    }

    /** The server's answers, probed in {@code path}'s directory the first time. */
    private ServerSemantics.Answers answers(RemotePath path) throws IOException {
        try {
            return semantics.of(connection.live(), path.parent().pathString());
        } catch (IOException e) {
            throw connection.transport(e, "probe", path.parent());
        }
    }

    /** Where SETSTAT answers OK for a missing path, an LSTAT tells first. */
    private void requirePresentWhereSetstatCannotTell(RemotePath path) throws IOException {
        if (!answers(path).setstatRefusesMissing() && connection.lstatQuietly(path) == null) {
            throw new NoSuchFileException(path.toString());
        }
    }

    @Override
    public void setPermissions(RemotePath path, Set<PosixFilePermission> permissions) throws IOException {
        checkOpen(path);
        requirePresentWhereSetstatCannotTell(path);
        try {
            connection.live().setPermissions(path.pathString(), dev.remotepath.PosixModes.mode(permissions));
        } catch (IOException e) {
            throw connection.transport(e, "setstat", path);
        }
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        checkOpen(link);
        try {
            if (connection.lstatQuietly(link) != null) {
                throw new FileAlreadyExistsException(link.toString());
            }
            symlinks.create(connection.live(), link.parent().pathString(), link.pathString(), target);
        } catch (FileSystemException e) {
            if (e.getFile() != null && e.getFile().equals(link.pathString())) {
                throw new FileSystemException(link.toString(), null, e.getReason());
            }
            throw e;
        } catch (IOException e) {
            if (e instanceof SftpStatusException se && se.status() == SftpStatusException.OP_UNSUPPORTED) {
                FileSystemException refused = new FileSystemException(link.toString(), null,
                        "the server does not support symbolic links (it answered SYMLINK with OP_UNSUPPORTED)");
                refused.initCause(e);
                throw refused;
            }
            throw connection.transport(e, "symlink", link);
        }
    }

    /** Less free space than this on the server's file system makes a write's FAILURE a full disk. */
    private static final long NEARLY_FULL = 1 << 20;

    /**
     * A write's failure in words: SFTP v3 has no "no space" code, so OpenSSH answers a full disk
     * with FAILURE ("Failure"). Where the server offers statvfs, one look at the free space of
     * the file's file system tells a full disk from other failures.
     */
    private IOException writeFailure(IOException e, RemotePath file) {
        if (e instanceof SftpStatusException se && se.status() == SftpStatusException.FAILURE) {
            try {
                Optional<dev.remotepath.spi.StoreSpace> space = connection.live().space(file.parent().pathString());
                if (space.isPresent() && space.get().usable() < NEARLY_FULL) {
                    FileSystemException full = new FileSystemException(file.toString(), null,
                            "no space left on the server (" + space.get().usable() + " bytes free on its file system)");
                    full.initCause(e);
                    return full;
                }
            } catch (IOException | RuntimeException unknown) {
                e.addSuppressed(unknown);
            }
        }
        return connection.transport(e, "write", file);
    }

    /**
     * {@code statvfs@openssh.com} where the server offers it (OpenSSH, gesftpserver, ProFTPD);
     * a server that announces it and then refuses it (rclone) has no figure to give.
     */
    @Override
    public Optional<dev.remotepath.spi.StoreSpace> storeSpace(RemotePath path) throws IOException {
        checkOpen(path);
        try {
            return connection.repeatable(sftp -> sftp.space(path.pathString()));
        } catch (SftpStatusException e) {
            if (e.status() == SftpStatusException.OP_UNSUPPORTED) {
                return Optional.empty();
            }
            throw connection.transport(e, "statvfs", path);
        } catch (IOException e) {
            throw connection.transport(e, "statvfs", path);
        }
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        checkOpen(link);
        try {
            return connection.live().readLink(link.pathString());
        } catch (IOException e) {
            if (!(e instanceof SftpStatusException)) {
                throw connection.transport(e, "readlink", link);
            }
            FileStat s = connection.lstatQuietly(link);
            if (s != null && !s.isSymbolicLink()) {
                throw new java.nio.file.NotLinkException(link.toString());
            }
            throw connection.transport(e, "readlink", link);
        }
    }
}
