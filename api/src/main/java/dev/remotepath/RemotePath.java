package dev.remotepath;

import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.tree.FileTransfer;
import dev.remotepath.tree.Glob;
import dev.remotepath.tree.Listings;
import dev.remotepath.tree.Mover;
import dev.remotepath.tree.StreamingChecksum;
import dev.remotepath.tree.TreeCopier;
import dev.remotepath.tree.TreeRemover;
import dev.remotepath.tree.TreeWalker;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.CopyOption;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A location on some storage: an immutable value made of a {@link RemoteFileSystem} and a
 * lexically normalized path. Equal by value; {@link #toString()} is the URI without
 * credentials.
 *
 * <p>Pure operations ({@link #name()}, {@link #parent()}, {@link #resolve(String...)},
 * {@link #relativize}, {@link #matches}, ...) never touch storage. I/O operations are methods
 * on the path, as in Python's pathlib; they delegate to the file system's primitives and to
 * the shared tree algorithms, and fail with the {@code java.nio.file} exceptions.
 *
 * <p>Normalization is that of URIs (RFC 3986 dot-segment removal), not of POSIX: empty and
 * {@code .} segments are dropped and {@code a/..} cancels out lexically; {@code ..} above the
 * root stays at the root. A relative path (from {@link #relativize}) has no location and is
 * only for pure operations until resolved against an absolute one.
 */
public final class RemotePath implements Comparable<RemotePath> {

    private final RemoteFileSystem fs;
    /**
     * For a child made from a listing ({@link #child}): its directory and its name, from which
     * {@link #path} is joined on first use. A listing makes one path per entry and most are
     * only asked for their name, type or parent; joining each full path up front was a third of
     * a listing's time and most of its allocation. Null for every other path.
     */
    private final RemotePath parentOfChild;
    private final String leaf;
    /**
     * Normalized: "/" or "/a/b" (absolute), "" or "a/b" or "../a" (relative). Joined lazily for a
     * child (a benign race: any thread joins the same immutable value from final fields).
     */
    private String path;
    /**
     * The last segment, known at birth for a child (a listing makes one per entry and the
     * syncer asks each for its name several times); else computed on first use. A benign race:
     * any thread computes the same immutable value.
     */
    private String name;

    private RemotePath(RemoteFileSystem fs, String normalizedPath) {
        this.fs = fs;
        this.path = normalizedPath;
        this.parentOfChild = null;
        this.leaf = null;
    }

    /** A child of {@code parent}, whose path is joined when first asked for. */
    private RemotePath(RemotePath parent, String name) {
        this.fs = parent.fs;
        this.parentOfChild = parent;
        this.leaf = name;
        this.name = name;
    }

    /** The normalized path, joining a child's on first use. */
    private String p() {
        String s = path;
        return s != null ? s : join();
    }

    /**
     * Joins this child's path and those of its ancestors not joined yet, top down, without
     * recursion (a chain of children made without listing their directories may be deep).
     */
    private String join() {
        String parentPath = parentOfChild.path;
        if (parentPath != null) { // the usual case: a listed directory's path is joined already
            String s = PathText.joined(parentPath, leaf);
            path = s;
            return s;
        }
        java.util.ArrayDeque<RemotePath> unjoined = new java.util.ArrayDeque<>();
        RemotePath p = this;
        while (p.path == null) {
            unjoined.push(p);
            p = p.parentOfChild;
        }
        String dir = p.path;
        while (!unjoined.isEmpty()) {
            RemotePath c = unjoined.pop();
            dir = PathText.joined(dir, c.leaf);
            c.path = dir;
        }
        return dir;
    }

    /**
     * The path {@code path} on {@code fs}, normalized. For backends and tests; users get paths
     * from {@link RemotePaths}.
     *
     * @throws InvalidPathException if the path contains NUL
     */
    public static RemotePath of(RemoteFileSystem fs, String path) {
        Objects.requireNonNull(fs, "fs");
        return new RemotePath(fs, PathText.normalize(path));
    }

    // ---------------------------------------------------------------- identity and text

    /** The file system this path lives on. */
    public RemoteFileSystem fileSystem() {
        return fs;
    }

    /** The decoded path: {@code /dir/file name.txt}, or a relative {@code a/b}. */
    public String pathString() {
        return p();
    }

    /** The URI of this path, without credentials. Relative paths have none. */
    public URI toUri() {
        requireAbsolute("toUri");
        return URI.create(toString());
    }

    /** The URI without credentials (for a relative path, the encoded relative path). */
    @Override
    public String toString() {
        return isAbsolute() ? fs.uriPrefix() + UriPaths.encodePath(p()) : UriPaths.encodePath(p());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RemotePath other && fs.equals(other.fs) && p().equals(other.p());
    }

    @Override
    public int hashCode() {
        return fs.hashCode() * 31 + p().hashCode();
    }

    /** Orders by file system URI prefix, then by path segments (so a directory sorts before its children). */
    @Override
    public int compareTo(RemotePath o) {
        int c = fs.uriPrefix().compareTo(o.fs.uriPrefix());
        if (c != 0) {
            return c;
        }
        return PathText.compareSegments(parts(), o.parts());
    }

    // ---------------------------------------------------------------- pure operations

    public boolean isAbsolute() {
        return parentOfChild != null ? parentOfChild.isAbsolute() : path.startsWith("/");
    }

    /** The last segment; empty for the root and for the empty relative path. */
    public String name() {
        String n = name;
        if (n == null) {
            if (leaf != null) {
                return leaf;
            }
            n = PathText.lastSegment(p());
            name = n;
        }
        return n;
    }

    /** The final suffix including its dot ({@code .gz} of {@code a.tar.gz}); empty if none. */
    public String suffix() {
        return PathText.suffix(name());
    }

    /** All suffixes ({@code [.tar, .gz]} of {@code a.tar.gz}); leading dots of hidden names are not suffixes. */
    public List<String> suffixes() {
        return PathText.suffixes(name());
    }

    /** The name without its final suffix. */
    public String stem() {
        String name = name();
        return name.substring(0, name.length() - suffix().length());
    }

    /** The parent; the root's parent is the root, and a one-segment relative path's is the empty path (as pathlib). */
    public RemotePath parent() {
        if (parentOfChild != null) {
            return parentOfChild;
        }
        String path = p();
        int slash = path.lastIndexOf('/');
        if (slash < 0) {
            return new RemotePath(fs, "");
        }
        if (path.equals("/")) {
            return this;
        }
        return new RemotePath(fs, slash == 0 ? "/" : path.substring(0, slash));
    }

    /** The root of this path's file system. */
    public RemotePath root() {
        return new RemotePath(fs, "/");
    }

    /** The segments, without the root: {@code /a/b} gives {@code [a, b]}. */
    public List<String> parts() {
        return PathText.parts(p());
    }

    /**
     * Joins segments onto this path, each of which may hold several segments; an absolute one
     * restarts from the root (as in pathlib).
     */
    public RemotePath resolve(String... others) {
        return new RemotePath(fs, PathText.resolved(p(), others));
    }

    /** Resolves another path of the same file system; an absolute {@code other} is returned as is. */
    public RemotePath resolve(RemotePath other) {
        requireSameFileSystem(other);
        return other.isAbsolute() ? other : resolve(other.p());
    }

    /**
     * The child named {@code name}, which must be a single safe segment. Used for names that
     * come from listings: no parsing, no normalization.
     */
    public RemotePath child(String name) {
        String problem = EntryNames.problem(name);
        if (problem != null) {
            throw new InvalidPathException(EntryNames.quote(name), problem);
        }
        return new RemotePath(this, name);
    }

    public RemotePath resolveSibling(String other) {
        return parent().resolve(other);
    }

    /**
     * The relative path that leads from this path to {@code other}, so that
     * {@code this.resolve(this.relativize(other)).equals(other)}.
     *
     * @throws IllegalArgumentException if the two are on different file systems, or one is
     *                                  absolute and the other not
     */
    public RemotePath relativize(RemotePath other) {
        requireSameFileSystem(other);
        if (isAbsolute() != other.isAbsolute()) {
            throw new IllegalArgumentException("cannot relativize " + other + " against " + this
                    + ": one is absolute, the other relative");
        }
        return new RemotePath(fs, PathText.relative(parts(), other.parts()));
    }

    /** This path with its name replaced; the new name must be one safe segment. */
    public RemotePath withName(String name) {
        if (name().isEmpty()) {
            throw new IllegalArgumentException(this + " has no name to replace");
        }
        return parent().child(name);
    }

    /** This path with its final suffix replaced ({@code ""} removes it); the suffix must start with a dot. */
    public RemotePath withSuffix(String suffix) {
        if (!suffix.isEmpty() && (!suffix.startsWith(".") || suffix.equals(".") || suffix.indexOf('/') >= 0)) {
            throw new IllegalArgumentException("invalid suffix '" + suffix + "'");
        }
        return withName(stem() + suffix);
    }

    /** True when this path is {@code other} or lies below it, segment-wise, on the same file system. */
    public boolean startsWith(RemotePath other) {
        if (!fs.equals(other.fs) || isAbsolute() != other.isAbsolute()) {
            return false;
        }
        List<String> a = parts();
        List<String> b = other.parts();
        return a.size() >= b.size() && a.subList(0, b.size()).equals(b);
    }

    /**
     * Glob match, as pathlib's {@code match}: a relative pattern matches from the right
     * ({@code *.txt} matches any path whose name ends in {@code .txt}); an absolute one must
     * match the whole path. Supports {@code * ? [..] {a,b} **}.
     */
    public boolean matches(String glob) {
        return Glob.compile(glob).matchesFromRight(parts(), isAbsolute());
    }

    // ---------------------------------------------------------------- metadata

    /** Stats this path, following a final symbolic link. */
    public FileStat stat() throws IOException {
        return fs.stat(requireAbsolute("stat"), true);
    }

    /** Stats this path; with {@link LinkOption#NOFOLLOW_LINKS}, a link is described itself. */
    public FileStat stat(LinkOption... options) throws IOException {
        return fs.stat(requireAbsolute("stat"), !Arrays.asList(options).contains(LinkOption.NOFOLLOW_LINKS));
    }

    /** True when something exists here (a link is followed; a broken or looping link does not exist). */
    public boolean exists() throws IOException {
        return statIfExists(true).isPresent();
    }

    public boolean isDirectory() throws IOException {
        return statIfExists(true).map(FileStat::isDirectory).orElse(false);
    }

    public boolean isRegularFile() throws IOException {
        return statIfExists(true).map(FileStat::isRegularFile).orElse(false);
    }

    public boolean isSymbolicLink() throws IOException {
        return statIfExists(false).map(FileStat::isSymbolicLink).orElse(false);
    }

    private Optional<FileStat> statIfExists(boolean follow) throws IOException {
        try {
            return Optional.of(fs.stat(requireAbsolute("stat"), follow));
        } catch (NoSuchFileException | java.nio.file.FileSystemLoopException e) {
            return Optional.empty();
        }
    }

    // ---------------------------------------------------------------- listing and trees

    /**
     * The entries of this directory sorted by name, each with the metadata the listing carried
     * (at least the type), as an unmodifiable list. Each entry is made when the list is asked
     * for it (equal each time, not the same object), so a loop that keeps none costs little more
     * than the names.
     */
    public List<DirEntry> list() throws IOException {
        return list(ListDetail.TYPES);
    }

    /** As {@link #list()}, with at least {@code detail} metadata. */
    public List<DirEntry> list(ListDetail detail) throws IOException {
        return Listings.sortedView(requireAbsolute("list"), detail);
    }

    /** Every entry below this directory, depth first, lazily; the stream must be closed. */
    public Stream<DirEntry> walk() throws IOException {
        return walk(WalkOptions.defaults());
    }

    /**
     * Every entry below this directory (not the directory itself), depth first and sorted by
     * name within a directory, listed lazily one directory at a time. Listing failures reach
     * {@link WalkOptions#errorHandler()}; one it rethrows surfaces from the stream as an
     * {@link java.io.UncheckedIOException}. The stream must be closed.
     */
    public Stream<DirEntry> walk(WalkOptions options) throws IOException {
        return TreeWalker.stream(requireAbsolute("walk"), options);
    }

    /** Entries below this directory whose relative path matches {@code pattern}; lazily, must be closed. */
    public Stream<DirEntry> glob(String pattern) throws IOException {
        return Glob.compile(pattern).find(requireAbsolute("glob"));
    }

    // ---------------------------------------------------------------- content

    public InputStream newInputStream() throws IOException {
        return newInputStream(0);
    }

    /** Reads from byte {@code offset}; an offset past the end gives an empty stream. */
    public InputStream newInputStream(long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        return fs.openRead(requireAbsolute("read"), offset);
    }

    /**
     * Opens for writing, with {@link StandardOpenOption} semantics: no options means CREATE,
     * TRUNCATE_EXISTING, WRITE; CREATE_NEW fails on an existing file; APPEND appends; without
     * CREATE or CREATE_NEW the file must exist. Writes go straight to the file, as in NIO; use
     * {@link #copyTo} for all-or-nothing replacement.
     */
    public OutputStream newOutputStream(OpenOption... options) throws IOException {
        requireWritable("write");
        WriteOptions write = WriteOptions.of(options, this);
        if (!write.mayCreate() && !fs.stat(this, true).isRegularFile()) {
            throw new NoSuchFileException(toString(), null, "not a regular file");
        }
        return fs.openWrite(this, write.mode());
    }

    public byte[] readAllBytes() throws IOException {
        try (InputStream in = newInputStream()) {
            return in.readAllBytes();
        }
    }

    public String readString() throws IOException {
        return readString(StandardCharsets.UTF_8);
    }

    public String readString(Charset charset) throws IOException {
        return new String(readAllBytes(), charset);
    }

    /** Writes {@code bytes}, with {@link #newOutputStream} option semantics. */
    public RemotePath write(byte[] bytes, OpenOption... options) throws IOException {
        try (OutputStream out = newOutputStream(options)) {
            out.write(bytes);
        }
        return this;
    }

    /** Writes {@code text} as UTF-8. */
    public RemotePath writeString(String text, OpenOption... options) throws IOException {
        return write(text.getBytes(StandardCharsets.UTF_8), options);
    }

    // ---------------------------------------------------------------- structure changes

    /** Creates this directory; its parent must exist. */
    public RemotePath createDirectory() throws IOException {
        requireWritable("createDirectory");
        fs.createDirectory(this);
        return this;
    }

    /** Creates this directory and any missing parents; an existing directory is fine. */
    public RemotePath createDirectories() throws IOException {
        requireWritable("createDirectories");
        FileTransfer.createDirectories(this);
        return this;
    }

    /** Deletes this file, link or empty directory. */
    public void delete() throws IOException {
        requireWritable("delete");
        FileStat stat = fs.stat(this, false);
        if (stat.isDirectory()) {
            fs.deleteDirectory(this);
        } else {
            fs.deleteFile(this);
        }
    }

    /** Deletes this file, link or empty directory if it exists; returns whether it did. */
    public boolean deleteIfExists() throws IOException {
        try {
            delete();
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /**
     * Deletes this path and, if it is a directory, everything below it, using the listings'
     * types (no stat per entry). Links are deleted, never followed. A missing path is a
     * {@link NoSuchFileException}.
     */
    public void deleteRecursively() throws IOException {
        requireWritable("deleteRecursively");
        TreeRemover.deleteRecursively(this);
    }

    /**
     * Copies this file or tree to {@code target}, on any backend. Options:
     * {@link java.nio.file.StandardCopyOption#REPLACE_EXISTING} (replace files, merge into an
     * existing directory), {@link LinkOption#NOFOLLOW_LINKS} (copy a link at the root as a
     * link), {@link RemoteCopyOption#FOLLOW_LINKS} (copy what links inside a tree point to).
     * Modification times are preserved where the target can set them. Each file appears
     * under its final name only when complete; a failure leaves any old target file intact.
     */
    public void copyTo(RemotePath target, CopyOption... options) throws IOException {
        requireAbsolute("copy");
        target.requireWritable("copy");
        TreeCopier.copy(this, target, options);
    }

    /**
     * Moves this file or tree: a rename where both are on one file system, else a copy (as
     * {@link #copyTo}) followed by a recursive delete of the source. With
     * {@link java.nio.file.StandardCopyOption#ATOMIC_MOVE}, only a rename is tried.
     */
    public void moveTo(RemotePath target, CopyOption... options) throws IOException {
        requireWritable("move");
        target.requireWritable("move");
        Mover.move(this, target, options);
    }

    // ---------------------------------------------------------------- attributes

    /**
     * Sets this path's modification time, never through a symbolic link: a link gets the time
     * itself (or the call fails where the backend cannot), what it points to is left alone.
     */
    public RemotePath setLastModifiedTime(Instant time) throws IOException {
        requireWritable("setLastModifiedTime");
        fs.setLastModifiedTime(this, time);
        return this;
    }

    public RemotePath setPermissions(Set<PosixFilePermission> permissions) throws IOException {
        requireWritable("setPermissions");
        fs.setPermissions(this, permissions);
        return this;
    }

    /** The verbatim target of this symbolic link. */
    public String readSymbolicLink() throws IOException {
        return fs.readSymbolicLink(requireAbsolute("readSymbolicLink"));
    }

    /** Makes this path a symbolic link to {@code target} (stored verbatim, not resolved). */
    public RemotePath createSymbolicLink(String target) throws IOException {
        requireWritable("createSymbolicLink");
        if (target.isEmpty() || target.indexOf('\0') >= 0) {
            throw new InvalidPathException(target.replace("\0", "\\0"), "invalid link target");
        }
        fs.createSymbolicLink(this, target);
        return this;
    }

    /**
     * The checksum of this file's content: the server's own where it offers this algorithm,
     * else computed by streaming the content.
     */
    public Checksum checksum(ChecksumAlgorithm algorithm) throws IOException {
        requireAbsolute("checksum");
        if (fs.nativeChecksums().contains(algorithm)) {
            Optional<Checksum> nativeSum = fs.nativeChecksum(this, algorithm);
            if (nativeSum.isPresent()) {
                return nativeSum.get();
            }
        }
        try (InputStream in = newInputStream()) {
            return StreamingChecksum.of(algorithm, in);
        }
    }

    /**
     * This path as a {@code java.nio.file.Path}: the NIO path behind it for backends built on NIO
     * (local, mem); for every other scheme, with remotepath-nio present, a path of RemotePath's
     * NIO provider over this same backend file system (its options, its connection). Empty for a
     * relative path, or without remotepath-nio for a scheme that has no NIO path behind it.
     */
    public Optional<java.nio.file.Path> toNioPath() {
        if (!isAbsolute()) {
            return Optional.empty();
        }
        Optional<java.nio.file.Path> behind = fs.toNioPath(this);
        return behind.isPresent() ? behind
                : InstalledNioPaths.FACTORY.flatMap(f -> f.pathOf(this));
    }

    /** The NIO path factory on the class or module path, if any: looked up on first use, once. */
    private static final class InstalledNioPaths {
        static final Optional<dev.remotepath.spi.NioPathFactory> FACTORY = java.util.ServiceLoader.load(
                dev.remotepath.spi.NioPathFactory.class, RemotePath.class.getClassLoader()).findFirst();
    }

    // ---------------------------------------------------------------- checks

    private RemotePath requireAbsolute(String operation) {
        if (!isAbsolute()) {
            throw new IllegalStateException(operation + " needs an absolute path; '" + this
                    + "' is relative: resolve it against a directory first");
        }
        return this;
    }

    private void requireWritable(String operation) throws IOException {
        requireAbsolute(operation);
        if (!fs.isOpen()) {
            throw new java.nio.file.ClosedFileSystemException(); // as NIO: closed comes before read-only
        }
        if (!fs.capabilities().contains(Capability.WRITE)) {
            throw new ReadOnlyRemoteFileSystemException(toString(), operation);
        }
    }

    private void requireSameFileSystem(RemotePath other) {
        if (!fs.equals(other.fs)) {
            throw new IllegalArgumentException(other + " is not on the file system of " + this);
        }
    }

    /** True when the two paths are in the same file system, so that renames and native copies apply. */
    public boolean sameFileSystemAs(RemotePath other) {
        return fs.equals(other.fs);
    }
}
