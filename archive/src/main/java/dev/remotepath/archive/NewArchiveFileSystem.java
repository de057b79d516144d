package dev.remotepath.archive;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.AbortableOutputStream;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
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
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
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
 * archive's name ends in {@code .gz} or {@code .tgz}) keep whole seconds. Files and directories
 * are stored with the permissions their writer asks for (a copy's: its source's), else
 * {@code 0644} and {@code 0755}.
 */
public final class NewArchiveFileSystem implements RemoteFileSystem {

    private static final Set<Capability> CAPABILITIES = Set.of(Capability.WRITE, Capability.SET_LAST_MODIFIED_TIME,
            Capability.MTIME_ON_WRITE, Capability.SYMBOLIC_LINKS);

    private final ArchiveFileSystemProvider provider;
    private final String scheme;
    private final RemotePath archive;
    private final String uriPrefix;
    private final boolean gzip;
    private final OpenState state = new OpenState();
    /** Package-private knobs for tests: ZIP64 from this size, entries in memory up to this. */
    private final long zip64Threshold;
    private final int memoryLimit;

    private final NewArchiveIndex index;
    // Guarded by appendLock: the archive's stream, opened by the first entry.
    private final Object appendLock = new Object();
    private ArchivePublication publication;
    private ArchiveWriter writer;
    private volatile IOException broken;

    NewArchiveFileSystem(ArchiveFileSystemProvider provider, String scheme, RemotePath archive, long zip64Threshold,
            int memoryLimit) {
        this.provider = provider;
        this.scheme = scheme;
        this.archive = archive;
        this.uriPrefix = ArchiveUris.prefix(scheme, archive);
        String name = archive.name().toLowerCase(java.util.Locale.ROOT);
        this.gzip = scheme.equals("tar") && (name.endsWith(".gz") || name.endsWith(".tgz"));
        this.index = new NewArchiveIndex(archive, scheme.equals("zip") ? Duration.ofNanos(100) : Duration.ofSeconds(1));
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
        return index.stat(path, followLinks);
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        state.requireOpen();
        return DirectoryListing.of(index.list(directory));
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        state.requireOpen();
        return index.readSymbolicLink(link);
    }

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        state.requireOpen();
        index.requireExists(file);
        throw new FileSystemException(file.toString(), null,
                "the archive is being written; its entries can be read once it is closed");
    }

    // ------------------------------------------------------------------ writing

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        createDirectory(directory, ArchiveWriter.DIRECTORY_MODE);
    }

    /** The permissions as the entry's mode, as for a file's (kept as they are: an archive has no umask). */
    @Override
    public void createDirectory(RemotePath directory, java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions)
            throws IOException {
        createDirectory(directory, 040000 | dev.remotepath.PosixModes.mode(permissions));
    }

    private void createDirectory(RemotePath directory, int unixMode) throws IOException {
        requireWritable();
        index.createDirectory(directory, unixMode);
        // The archive's stream is opened by the first thing made, so a target it cannot be
        // written to (no parent, no permission) fails here, not at the end.
        synchronized (appendLock) {
            started();
        }
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return openWrite(file, mode, (Instant) null);
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
        return openEntry(file, mode, lastModified, ArchiveWriter.FILE_MODE);
    }

    /**
     * The time as above, and the permissions as the entry's mode, as {@code tar} and {@code zip}
     * record a file's: kept as they are (an archive has no umask), for whoever extracts it.
     */
    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, dev.remotepath.spi.WriteAttributes attributes)
            throws IOException {
        return openEntry(file, mode, attributes.lastModified().orElse(null), attributes.permissions()
                .map(p -> 0100000 | dev.remotepath.PosixModes.mode(p)).orElse(ArchiveWriter.FILE_MODE));
    }

    private OutputStream openEntry(RemotePath file, WriteMode mode, Instant lastModified, int unixMode)
            throws IOException {
        requireWritable();
        if (mode == WriteMode.CREATE_OR_APPEND) {
            throw new FileSystemException(file.toString(), null, "an entry of a new archive cannot be appended to");
        }
        index.reserve(file, new NewArchiveIndex.Leaf(FileType.FILE, -1, Instant.now(), null));
        return new EntryStream(file, lastModified, unixMode, new EntryContent(scheme.equals("zip"), memoryLimit));
    }

    /** One file being written: gathered, then added to the archive whole on close. */
    private final class EntryStream extends AbortableOutputStream {
        private final RemotePath file;
        private final Instant lastModified;
        private final int unixMode;
        private final EntryContent content;
        private boolean done;

        EntryStream(RemotePath file, Instant lastModified, int unixMode, EntryContent content) {
            this.file = file;
            this.lastModified = lastModified;
            this.unixMode = unixMode;
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
            NewArchiveIndex.Leaf added = null;
            try {
                requireWritable();
                content.finish();
                Instant time = lastModified != null ? lastModified : Instant.now();
                append(w -> w.file(entryName(file), time, unixMode, content));
                added = new NewArchiveIndex.Leaf(FileType.FILE, content.size(), time, null);
            } finally {
                content.discard();
                index.finish(file, added);
            }
        }

        @Override
        public void abort() {
            if (!done) {
                done = true;
                content.discard();
                index.finish(file, null);
            }
        }
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        requireWritable();
        if (target.isEmpty() || target.indexOf('\0') >= 0) {
            throw new FileSystemException(link.toString(), null, "a link's target must be non-empty and without NUL");
        }
        Instant now = Instant.now();
        index.reserve(link, new NewArchiveIndex.Leaf(FileType.SYMLINK, -1, now, target));
        NewArchiveIndex.Leaf added = null;
        try {
            append(w -> w.link(entryName(link), target, now));
            added = new NewArchiveIndex.Leaf(FileType.SYMLINK, dev.remotepath.NameBytes.encode(target).length, now,
                    target);
        } finally {
            index.finish(link, added);
        }
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        requireWritable();
        if (index.setDirectoryTime(path, time)) {
            return;
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
    private void append(Append a) throws IOException {
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
            int writing = index.writing();
            if (writing > 0) {
                throw new FileSystemException(archive.toString(), null, "closed while " + writing
                        + " entries were still being written: the archive is discarded, not published");
            }
            List<NewArchiveIndex.NewDirectory> dirs = index.directories();
            synchronized (appendLock) {
                if (broken != null) {
                    throw new FileSystemException(archive.toString(), null, "the archive could not be written, "
                            + "and is not published: " + broken);
                }
                if (writer == null) {
                    return; // nothing was written: no archive
                }
                for (NewArchiveIndex.NewDirectory d : dirs) {
                    writer.directory(d.name(), d.modified(), d.mode());
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
        boolean written = index.created();
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
