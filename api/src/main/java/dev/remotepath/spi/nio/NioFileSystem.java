package dev.remotepath.spi.nio;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The primitives implemented once over a {@link java.nio.file.FileSystem}, for the backends
 * that are NIO underneath (local). Exceptions are re-issued with the
 * RemotePath URI as the file name, so messages never show the NIO path and read the same on
 * every backend.
 */
public abstract class NioFileSystem implements RemoteFileSystem {

    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
    private static final LinkOption[] FOLLOW = {};

    private final Path root;
    private final Duration mtimePrecision;
    private final boolean posix;

    /**
     * @param root           the NIO directory that this file system's "/" maps to
     * @param mtimePrecision the granularity of modification times stored there
     */
    protected NioFileSystem(Path root, Duration mtimePrecision) {
        this.root = root;
        this.mtimePrecision = mtimePrecision;
        this.posix = root.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /**
     * The NIO path behind a RemotePath of this file system.
     *
     * @throws FileSystemException when the name cannot be a path here (a lone surrogate from a
     *                             JSON index, say): that entry fails, not the whole command
     */
    protected Path nio(RemotePath p) throws IOException {
        String s = p.pathString();
        try {
            return s.length() <= 1 ? root : root.resolve(s.substring(1));
        } catch (java.nio.file.InvalidPathException e) {
            throw notAPath(p, e);
        }
    }

    /** The error for a name the NIO file system cannot hold. */
    protected static FileSystemException notAPath(RemotePath p, java.nio.file.InvalidPathException e) {
        FileSystemException out = new FileSystemException(p.toString(), null, "the name cannot be a path on this "
                + "file system (" + e.getReason() + ")");
        out.initCause(e);
        return out;
    }

    @Override
    public Optional<Path> toNioPath(RemotePath path) {
        try {
            return Optional.of(nio(path));
        } catch (IOException notAPath) {
            return Optional.empty();
        }
    }

    /** The NIO file store's space: the local disk's {@code statvfs}. */
    @Override
    public Optional<dev.remotepath.spi.StoreSpace> storeSpace(RemotePath path) throws IOException {
        try {
            Path p = nio(path);
            // Some stores (jimfs) answer for a missing path too: every backend says NoSuchFileException.
            java.nio.file.Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class,
                    java.nio.file.LinkOption.NOFOLLOW_LINKS);
            return Optional.of(dev.remotepath.spi.StoreSpace.of(java.nio.file.Files.getFileStore(p)));
        } catch (IOException e) {
            throw translate(e, path, null);
        }
    }

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        try {
            return toStat(readAttributes(nio(path), followLinks));
        } catch (IOException e) {
            throw translate(e, path, null);
        }
    }

    private BasicFileAttributes readAttributes(Path p, boolean follow) throws IOException {
        LinkOption[] opts = follow ? FOLLOW : NOFOLLOW;
        return posix ? Files.readAttributes(p, PosixFileAttributes.class, opts)
                : Files.readAttributes(p, BasicFileAttributes.class, opts);
    }

    /**
     * What a listing at {@code detail} below {@code ALL_STATS} carries: the type, and size and
     * mtime as asked; for a directory its permissions too (directories are few, and a copy
     * makes its own with them; a file's come with its read, see {@link #openReadAll}).
     */
    private FileStat listedStat(BasicFileAttributes a, ListDetail detail) {
        FileType type = typeOf(a);
        if (!detail.wantsStat(type)) {
            return FileStat.ofType(type);
        }
        return FileStat.listed(type, OptionalLong.of(a.size()), true, Optional.of(a.lastModifiedTime().toInstant()),
                mtimePrecision, type == FileType.DIRECTORY && a instanceof PosixFileAttributes p
                        ? Optional.of(dev.remotepath.PosixModes.permissions(dev.remotepath.PosixModes.mode(p.permissions())))
                        : Optional.empty());
    }

    private static FileType typeOf(BasicFileAttributes a) {
        return a.isSymbolicLink() ? FileType.SYMLINK
                : a.isDirectory() ? FileType.DIRECTORY
                : a.isRegularFile() ? FileType.FILE : FileType.OTHER;
    }

    /** A {@link FileStat} from NIO attributes, with this file system's mtime precision. */
    protected FileStat toStat(BasicFileAttributes a) {
        FileType type = typeOf(a);
        FileStat.Builder b = FileStat.builder(type)
                .size(a.size())
                .lastModified(a.lastModifiedTime().toInstant(), mtimePrecision)
                .lastAccess(a.lastAccessTime().toInstant());
        if (a.fileKey() != null) {
            b.fileKey(a.fileKey().toString());
        }
        if (a instanceof PosixFileAttributes p) {
            b.permissions(p.permissions());
        }
        return b.build();
    }

    /**
     * Lists with one attribute read per entry: NIO's directory stream carries no types, so a
     * NIO listing pays for a stat whatever {@code detail} asks; but it builds only the fields
     * asked for (permissions, owner key and access time are work per entry that a walk or a
     * sync of ten thousand files does not need).
     */
    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        Path dir = nio(directory);
        List<ListedEntry> entries = new ArrayList<>();
        boolean full = detail == ListDetail.ALL_STATS;
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path child : stream) {
                ListedEntry e = listed(child, full, detail);
                if (e != null) {
                    entries.add(e);
                }
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            IOException io = e instanceof java.nio.file.DirectoryIteratorException d ? d.getCause() : (IOException) e;
            throw translate(io, directory, null);
        }
        return DirectoryListing.of(entries);
    }

    /**
     * One listed child, or null when it was deleted while listing (not an entry any more). A
     * method of its own, not the loop's body: it runs once per entry and is compiled after the
     * first few directories, while the loop, run once per directory, stays interpreted.
     */
    private ListedEntry listed(Path child, boolean full, ListDetail detail) throws IOException {
        try {
            // POSIX attributes where the file system has them: the same one lstat (no second one
            // for a directory's permissions), and no wrapper; only directories' bits are built.
            BasicFileAttributes a = full ? readAttributes(child, false)
                    : posix ? Files.readAttributes(child, PosixFileAttributes.class, NOFOLLOW)
                    : Files.readAttributes(child, BasicFileAttributes.class, NOFOLLOW);
            return new ListedEntry(nameOf(child), full ? toStat(a) : listedStat(a, detail));
        } catch (NoSuchFileException vanished) {
            return null;
        }
    }

    /** The name of a listed child; backends whose names are bytes override to keep them lossless. */
    protected String nameOf(Path child) {
        return child.getFileName().toString();
    }

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        Path p = nio(file);
        try {
            if (Files.isDirectory(p)) {
                throw new dev.remotepath.IsDirectoryException(file.toString());
            }
            SeekableByteChannel ch = Files.newByteChannel(p, StandardOpenOption.READ);
            if (offset > 0) {
                ch.position(offset);
            }
            return Channels.newInputStream(ch);
        } catch (IOException e) {
            throw translate(e, file, null);
        }
    }

    /**
     * A copy's read: where its listing carried no permission bits (a NIO listing builds none per
     * entry), the file's attributes are read as it is opened (in place of the directory check of
     * every read: one system call either way) and reported with the stream
     * ({@link dev.remotepath.spi.StatReportingStream}), so the copy can give its target the
     * source's permissions without a stat of its own.
     */
    @Override
    public InputStream openReadAll(RemotePath file, FileStat listed) throws IOException {
        Path p = nio(file);
        if (listed.permissions().isPresent() || !posix) {
            return openRead(file, 0);
        }
        try {
            PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class);
            if (a.isDirectory()) {
                throw new dev.remotepath.IsDirectoryException(file.toString());
            }
            return new ReportingInput(Channels.newInputStream(Files.newByteChannel(p, StandardOpenOption.READ)), toStat(a));
        } catch (IOException e) {
            throw translate(e, file, null);
        }
    }

    /** A file's bytes, with the attributes read as it was opened. */
    private static final class ReportingInput extends java.io.FilterInputStream
            implements dev.remotepath.spi.StatReportingStream {
        private final FileStat stat;

        ReportingInput(InputStream in, FileStat stat) {
            super(in);
            this.stat = stat;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }

        @Override
        public Optional<FileStat> reportedStat() {
            return Optional.of(stat);
        }
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return openWrite(file, mode, dev.remotepath.spi.WriteAttributes.NONE);
    }

    /** The permissions go with the {@code open} that creates the file (the umask applies); a time is not kept with the content. */
    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, dev.remotepath.spi.WriteAttributes attributes)
            throws IOException {
        Path p = nio(file);
        OpenOption[] opts = switch (mode) {
            case CREATE_NEW -> new OpenOption[] {StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE};
            case CREATE_OR_TRUNCATE -> new OpenOption[] {StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE};
            case CREATE_OR_APPEND -> new OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE};
        };
        try {
            if (Files.isDirectory(p)) {
                throw new dev.remotepath.IsDirectoryException(file.toString());
            }
            FileAttribute<?>[] creation = creationAttributes(attributes.permissions());
            return creation.length == 0 ? Files.newOutputStream(p, opts)
                    : Channels.newOutputStream(Files.newByteChannel(p, Set.of(opts), creation));
        } catch (IOException e) {
            throw translate(e, file, null);
        }
    }

    /**
     * The permissions a new file is opened with, where this file system keeps them: given to
     * {@code open(2)} as its mode, so the process's umask applies, as for {@code cp}.
     */
    private FileAttribute<?>[] creationAttributes(Optional<Set<PosixFilePermission>> permissions) {
        if (permissions.isEmpty() || !posix) {
            return NO_ATTRIBUTES;
        }
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions.get())};
    }

    private static final FileAttribute<?>[] NO_ATTRIBUTES = {};

    /** A file's permission bits where its file system keeps them (a listing through NIO carries none). */
    private Optional<Set<PosixFilePermission>> permissionsOf(Path p) throws IOException {
        if (!posix) {
            return Optional.empty();
        }
        return Optional.of(Files.readAttributes(p, PosixFileAttributes.class).permissions());
    }
    private static final Set<OpenOption> CREATE_NEW_WRITE = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        createDirectory(directory, Optional.empty());
    }

    /** The permissions go with the {@code mkdir} (the umask applies). */
    @Override
    public void createDirectory(RemotePath directory, Set<PosixFilePermission> permissions) throws IOException {
        createDirectory(directory, Optional.of(permissions));
    }

    private void createDirectory(RemotePath directory, Optional<Set<PosixFilePermission>> permissions) throws IOException {
        try {
            Path p = nio(directory);
            Files.createDirectory(p, creationAttributes(permissions));
        } catch (IOException e) {
            throw translate(e, directory, null);
        }
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        try {
            Files.delete(nio(file));
        } catch (IOException e) {
            throw translate(e, file, null);
        }
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        try {
            Files.delete(nio(directory));
        } catch (IOException e) {
            throw translate(e, directory, null);
        }
    }

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        try {
            if (replaceExisting) {
                // Some providers (jimfs) refuse an atomic move onto an existing file unless also told to replace.
                Files.move(nio(source), nio(target), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.move(nio(source), nio(target));
            }
        } catch (IOException e) {
            throw translate(e, source, target);
        }
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        try {
            // Not through a link: a directory swapped for one during a sync must not have the time
            // of what it points to (outside the tree) set. A link gets the time itself (lutimes).
            Files.getFileAttributeView(nio(path), java.nio.file.attribute.BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).setTimes(FileTime.from(time), null, null);
        } catch (IOException e) {
            throw translate(e, path, null);
        }
    }

    @Override
    public void setPermissions(RemotePath path, Set<PosixFilePermission> permissions) throws IOException {
        try {
            Files.setPosixFilePermissions(nio(path), permissions);
        } catch (IOException e) {
            throw translate(e, path, null);
        }
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        try {
            Files.createSymbolicLink(nio(link), root.getFileSystem().getPath(target));
        } catch (IOException e) {
            throw translate(e, link, null);
        }
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        try {
            return Files.readSymbolicLink(nio(link)).toString();
        } catch (IOException e) {
            throw translate(e, link, null);
        }
    }

    @Override
    public RemotePath realPath(RemotePath path) throws IOException {
        Path real;
        Path realRoot;
        try {
            real = nio(path).toRealPath();
            realRoot = root.toRealPath();
        } catch (IOException e) {
            throw translate(e, path, null);
        }
        if (!real.startsWith(realRoot)) {
            // Outside what this file system can name (a link out of a mem volume's root): it is
            // nowhere else on this file system, so it overlaps nothing here but itself.
            return path;
        }
        RemotePath out = path.root();
        for (Path name : realRoot.relativize(real)) {
            if (!name.toString().isEmpty()) {
                out = out.child(nameOf(realRoot.resolve(name)));
            }
        }
        return out;
    }

    /**
     * NIO's own copy (the kernel's {@code copy_file_range} on Linux) into a temporary sibling,
     * the listed mtime set on it, then a rename: never a partial file under the final name.
     * (Not {@code COPY_ATTRIBUTES}: it also copies owner and extended attributes, which costs
     * a dozen more system calls per file and is not what a mirror of content promises.) The
     * listed permission bits go with the {@code open} that creates the temporary, the umask
     * applying, as {@code cp} does: a private file is never readable by others, even while copied.
     */
    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        RemotePath tmp = dev.remotepath.tree.FileTransfer.temporarySibling(target);
        dev.remotepath.tree.Temporaries.register(tmp);
        try {
            // Channels, not Files.copy: the same copy_file_range without Files.copy's three
            // pre-check lookups per file, which a mirror of 10,000 small files notices.
            Path created = nio(tmp);
            try (FileChannel in = FileChannel.open(nio(source), StandardOpenOption.READ);
                    FileChannel out = FileChannel.open(created, CREATE_NEW_WRITE,
                            creationAttributes(sourceStat.permissions().isPresent() ? sourceStat.permissions()
                                    : permissionsOf(nio(source))))) {
                long size = in.size();
                long done = 0;
                while (done < size) {
                    long n = in.transferTo(done, size - done, out);
                    if (n <= 0) {
                        break; // the file shrank while copying: copy what there is
                    }
                    done += n;
                }
            }
            FileTime mtime = sourceStat.lastModified().isPresent() ? FileTime.from(sourceStat.lastModified().get())
                    : Files.getLastModifiedTime(nio(source));
            // Both times given: NIO then sets them without first reading the file's attributes
            // (Files.setLastModifiedTime reads them to keep the access time). The copy was just
            // made, so its access time is now anyway. Not through links: NIO then sets them by
            // path (utimensat) instead of opening the file for it, two system calls fewer a file.
            Files.getFileAttributeView(nio(tmp), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setTimes(mtime, FileTime.from(Instant.now()), null);
            rename(tmp, target, replaceExisting);
            return true;
        } catch (IOException e) {
            try {
                Files.deleteIfExists(nio(tmp));
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e instanceof FileSystemException f && f.getFile() != null && f.getFile().startsWith(uriPrefix())
                    ? e : translate(e, source, target);
        } finally {
            dev.remotepath.tree.Temporaries.release(tmp);
        }
    }

    /**
     * Re-issues an NIO exception naming RemotePath URIs instead of NIO paths, keeping its
     * {@code java.nio.file} type (so callers catch the same classes on every backend).
     */
    protected static IOException translate(IOException e, RemotePath file, RemotePath other) {
        String f = file.toString();
        String o = other == null ? null : other.toString();
        if (e instanceof dev.remotepath.IsDirectoryException made) {
            return made; // made here, naming the remote path already
        }
        if (e instanceof FileSystemException fse) {
            // When NIO blames the "other" path (the rename target), keep that attribution.
            if (other != null && fse.getFile() != null && fse.getOtherFile() == null
                    && !fse.getFile().equals(file.fileSystem().toNioPath(file).map(Path::toString).orElse(""))) {
                String t = f;
                f = o;
                o = t;
            }
            String reason = fse.getReason();
            if (fse.getClass() == FileSystemException.class && fse.getFile() != null) {
                // A bare FileSystemException is NIO's ENOTDIR, ELOOP or another errno, told
                // apart only by strerror's localised text: look at the path instead.
                Optional<Path> blamed = file.fileSystem().toNioPath(file).map(p -> p.getFileSystem().getPath(fse.getFile()));
                NioErrors.Cause cause = blamed.map(NioErrors::causeOf).orElse(NioErrors.Cause.OTHER);
                if (cause == NioErrors.Cause.PARENT_NOT_A_DIRECTORY) {
                    // A parent is a file, so the path does not exist (what jimfs, and most
                    // remote servers, report).
                    IOException out = new NoSuchFileException(f, o, "a parent is not a directory");
                    out.initCause(e);
                    return out;
                }
                if (cause == NioErrors.Cause.LINK_LOOP) {
                    IOException out = new FileSystemLoopException(f);
                    out.initCause(e);
                    return out;
                }
            }
            // An instanceof chain, not a type switch: the switch is bootstrapped by invokedynamic,
            // a class spun (~4 ms) in the fresh command whose first stat finds nothing, as most do.
            IOException out;
            if (fse instanceof NoSuchFileException) {
                out = new NoSuchFileException(f, o, reason);
            } else if (fse instanceof FileAlreadyExistsException) {
                out = new FileAlreadyExistsException(f, o, reason);
            } else if (fse instanceof DirectoryNotEmptyException) {
                out = new DirectoryNotEmptyException(f);
            } else if (fse instanceof NotDirectoryException) {
                out = new NotDirectoryException(f);
            } else if (fse instanceof AccessDeniedException) {
                out = new AccessDeniedException(f, o, reason);
            } else if (fse instanceof NotLinkException) {
                out = new NotLinkException(f, o, reason);
            } else if (fse instanceof FileSystemLoopException) {
                out = new FileSystemLoopException(f);
            } else if (fse instanceof AtomicMoveNotSupportedException) {
                out = new AtomicMoveNotSupportedException(f, o, reason);
            } else {
                out = new FileSystemException(f, o, reason);
            }
            out.initCause(e);
            return out;
        }
        return new FileSystemException(f, o, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }
}
