package dev.remotepath.archive;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.IsDirectoryException;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.OpenState;
import dev.remotepath.spi.ReadOnlyFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.attribute.PosixFilePermission;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The entries of one archive as a read-only file system: {@code zip:<archive's URI>!/path} or
 * {@code tar:<archive's URI>!/path}. The archive lies on any backend and is read through that
 * backend's reads. A zip is read by ranges: opening reads the central directory (from the end
 * of the archive), listing and stat read nothing more, and reading an entry reads its local
 * header and its own bytes only, so one entry of a large archive on S3 or HTTP costs a few
 * requests, not the archive. A tar (plain or gzip-compressed) is read once from the start to
 * index it; an entry of a plain tar is then read by its range, one of a compressed tar by
 * decompressing up to it.
 *
 * <p>Names are checked as every listing's are (an entry {@code ../x}, an absolute name or one
 * with NUL makes its directory an error, never a path outside), symbolic links stored by Unix
 * and tar tools are followed only within the archive, and content is held to the entry's
 * declared size (and a zip entry's CRC-32). Stored and deflated zip entries can be read; other
 * methods and encrypted entries fail with a {@link java.util.zip.ZipException} naming the entry.
 *
 * <p>The file system reads the directory once; {@link #refresh()} (which
 * {@link dev.remotepath.RemotePaths#get} calls for every archive URI) reads it again when the
 * archive's size, time or ETag changed. Reads that were open on the old archive fail rather
 * than mix the two.
 */
public final class ArchiveFileSystem implements ReadOnlyFileSystem {

    /** A link chain longer than this is a loop, as for POSIX paths. */
    static final int MAX_LINKS = 40;
    private static final int MAX_LINK_TARGET = 4096;

    private final ArchiveFileSystemProvider provider;
    private final ArchiveFormat format;
    private final RemotePath archive;
    private final String uriPrefix;
    private final ZoneId dosZone;
    private final OpenState state = new OpenState();
    private volatile Snapshot snapshot;

    /** What one reading of the archive's directory gave. */
    private record Snapshot(FileStat archiveStat, ArchiveTree tree, ReadCache cache, Map<Long, String> linkTargets) {
        long archiveSize() {
            return archiveStat.size().orElseThrow();
        }
    }

    ArchiveFileSystem(ArchiveFileSystemProvider provider, ArchiveFormat format, RemotePath archive, ZoneId dosZone)
            throws IOException {
        this.provider = provider;
        this.format = format;
        this.archive = archive;
        this.dosZone = dosZone;
        this.uriPrefix = ArchiveUris.prefix(format.scheme(), archive);
        this.snapshot = read(archiveStat());
    }

    /**
     * The file system of the zip archive at {@code archive}, opened with whatever options its
     * own backend was given (credentials, timeouts); the same one while it stays open.
     *
     * @throws java.util.zip.ZipException if it is not a zip archive, or a corrupt one
     */
    public static ArchiveFileSystem zip(RemotePath archive) throws IOException {
        return ArchiveFileSystemProvider.open(ArchiveFormat.ZIP, archive);
    }

    /**
     * The file system of the tar archive at {@code archive} (plain, or gzip-compressed:
     * {@code .tar.gz}, {@code .tgz}, told by its first bytes), as {@link #zip(RemotePath)}.
     *
     * @throws java.io.IOException naming the archive and the offset if it is not a tar archive
     */
    public static ArchiveFileSystem tar(RemotePath archive) throws IOException {
        return ArchiveFileSystemProvider.open(TarFormat.TAR, archive);
    }

    /**
     * Opens the path a {@code zip:<uri>!/path} or {@code tar:<uri>!/path} URI names, with the archive's own path made by
     * {@code archives} from its URI (with a backend's options or credentials, as a command line
     * makes its other paths; a nested archive's URI comes to it as {@code zip:...} too). Where
     * no archive is, the path is on a {@link NewArchiveFileSystem}: writing into it makes one.
     *
     * @throws java.nio.file.InvalidPathException if {@code uri} is not an archive URI
     */
    public static RemotePath path(String uri, ArchiveOpener archives) throws IOException {
        java.net.URI parsed;
        try {
            parsed = new java.net.URI(uri);
        } catch (java.net.URISyntaxException e) {
            throw new java.nio.file.InvalidPathException(uri, "malformed URI: " + e.getReason());
        }
        // zip:file:///x.zip!/a is opaque to java.net.URI; zip:/tmp/x.zip!/a (a local path) is not
        ArchiveFormat format = parsed.getScheme() == null ? null : ArchiveFormat.of(parsed.getScheme()).orElse(null);
        if (format == null) {
            throw new java.nio.file.InvalidPathException(uri, "not a zip:<uri of the archive>!/path or tar:... URI");
        }
        ArchiveUris.Parsed p = ArchiveUris.parse(parsed);
        return ArchiveFileSystemProvider.openOrCreate(format, archives.open(p.archiveUri())).path(p.path());
    }

    /** Makes the path of an archive from its URI, for {@link #path(String, ArchiveOpener)}. */
    @FunctionalInterface
    public interface ArchiveOpener {
        RemotePath open(String archiveUri) throws IOException;
    }

    /** The archive this file system reads. */
    public RemotePath archive() {
        return archive;
    }

    /**
     * Reads the archive's directory again if the archive changed (its size, modification time
     * or ETag) since it was last read; returns whether it had.
     */
    public boolean refresh() throws IOException {
        state.requireOpen();
        FileStat now = archiveStat();
        Snapshot s = snapshot;
        if (sameArchive(s.archiveStat(), now)) {
            return false;
        }
        synchronized (this) {
            if (sameArchive(snapshot.archiveStat(), now)) {
                return false;
            }
            Snapshot old = snapshot;
            snapshot = read(now);
            old.cache().close();
            return true;
        }
    }

    private static boolean sameArchive(FileStat a, FileStat b) {
        return a.size().equals(b.size()) && a.lastModified().equals(b.lastModified()) && a.etag().equals(b.etag());
    }

    private FileStat archiveStat() throws IOException {
        FileStat st = archive.fileSystem().stat(archive, true);
        if (!st.isRegularFile() || st.size().isEmpty()) {
            throw new FileSystemException(archive.toString(), null,
                    "not a regular file of known size: cannot be read as a " + format.scheme() + " archive");
        }
        return st;
    }

    private Snapshot read(FileStat st) throws IOException {
        ReadCache cache = new ReadCache();
        List<? extends ArchiveEntry> entries;
        try {
            entries = format.index(archive, st, dosZone, cache);
        } catch (IOException | RuntimeException e) {
            cache.close(); // a copy made on the way is of an archive that cannot be read
            throw e;
        }
        return new Snapshot(st, new ArchiveTree(entries), cache,
                new ConcurrentHashMap<>());
    }

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        return uriPrefix;
    }

    /**
     * Read-only; links stored by Unix zip tools are read (and followed within the archive),
     * so walks and safety checks see them as links.
     */
    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    private static final Set<Capability> CAPABILITIES = Set.of(Capability.SYMBOLIC_LINKS);

    @Override
    public boolean isOpen() {
        return state.isOpen();
    }

    /** Forgets the directory; the archive's own file system stays open (it is not this one's). */
    @Override
    public void close() {
        if (state.close()) {
            snapshot.cache().close();
            provider.forget(this, format.scheme(), archive);
        }
    }

    @Override
    public String toString() {
        return "ArchiveFileSystem[" + uriPrefix + "]";
    }

    // ------------------------------------------------------------------ lookups

    /** What a path leads to: a {@link ArchiveTree.Dir} or an {@link ArchiveEntry}, and the path it really is. */
    private record Found(Object node, List<String> realParts) {
    }

    /**
     * Walks {@code path} from the root, following links on the way (and at the end when
     * {@code followFinal}) within the archive only.
     */
    private Found locate(Snapshot s, RemotePath path, boolean followFinal) throws IOException {
        state.requireOpen();
        Deque<String> todo = new ArrayDeque<>(path.parts());
        List<String> at = new ArrayList<>();
        Object node = s.tree().root;
        int links = 0;
        while (!todo.isEmpty()) {
            String part = todo.pollFirst();
            if (!(node instanceof ArchiveTree.Dir dir)) { // below a file: nothing there, as stat(2) without ENOTDIR says on S3/HTTP
                throw new NoSuchFileException(path.toString(), null, "'" + String.join("/", at) + "' is a file");
            }
            if (dir.isAmbiguous(part)) {
                throw new FileSystemException(path.toString(), null,
                        "'" + part + "' is the name of more than one entry of the archive");
            }
            Object child = dir.children.get(part);
            if (child == null) {
                throw new NoSuchFileException(path.toString());
            }
            if (child instanceof ArchiveEntry r && r.type() == FileType.SYMLINK && (followFinal || !todo.isEmpty())) {
                if (++links > MAX_LINKS) {
                    throw new FileSystemLoopException(path.toString());
                }
                List<String> next = resolveLink(at, linkTarget(s, r, path(joined(at, part))), path);
                for (int i = next.size() - 1; i >= 0; i--) {
                    todo.addFirst(next.get(i));
                }
                at.clear();
                node = s.tree().root;
                continue;
            }
            at.add(part);
            node = child;
        }
        return new Found(node, at);
    }

    /** A link's target as parts from the root; a target that leaves the archive is refused (new archives' too). */
    static List<String> resolveLink(List<String> linkDir, String target, RemotePath path) throws FileSystemException {
        if (target.isEmpty() || target.startsWith("/") || target.indexOf('\0') >= 0) {
            throw new FileSystemException(path.toString(), null,
                    "a symbolic link on the way leads outside the archive ('" + target + "')");
        }
        List<String> out = new ArrayList<>(linkDir);
        for (String t : target.split("/")) {
            if (t.isEmpty() || t.equals(".")) {
                continue;
            }
            if (t.equals("..")) {
                if (out.isEmpty()) {
                    throw new FileSystemException(path.toString(), null,
                            "a symbolic link on the way leads outside the archive ('" + target + "')");
                }
                out.remove(out.size() - 1);
            } else {
                out.add(t);
            }
        }
        return out;
    }

    private static String joined(List<String> parts, String last) {
        StringBuilder sb = new StringBuilder();
        for (String p : parts) {
            sb.append('/').append(p);
        }
        return sb.append('/').append(last).toString();
    }

    /** A link entry's target: in its header (tar), or its content, read once (zip). */
    private String linkTarget(Snapshot s, ArchiveEntry r, RemotePath link) throws IOException {
        Optional<String> inIndex = format.linkTarget(r);
        if (inIndex.isPresent()) {
            return inIndex.get();
        }
        String cached = s.linkTargets().get(r.key());
        if (cached != null) {
            return cached;
        }
        if (r.size() > MAX_LINK_TARGET) {
            throw new FileSystemException(link.toString(), null, "a symbolic link's target of " + r.size() + " bytes");
        }
        byte[] bytes;
        try (InputStream in = openEntry(s, r, link, 0, r.size())) {
            bytes = in.readAllBytes();
        }
        String target = dev.remotepath.NameBytes.decode(bytes); // a target that is not UTF-8 keeps its bytes, as names do
        s.linkTargets().put(r.key(), target);
        return target;
    }

    private InputStream openEntry(Snapshot s, ArchiveEntry r, RemotePath entry, long offset, long length) throws IOException {
        return format.open(archive, s.archiveSize(), r, entry, offset, length, s.cache());
    }

    // ------------------------------------------------------------------ metadata

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        Snapshot s = snapshot;
        Object node = locate(s, path, followLinks).node();
        return stat(s, node, ListDetail.ALL_STATS);
    }

    private FileStat stat(Snapshot s, Object node, ListDetail detail) {
        if (node instanceof ArchiveTree.Dir dir) {
            if (dir == s.tree().root) {
                return FileStat.listed(FileType.DIRECTORY, OptionalLong.empty(), true, s.archiveStat().lastModified(),
                        s.archiveStat().lastModifiedPrecision(), Optional.empty());
            }
            ArchiveEntry r = dir.record;
            return r == null ? FileStat.ofType(FileType.DIRECTORY)
                    : FileStat.listed(FileType.DIRECTORY, OptionalLong.empty(), true, r.modified(), r.precision(),
                            permissions(r));
        }
        ArchiveEntry r = (ArchiveEntry) node;
        FileType type = r.type();
        if (!detail.wantsStat(type)) {
            return FileStat.ofType(type);
        }
        FileStat.Builder b = FileStat.builder(type).size(r.size()).fileKey(Long.toString(r.key()));
        r.modified().ifPresent(t -> b.lastModified(t, r.precision()));
        permissions(r).ifPresent(b::permissions);
        return b.build();
    }

    private static Optional<Set<PosixFilePermission>> permissions(ArchiveEntry r) {
        if (r.unixMode() < 0) {
            return Optional.empty();
        }
        return Optional.of(dev.remotepath.PosixModes.permissions(r.unixMode()));
    }

    /** The entries under a directory; a name the archive holds twice is listed twice (and refused by the api). */
    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        Snapshot s = snapshot;
        if (!(locate(s, directory, true).node() instanceof ArchiveTree.Dir dir)) {
            throw new NotDirectoryException(directory.toString());
        }
        List<ListedEntry> out = new ArrayList<>(dir.children.size() + dir.repeated.size());
        for (Map.Entry<String, Object> child : dir.children.entrySet()) {
            out.add(new ListedEntry(child.getKey(), stat(s, child.getValue(), detail)));
        }
        for (String again : dir.repeated) {
            out.add(new ListedEntry(again, stat(s, dir.children.get(again), detail)));
        }
        return DirectoryListing.of(out);
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        Snapshot s = snapshot;
        if (!(locate(s, link, false).node() instanceof ArchiveEntry r) || r.type() != FileType.SYMLINK) {
            throw new NotLinkException(link.toString());
        }
        return linkTarget(s, r, link);
    }

    /** The path with every link on the way resolved, within the archive. */
    @Override
    public RemotePath realPath(RemotePath path) throws IOException {
        List<String> parts = locate(snapshot, path, true).realParts();
        return path(parts.isEmpty() ? "/" : String.join("/", parts).transform(p -> "/" + p));
    }

    // ------------------------------------------------------------------ content

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        return openRead(file, offset, Long.MAX_VALUE);
    }

    @Override
    public InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative offset or length: " + offset + ", " + length);
        }
        Snapshot s = snapshot;
        Object node = locate(s, file, true).node();
        if (node instanceof ArchiveTree.Dir) {
            throw new IsDirectoryException(file.toString());
        }
        if (((ArchiveEntry) Objects.requireNonNull(node)).type() == FileType.OTHER) {
            throw new FileSystemException(file.toString(), null, "a device or FIFO entry has no content to read");
        }
        return openEntry(s, (ArchiveEntry) node, file, offset, length);
    }
}
