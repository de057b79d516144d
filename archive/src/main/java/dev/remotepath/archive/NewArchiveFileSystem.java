package dev.remotepath.archive;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.AbortableOutputStream;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.OpenState;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.WriteMode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A new zip or tar archive being written, as a file system: a copy, {@code cp -r} or sync into
 * {@code zip:<uri>!/} (where no archive is yet) writes its entries, and {@link #close()}
 * publishes the archive whole through its backend's write path (a temporary renamed into
 * place, or an object store's upload), so no one ever sees half an archive under its name.
 * {@link #abort()}, or a close while an entry is still being written, publishes nothing.
 *
 * <p>An archive is written once, front to back: entries can be created (files, directories,
 * symbolic links) but not replaced, deleted or renamed, and their content can be read only once
 * the archive is published (then through {@link ArchiveFileSystem}). Listings and stats of what
 * was written work all along, so a sync into a new archive sees its own work. Each file is
 * gathered whole before it is added (in memory up to 1 MiB, beyond that in a temporary file),
 * which lets parallel transfers write at once and a tar header carry the size; a file whose
 * copy fails or is aborted leaves no entry. Directories are added at the end, with the times
 * set on them by then. The archive itself must not exist: an archive is not updated in place.
 *
 * <p>A zip's entries are deflated and keep times to 100 ns; a tar's (gzip-compressed when the
 * archive's name ends in {@code .gz} or {@code .tgz}) keep whole seconds. Files are stored with
 * mode {@code 0644}, directories {@code 0755}.
 */
public final class NewArchiveFileSystem implements RemoteFileSystem {

    private static final Set<Capability> CAPABILITIES = Set.of(Capability.WRITE, Capability.SET_LAST_MODIFIED_TIME,
            Capability.MTIME_ON_WRITE, Capability.SYMBOLIC_LINKS);
    private static final int MAX_LINKS = 40;

    private final ArchiveFileSystemProvider provider;
    private final String scheme;
    private final RemotePath archive;
    private final String uriPrefix;
    private final boolean gzip;
    private final Duration precision;
    private final OpenState state = new OpenState();
    /** Package-private knobs for tests: ZIP64 from this size, entries in memory up to this. */
    private final long zip64Threshold;
    private final int memoryLimit;

    // Guarded by this: the index of what is written or being written.
    private final Dir root = new Dir(null);
    private boolean created;
    private int writing;
    // Guarded by appendLock: the archive's stream, opened by the first entry.
    private final Object appendLock = new Object();
    private ArchivePublication publication;
    private ArchiveWriter writer;
    private volatile IOException broken;

    /** A directory of the new archive; its entry is added at the end, with its time as set by then. */
    private static final class Dir {
        final Map<String, Object> children = new LinkedHashMap<>(); // Dir or Leaf
        Instant modified;

        Dir(Instant modified) {
            this.modified = modified;
        }
    }

    /** A file or link; {@code size} -1 while the file is being written. */
    private record Leaf(FileType type, long size, Instant modified, String target) {
    }

    NewArchiveFileSystem(ArchiveFileSystemProvider provider, String scheme, RemotePath archive, long zip64Threshold,
            int memoryLimit) {
        this.provider = provider;
        this.scheme = scheme;
        this.archive = archive;
        this.uriPrefix = ArchiveUris.prefix(scheme, archive);
        String name = archive.name().toLowerCase(java.util.Locale.ROOT);
        this.gzip = scheme.equals("tar") && (name.endsWith(".gz") || name.endsWith(".tgz"));
        this.precision = scheme.equals("zip") ? Duration.ofNanos(100) : Duration.ofSeconds(1);
        this.zip64Threshold = zip64Threshold;
        this.memoryLimit = memoryLimit;
    }

    /**
     * A new zip archive to be written at {@code archive}, which must not exist; the same one as
     * {@code zip:<archive's URI>!/} names until it is closed.
     *
     * @throws FileAlreadyExistsException if something is at {@code archive} already
     */
    public static NewArchiveFileSystem zip(RemotePath archive) throws IOException {
        return ArchiveFileSystemProvider.create("zip", archive);
    }

    /** A new tar archive, gzip-compressed if the name ends in {@code .gz} or {@code .tgz}; as {@link #zip}. */
    public static NewArchiveFileSystem tar(RemotePath archive) throws IOException {
        return ArchiveFileSystemProvider.create("tar", archive);
    }

    /** Where the archive will be published. */
    public RemotePath archive() {
        return archive;
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
     * Writable once: entries are created, with their times given as they are written (or set
     * on directories later), and can be links.
     */
    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public boolean isOpen() {
        return state.isOpen();
    }

    @Override
    public String toString() {
        return "NewArchiveFileSystem[" + uriPrefix + "]";
    }

    // ------------------------------------------------------------------ index

    private synchronized Object find(RemotePath path) throws NoSuchFileException {
        Object node = root;
        for (String part : path.parts()) {
            if (!(node instanceof Dir d) || (node = d.children.get(part)) == null) {
                throw new NoSuchFileException(path.toString());
            }
        }
        if (node == root && !created) {
            throw noArchive(path);
        }
        return node;
    }

    private NoSuchFileException noArchive(RemotePath path) {
        return new NoSuchFileException(path.toString(), null,
                "no archive at " + archive + " (a new one is made by writing into it)");
    }

    /** The directory a new entry goes in; the root counts as there, since writing into it makes the archive. */
    private Dir directoryForNew(RemotePath path) throws IOException {
        if (path.parts().isEmpty()) {
            throw new FileAlreadyExistsException(path.toString());
        }
        Object node = root;
        List<String> parts = path.parts();
        for (String part : parts.subList(0, parts.size() - 1)) {
            if (!(node instanceof Dir d) || (node = d.children.get(part)) == null) {
                throw new NoSuchFileException(path.toString(), null, "its parent directory does not exist");
            }
        }
        if (!(node instanceof Dir d)) {
            throw new NoSuchFileException(path.toString(), null, "its parent is not a directory");
        }
        if (d.children.containsKey(path.name())) {
            throw new FileAlreadyExistsException(path.toString(), null,
                    "an entry of a new archive is written once and cannot be replaced");
        }
        return d;
    }

    private void requireWritable() throws IOException {
        state.requireOpen();
        IOException b = broken;
        if (b != null) {
            throw new FileSystemException(archive.toString(), null, "the archive could not be written: " + b);
        }
    }

    private static String entryName(RemotePath path) {
        return String.join("/", path.parts());
    }

    // ------------------------------------------------------------------ metadata

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        state.requireOpen();
        Object node = followLinks ? resolve(path) : find(path);
        return statOf(node);
    }

    private FileStat statOf(Object node) {
        if (node instanceof Dir d) {
            return FileStat.listed(FileType.DIRECTORY, OptionalLong.empty(), true, Optional.ofNullable(d.modified),
                    precision, Optional.empty());
        }
        Leaf l = (Leaf) node;
        FileStat.Builder b = FileStat.builder(l.type()).lastModified(l.modified(), precision);
        if (l.size() >= 0) {
            b.size(l.size());
        }
        return b.build();
    }

    /** The node {@code path} leads to, links followed within the new archive. */
    private synchronized Object resolve(RemotePath path) throws IOException {
        List<String> todo = new ArrayList<>(path.parts());
        List<String> at = new ArrayList<>();
        if (!created) {
            throw noArchive(path);
        }
        Object node = root;
        int links = 0;
        while (!todo.isEmpty()) {
            String part = todo.remove(0);
            Object child = node instanceof Dir d ? d.children.get(part) : null;
            if (child == null) {
                throw new NoSuchFileException(path.toString());
            }
            if (child instanceof Leaf l && l.type() == FileType.SYMLINK) {
                if (++links > MAX_LINKS) {
                    throw new java.nio.file.FileSystemLoopException(path.toString());
                }
                if (l.target().startsWith("/")) {
                    throw new NoSuchFileException(path.toString(), null, "a link leads outside the archive");
                }
                List<String> target = new ArrayList<>(at);
                for (String t : l.target().split("/")) {
                    if (t.equals("..")) {
                        if (target.isEmpty()) {
                            throw new NoSuchFileException(path.toString(), null, "a link leads outside the archive");
                        }
                        target.remove(target.size() - 1);
                    } else if (!t.isEmpty() && !t.equals(".")) {
                        target.add(t);
                    }
                }
                todo.addAll(0, target);
                at.clear();
                node = root;
                continue;
            }
            at.add(part);
            node = child;
        }
        return node;
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        state.requireOpen();
        List<ListedEntry> out;
        synchronized (this) {
            if (!(resolve(directory) instanceof Dir d)) {
                throw new NotDirectoryException(directory.toString());
            }
            out = new ArrayList<>(d.children.size());
            for (Map.Entry<String, Object> c : d.children.entrySet()) {
                out.add(new ListedEntry(c.getKey(), statOf(c.getValue())));
            }
        }
        return DirectoryListing.of(out);
    }

    @Override
    public synchronized String readSymbolicLink(RemotePath link) throws IOException {
        state.requireOpen();
        if (!(find(link) instanceof Leaf l) || l.type() != FileType.SYMLINK) {
            throw new NotLinkException(link.toString());
        }
        return l.target();
    }

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        state.requireOpen();
        find(file);
        throw new FileSystemException(file.toString(), null,
                "the archive is being written; its entries can be read once it is closed");
    }

    // ------------------------------------------------------------------ writing

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        requireWritable();
        synchronized (this) {
            if (directory.parts().isEmpty()) {
                if (created) {
                    throw new FileAlreadyExistsException(directory.toString());
                }
                created = true;
                root.modified = Instant.now();
            } else {
                directoryForNew(directory).children.put(directory.name(), new Dir(Instant.now()));
                created = true;
            }
        }
        // The archive's stream is opened by the first thing made, so a target it cannot be
        // written to (no parent, no permission) fails here, not at the end.
        synchronized (appendLock) {
            started();
        }
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return openWrite(file, mode, null);
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
        requireWritable();
        if (mode == WriteMode.CREATE_OR_APPEND) {
            throw new FileSystemException(file.toString(), null, "an entry of a new archive cannot be appended to");
        }
        synchronized (this) {
            directoryForNew(file).children.put(file.name(), new Leaf(FileType.FILE, -1, Instant.now(), null));
            created = true;
            writing++;
        }
        return new EntryStream(file, lastModified, new EntryContent(scheme.equals("zip"), memoryLimit));
    }

    /** One file being written: gathered, then added to the archive whole on close. */
    private final class EntryStream extends AbortableOutputStream {
        private final RemotePath file;
        private final Instant lastModified;
        private final EntryContent content;
        private boolean done;

        EntryStream(RemotePath file, Instant lastModified, EntryContent content) {
            this.file = file;
            this.lastModified = lastModified;
            this.content = content;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (done) {
                throw new IOException("stream closed: " + file);
            }
            content.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            if (done) {
                return;
            }
            done = true;
            boolean added = false;
            try {
                requireWritable();
                content.finish();
                Instant time = lastModified != null ? lastModified : Instant.now();
                append(file, w -> w.file(entryName(file), time, content));
                synchronized (NewArchiveFileSystem.this) {
                    directoryOf(file).children.put(file.name(),
                            new Leaf(FileType.FILE, content.size(), time, null));
                }
                added = true;
            } finally {
                content.discard();
                finished(file, added);
            }
        }

        @Override
        public void abort() {
            if (!done) {
                done = true;
                content.discard();
                finished(file, false);
            }
        }
    }

    /** The directory {@code entry} was reserved in (it exists: nothing is ever removed but reservations). */
    private Dir directoryOf(RemotePath entry) {
        Object node = root;
        for (String part : entry.parent().parts()) {
            node = ((Dir) node).children.get(part);
        }
        return (Dir) node;
    }

    private synchronized void finished(RemotePath file, boolean added) {
        writing--;
        if (!added) {
            directoryOf(file).children.remove(file.name());
        }
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        requireWritable();
        if (target.isEmpty() || target.indexOf('\0') >= 0) {
            throw new FileSystemException(link.toString(), null, "a link's target must be non-empty and without NUL");
        }
        Instant now = Instant.now();
        synchronized (this) {
            directoryForNew(link).children.put(link.name(), new Leaf(FileType.SYMLINK, -1, now, target));
            created = true;
            writing++;
        }
        boolean added = false;
        try {
            append(link, w -> w.link(entryName(link), target, now));
            synchronized (this) {
                directoryOf(link).children.put(link.name(),
                        new Leaf(FileType.SYMLINK,
                        target.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, now, target));
            }
            added = true;
        } finally {
            finished(link, added);
        }
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        requireWritable();
        synchronized (this) {
            if (find(path) instanceof Dir d) {
                d.modified = time;
                return;
            }
        }
        throw new FileSystemException(path.toString(), null,
                "a file of a new archive has its time when it is written (openWrite with a time), not after");
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        throw writtenOnce(file, "deleted");
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        throw writtenOnce(directory, "deleted");
    }

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        throw writtenOnce(source, "renamed");
    }

    private FileSystemException writtenOnce(RemotePath path, String what) {
        state.requireOpen();
        return new FileSystemException(path.toString(), null,
                "entries of a new archive cannot be " + what + ": it is written once, front to back");
    }

    private interface Append {
        void to(ArchiveWriter writer) throws IOException;
    }

    /** Adds an entry to the archive's stream, one at a time; a failure there spoils the whole archive. */
    private void append(RemotePath entry, Append a) throws IOException {
        synchronized (appendLock) {
            requireWritable();
            started();
            try {
                a.to(writer);
            } catch (IOException | RuntimeException e) {
                broken = e instanceof IOException io ? io : new IOException(e);
                throw e;
            }
        }
    }

    /** Opens the archive's stream and writer if this is the first entry. Holds appendLock. */
    private void started() throws IOException {
        if (writer != null) {
            return;
        }
        publication = ArchivePublication.open(archive);
        OutputStream out = new BufferedOutputStream(publication.stream(), 64 * 1024);
        writer = scheme.equals("zip") ? new ZipArchiveWriter(out, ZoneId.systemDefault(), zip64Threshold)
                : new TarArchiveWriter(out, gzip);
    }

    // ------------------------------------------------------------------ the end

    /**
     * Publishes the archive: the directories' entries and the archive's end are written, and
     * the archive is put in place whole. If nothing was ever written into it, nothing is
     * published. If an entry is still being written, or the archive could not be written, it is
     * discarded and this throws, naming why.
     */
    @Override
    public void close() throws IOException {
        if (!state.close()) {
            return;
        }
        try {
            List<Map.Entry<String, Dir>> dirs = new ArrayList<>();
            synchronized (this) {
                if (writing > 0) {
                    throw new FileSystemException(archive.toString(), null, "closed while " + writing
                            + " entries were still being written: the archive is discarded, not published");
                }
                directories("", root, dirs);
            }
            synchronized (appendLock) {
                if (broken != null) {
                    throw new FileSystemException(archive.toString(), null, "the archive could not be written, "
                            + "and is not published: " + broken);
                }
                if (writer == null) {
                    return; // nothing was written: no archive
                }
                for (Map.Entry<String, Dir> d : dirs) {
                    writer.directory(d.getKey(), d.getValue().modified);
                }
                writer.finish();
                publication.publish();
                publication = null;
            }
        } catch (IOException | RuntimeException e) {
            discard(e);
            throw e;
        } finally {
            provider.forget(this, scheme, archive);
        }
    }

    private static void directories(String prefix, Dir dir, List<Map.Entry<String, Dir>> out) {
        for (Map.Entry<String, Object> c : dir.children.entrySet()) {
            if (c.getValue() instanceof Dir d) {
                String name = prefix + c.getKey();
                out.add(Map.entry(name, d));
                directories(name + "/", d, out);
            }
        }
    }

    /**
     * Discards the archive: nothing is published, and nothing is left of it on the backend.
     *
     * @return whether anything had been written into it
     */
    public boolean abort() throws IOException {
        if (!state.close()) {
            return false;
        }
        provider.forget(this, scheme, archive);
        boolean written;
        synchronized (this) {
            written = created;
        }
        IOException failure = new IOException("aborted");
        discard(failure);
        if (failure.getSuppressed().length > 0) {
            throw (IOException) failure.getSuppressed()[0];
        }
        return written;
    }

    private void discard(Throwable failure) {
        synchronized (appendLock) {
            if (publication != null) {
                try {
                    publication.abort();
                } catch (IOException | RuntimeException e) {
                    failure.addSuppressed(e);
                }
                publication = null;
            }
        }
    }
}
