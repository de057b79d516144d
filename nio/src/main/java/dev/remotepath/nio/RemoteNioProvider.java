package dev.remotepath.nio;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ObservedFileSystem;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * RemotePath's backends as a {@link FileSystemProvider}, one subclass per scheme (the JDK finds
 * each through {@code META-INF/services}): {@code Path.of(URI.create("s3://bucket/key"))},
 * {@code FileSystems.newFileSystem(uri, env)} and {@code Files.*} work for every scheme whose
 * backend is on the class path. A file system is one URI authority (an SFTP user and host, a
 * bucket, a mem volume); the env map of {@code newFileSystem} may carry
 * {@value #OPTIONS} (the backend's typed {@link FileSystemOptions}) and {@value #EVENTS} (a
 * {@link FileSystemEvents} to observe every call).
 *
 * <p>Metadata reuse survives NIO: the paths a directory stream hands out carry what the listing
 * said of them, so {@code Files.walk}, {@code walkFileTree} and {@code find} read their
 * attributes without a request per entry.
 */
public abstract class RemoteNioProvider extends FileSystemProvider {

    /** The env key for the backend's typed options ({@code SftpOptions}, {@code S3Options}...). */
    public static final String OPTIONS = "remotepath.options";
    /** The env key for a {@link FileSystemEvents} that observes every call of the file system. */
    public static final String EVENTS = "remotepath.events";

    private final String scheme;
    private final Map<String, RemoteNioFileSystem> systems = new ConcurrentHashMap<>();

    protected RemoteNioProvider(String scheme) {
        this.scheme = scheme;
    }

    /** {@code sftp://}. */
    public static final class Sftp extends RemoteNioProvider {
        public Sftp() {
            super("sftp");
        }
    }

    /** {@code s3://}. */
    public static final class S3 extends RemoteNioProvider {
        public S3() {
            super("s3");
        }
    }

    /** {@code az://} (needs {@code remotepath-azure}). */
    public static final class Az extends RemoteNioProvider {
        public Az() {
            super("az");
        }
    }

    /** {@code webdav://} (plain HTTP). */
    public static final class WebDav extends RemoteNioProvider {
        public WebDav() {
            super("webdav");
        }
    }

    /** {@code webdavs://} (HTTPS). */
    public static final class WebDavs extends RemoteNioProvider {
        public WebDavs() {
            super("webdavs");
        }
    }

    /** {@code ftp://} (plain FTP). */
    public static final class Ftp extends RemoteNioProvider {
        public Ftp() {
            super("ftp");
        }
    }

    /** {@code ftps://} (FTP over TLS). */
    public static final class Ftps extends RemoteNioProvider {
        public Ftps() {
            super("ftps");
        }
    }

    /** {@code http://} (read-only). */
    public static final class Http extends RemoteNioProvider {
        public Http() {
            super("http");
        }
    }

    /** {@code https://} (read-only). */
    public static final class Https extends RemoteNioProvider {
        public Https() {
            super("https");
        }
    }

    /** {@code mem://}. */
    public static final class Mem extends RemoteNioProvider {
        public Mem() {
            super("mem");
        }
    }

    /**
     * {@code zip:<uri>!/path} (read-only; needs {@code remotepath-archive}). The JDK's own zip
     * file system answers {@code jar:} only, so {@code zip:} is free for this one. A file system
     * is one archive: its key is the archive's URI prefix ({@code zip:file:///x.zip!}).
     */
    public static final class Zip extends RemoteNioProvider {
        public Zip() {
            super("zip");
        }
    }

    /** {@code tar:<uri>!/path} (read-only; needs {@code remotepath-archive}), as {@link Zip}. */
    public static final class Tar extends RemoteNioProvider {
        public Tar() {
            super("tar");
        }
    }

    @Override
    public String getScheme() {
        return scheme;
    }

    // ------------------------------------------------------------------ file systems

    private String keyOf(URI uri) {
        if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException(uri + " is not a " + scheme + ": URI");
        }
        if (uri.isOpaque()) { // an archive's URI: its file system is the archive's, found by RemotePaths
            try {
                return RemotePaths.get(uri).fileSystem().uriPrefix();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        if (uri.getRawAuthority() == null) {
            throw new IllegalArgumentException(uri + " names no host, bucket or volume");
        }
        return scheme + "://" + uri.getRawAuthority();
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        String key = keyOf(uri);
        if (systems.containsKey(key)) {
            throw new FileSystemAlreadyExistsException(key);
        }
        RemoteNioFileSystem fs = open(key, env);
        if (systems.putIfAbsent(key, fs) != null) {
            fs.close();
            throw new FileSystemAlreadyExistsException(key);
        }
        return fs;
    }

    private RemoteNioFileSystem open(String key, Map<String, ?> env) throws IOException {
        Object options = env.containsKey(OPTIONS) ? env.get(OPTIONS) : FileSystemOptions.DEFAULTS;
        Object events = env.get(EVENTS);
        for (String k : env.keySet()) {
            if (!k.equals(OPTIONS) && !k.equals(EVENTS)) {
                throw new IllegalArgumentException("unknown env key '" + k + "' (known: " + OPTIONS + ", " + EVENTS + ")");
            }
        }
        if (!(options instanceof FileSystemOptions o)) {
            throw new IllegalArgumentException(OPTIONS + " must be a FileSystemOptions, was " + options);
        }
        if (events != null && !(events instanceof FileSystemEvents)) {
            throw new IllegalArgumentException(EVENTS + " must be a FileSystemEvents, was " + events.getClass().getName());
        }
        URI root = URI.create(key + "/"); // zip:…!/ too
        RemoteFileSystem remote = RemotePaths.get(root, o).fileSystem();
        if (events != null) {
            remote = new ObservedFileSystem(remote, (FileSystemEvents) events);
        }
        // The backend's file systems are shared (RemotePaths caches them): closing this one
        // closes the backend's only when its options were this file system's own, or when it is
        // one archive's (an opaque URI), whose close is what publishes a new archive, as closing
        // the JDK's zip file system writes its zip; the archive's own backend stays open.
        return new RemoteNioFileSystem(this, key, remote,
                options != FileSystemOptions.DEFAULTS || events != null || root.isOpaque());
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        RemoteNioFileSystem fs = systems.get(keyOf(uri));
        if (fs == null) {
            throw new FileSystemNotFoundException(keyOf(uri));
        }
        return fs;
    }

    /** The path a URI names; its file system is opened with default options on first use. */
    @Override
    public Path getPath(URI uri) {
        String key = keyOf(uri);
        RemoteNioFileSystem fs = systems.computeIfAbsent(key, k -> {
            try {
                return open(k, Map.of());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        if (uri.isOpaque()) {
            try {
                return fs.getPath(RemotePaths.get(uri).pathString());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
        return fs.getPath(path);
    }

    /**
     * {@code path} on an NIO file system over its own backend file system (its options, its
     * connection), registered for its URI when none is yet.
     */
    Path pathOf(RemotePath path) {
        String key = path.toUri().isOpaque() ? path.fileSystem().uriPrefix() : keyOf(path.toUri());
        RemoteNioFileSystem fs = systems.computeIfAbsent(key, k -> new RemoteNioFileSystem(this, k, path.fileSystem(), false));
        if (fs.remote() != path.fileSystem()) {
            // The URI's registered file system is another backend one (other options): this path
            // keeps its own, on an NIO file system of its own, not registered.
            fs = new RemoteNioFileSystem(this, key, path.fileSystem(), false);
        }
        return fs.getPath(path.pathString());
    }

    void forget(RemoteNioFileSystem fs) {
        systems.remove(fs.key(), fs);
    }

    static RemotePath remote(Path p) {
        return RemoteNioPath.cast(p).remote();
    }

    // ------------------------------------------------------------------ content

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        noAttributes(attrs);
        RemotePath file = remote(path);
        boolean write = options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND);
        if (write && options.contains(StandardOpenOption.READ)) {
            throw new UnsupportedOperationException("a RemotePath channel reads or writes, not both: " + path);
        }
        if (!write) {
            FileStat stat = file.stat();
            if (stat.isDirectory()) {
                throw new java.nio.file.FileSystemException(path.toString(), null, "is a directory");
            }
            return RemoteByteChannel.reading(file, stat.size().isPresent() && stat.sizeExact() ? stat.size().getAsLong() : -1);
        }
        return RemoteByteChannel.writing(file, file.newOutputStream(writeOptions(options)));
    }

    private static OpenOption[] writeOptions(Set<? extends OpenOption> options) {
        List<OpenOption> out = new ArrayList<>();
        for (OpenOption o : options) {
            if (o == StandardOpenOption.CREATE || o == StandardOpenOption.CREATE_NEW || o == StandardOpenOption.APPEND
                    || o == StandardOpenOption.TRUNCATE_EXISTING) {
                out.add(o);
            } else if (o == StandardOpenOption.WRITE || o == StandardOpenOption.SYNC || o == StandardOpenOption.DSYNC
                    || o == LinkOption.NOFOLLOW_LINKS) {
                continue; // implied, or nothing to do: a write is durable once closed
            } else if (o != StandardOpenOption.SPARSE) {
                throw new UnsupportedOperationException("open option " + o + " is not supported");
            }
        }
        if (out.isEmpty() || (out.size() == 1 && out.getFirst() == StandardOpenOption.CREATE)) {
            // NIO's WRITE alone writes over an existing file in place; RemotePath's writes replace it.
            out.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        return out.toArray(OpenOption[]::new);
    }

    @Override
    public InputStream newInputStream(Path path, OpenOption... options) throws IOException {
        for (OpenOption o : options) {
            if (o != StandardOpenOption.READ && o != LinkOption.NOFOLLOW_LINKS) {
                throw new UnsupportedOperationException("open option " + o + " is not a read option");
            }
        }
        return remote(path).newInputStream();
    }

    @Override
    public OutputStream newOutputStream(Path path, OpenOption... options) throws IOException {
        Set<OpenOption> set = options.length == 0
                ? Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)
                : Set.of(options);
        if (set.contains(StandardOpenOption.READ)) {
            throw new IllegalArgumentException("READ is not a write option");
        }
        return remote(path).newOutputStream(writeOptions(set));
    }

    // ------------------------------------------------------------------ directories

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        RemoteNioPath base = RemoteNioPath.cast(dir);
        List<DirEntry> entries = remote(dir).list(ListDetail.FILE_STATS);
        return new DirectoryStream<>() {
            private boolean handedOut;
            private boolean closed;

            @Override
            public Iterator<Path> iterator() {
                if (closed || handedOut) {
                    throw new IllegalStateException(closed ? "directory stream closed" : "iterator already obtained");
                }
                handedOut = true;
                List<Path> out = new ArrayList<>(entries.size());
                for (DirEntry e : entries) {
                    // The entry's stat goes with its path: readAttributes on it asks nothing of the server.
                    Path p = ((RemoteNioPath) base.resolve(e.name())).withListed(e.stat());
                    try {
                        if (filter.accept(p)) {
                            out.add(p);
                        }
                    } catch (IOException ex) {
                        throw new java.nio.file.DirectoryIteratorException(ex);
                    }
                }
                return out.iterator();
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        noAttributes(attrs);
        remote(dir).createDirectory();
    }

    @Override
    public void delete(Path path) throws IOException {
        remote(path).delete();
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
        noAttributes(attrs);
        remote(link).createSymbolicLink(target.toString());
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
        return RemoteNioPath.parse(RemoteNioPath.cast(link).getFileSystem(), remote(link).readSymbolicLink());
    }

    // ------------------------------------------------------------------ copy and move

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        RemotePath src = remote(source);
        RemotePath dst = remote(target);
        Set<CopyOption> opts = Set.of(options);
        boolean replace = opts.contains(StandardCopyOption.REPLACE_EXISTING);
        FileStat s = src.stat(opts.contains(LinkOption.NOFOLLOW_LINKS) ? new LinkOption[] {LinkOption.NOFOLLOW_LINKS}
                : new LinkOption[0]);
        if (src.equals(dst)) {
            return;
        }
        prepareTarget(dst, replace);
        if (s.isDirectory()) {
            dst.createDirectory(); // NIO copies a directory as an empty one
            if (opts.contains(StandardCopyOption.COPY_ATTRIBUTES) && s.lastModified().isPresent()) {
                dst.setLastModifiedTime(s.lastModified().get());
            }
            return;
        }
        List<CopyOption> pass = new ArrayList<>(List.of(StandardCopyOption.REPLACE_EXISTING));
        if (opts.contains(LinkOption.NOFOLLOW_LINKS)) {
            pass.add(LinkOption.NOFOLLOW_LINKS);
        }
        src.copyTo(dst, pass.toArray(CopyOption[]::new)); // keeps the mtime where the target can set it
    }

    /** NIO's rule for an existing target: without REPLACE_EXISTING it fails; with it, a file or empty directory goes. */
    private static void prepareTarget(RemotePath dst, boolean replace) throws IOException {
        FileStat t;
        try {
            t = dst.stat(LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException absent) {
            return;
        }
        if (!replace) {
            throw new FileAlreadyExistsException(dst.pathString());
        }
        if (t.isDirectory()) {
            dst.delete(); // fails with DirectoryNotEmptyException when it holds anything, as NIO does
        }
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        RemotePath src = remote(source);
        RemotePath dst = remote(target);
        Set<CopyOption> opts = Set.of(options);
        if (src.equals(dst)) {
            return;
        }
        if (!opts.contains(StandardCopyOption.ATOMIC_MOVE)) {
            prepareTarget(dst, opts.contains(StandardCopyOption.REPLACE_EXISTING));
        }
        List<CopyOption> pass = new ArrayList<>();
        for (CopyOption o : options) {
            if (o == StandardCopyOption.ATOMIC_MOVE || o == StandardCopyOption.REPLACE_EXISTING) {
                pass.add(o);
            }
        }
        if (!pass.contains(StandardCopyOption.REPLACE_EXISTING)) {
            pass.add(StandardCopyOption.REPLACE_EXISTING); // the NIO rule was applied above
        }
        src.moveTo(dst, pass.toArray(CopyOption[]::new));
    }

    // ------------------------------------------------------------------ attributes

    private static FileStat statOf(Path path, LinkOption... options) throws IOException {
        RemoteNioPath p = RemoteNioPath.cast(path);
        boolean nofollow = Arrays.asList(options).contains(LinkOption.NOFOLLOW_LINKS);
        // A listed path's stat is the link's own (listings do not follow): good for NOFOLLOW, and
        // for a path that is not a link either way.
        // A file's listing must have said its exact size (an index page's "1.2K" is not enough);
        // a directory's size means nothing.
        if (p.listed().isPresent() && (nofollow || !p.listed().get().isSymbolicLink())) {
            FileStat l = p.listed().get();
            if (l.isDirectory() || (l.size().isPresent() && l.sizeExact())) {
                return l;
            }
        }
        return remote(path).stat(nofollow ? new LinkOption[] {LinkOption.NOFOLLOW_LINKS} : new LinkOption[0]);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        if (type != BasicFileAttributes.class && type != PosixFileAttributes.class) {
            throw new UnsupportedOperationException("attributes " + type.getName() + " are not supported");
        }
        RemoteAttributes a = new RemoteAttributes(statOf(path, options));
        if (type == PosixFileAttributes.class && a.stat().permissions().isEmpty()) {
            throw new UnsupportedOperationException("the backend reports no POSIX permissions for " + path);
        }
        return (A) a;
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        int colon = attributes.indexOf(':');
        String view = colon < 0 ? "basic" : attributes.substring(0, colon);
        String names = colon < 0 ? attributes : attributes.substring(colon + 1);
        return new RemoteAttributes(statOf(path, options)).named(view, names);
    }

    /**
     * The basic view, the owner view ({@code Files.getOwner}: the owner where the backend reports
     * one, SFTP's numeric uid), and the POSIX view (which {@code Files.setPosixFilePermissions}
     * uses) where the backend sets permissions. Times and permissions are set on the path itself,
     * never through a link (the SPI's promise); owners are read, never set.
     */
    @Override
    @SuppressWarnings("unchecked")
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        boolean posix = type == PosixFileAttributeView.class;
        boolean owner = type == java.nio.file.attribute.FileOwnerAttributeView.class;
        if (type != BasicFileAttributeView.class && !posix && !owner) {
            return null;
        }
        if (posix && !remote(path).fileSystem().capabilities().contains(dev.remotepath.spi.Capability.POSIX_PERMISSIONS)) {
            return null;
        }
        return (V) new RemoteAttributeView(this, path, posix ? "posix" : owner ? "owner" : "basic", options);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        switch (attribute) {
            case "lastModifiedTime", "basic:lastModifiedTime" -> remote(path).setLastModifiedTime(((FileTime) value).toInstant());
            case "posix:permissions" -> remote(path).setPermissions((Set<PosixFilePermission>) value);
            default -> throw new UnsupportedOperationException("setting '" + attribute + "' is not supported");
        }
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        statOf(path); // NoSuchFileException when absent
        for (AccessMode m : modes) {
            if (m == AccessMode.WRITE && RemoteNioPath.cast(path).getFileSystem().isReadOnly()) {
                throw new AccessDeniedException(path.toString(), null, "read-only file system");
            }
        }
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        if (path.equals(path2)) {
            return true;
        }
        if (!(path2 instanceof RemoteNioPath other) || other.getFileSystem() != RemoteNioPath.cast(path).getFileSystem()) {
            return false;
        }
        return remote(path).fileSystem().realPath(remote(path)).equals(remote(path2).fileSystem().realPath(remote(path2)));
    }

    @Override
    public boolean isHidden(Path path) {
        Path name = path.getFileName();
        return name != null && name.toString().startsWith(".");
    }

    /** The store of an existing path ({@code NoSuchFileException} otherwise, as the JDK's provider). */
    @Override
    public FileStore getFileStore(Path path) throws IOException {
        statOf(path);
        return new RemoteFileStore(remote(path));
    }

    private static void noAttributes(FileAttribute<?>[] attrs) {
        if (attrs.length > 0) {
            throw new UnsupportedOperationException("initial attributes are not supported: " + attrs[0].name());
        }
    }
}
