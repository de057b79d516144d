package dev.remotepath.archive;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.io.IOException;
import java.net.URI;
import java.time.ZoneId;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Serves {@code zip:<uri of the archive>!/path} and {@code tar:...}: the archive's URI is any
 * RemotePath URI (another archive's too), opened with that backend's default options. An
 * archive stays open, one file system per archive and format, until it is closed; every URI of
 * it looks again at the archive ({@link ArchiveFileSystem#refresh()}: one stat) so a replaced
 * archive is read anew.
 */
public final class ArchiveFileSystemProvider implements RemoteFileSystemProvider {

    /** The archives open, by the file system they lie on (identity) and their path there. */
    private static final ConcurrentMap<Key, RemoteFileSystem> OPEN = new ConcurrentHashMap<>();

    private record Key(String scheme, RemoteFileSystem fileSystem, String path) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.scheme.equals(scheme) && k.fileSystem == fileSystem && k.path.equals(path);
        }

        @Override
        public int hashCode() {
            return (scheme.hashCode() * 31 + System.identityHashCode(fileSystem)) * 31 + path.hashCode();
        }
    }

    @Override
    public Set<String> schemes() {
        return Set.of("zip", "tar");
    }

    @Override
    public boolean wrapsUris() {
        return true;
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) throws IOException {
        if (options != FileSystemOptions.DEFAULTS) {
            throw new IllegalArgumentException(uri.getScheme() + ": takes no options; open the archive's own path with "
                    + "its backend's options and call ArchiveFileSystem.zip(path) or tar(path)");
        }
        return ArchiveFileSystem.path(uri.toString(), RemotePaths::get);
    }

    /**
     * What a URI of the archive at {@code archive} opens: the archive being written there (a
     * {@link NewArchiveFileSystem}) if there is one; else the archive there, read; else, where
     * there is none, a new archive to write.
     */
    static RemoteFileSystem openOrCreate(ArchiveFormat format, RemotePath archive) throws IOException {
        RemoteFileSystem open = OPEN.get(new Key(format.scheme(), archive.fileSystem(), archive.pathString()));
        if (open instanceof NewArchiveFileSystem n && n.isOpen()) {
            return n;
        }
        try {
            return open(format, archive);
        } catch (java.nio.file.NoSuchFileException absent) {
            if (!archive.toString().equals(absent.getFile())) {
                throw absent; // a missing directory above it, or a nested archive's missing entry's parent
            }
            return create(format.scheme(), archive);
        }
    }

    /** A new archive at {@code archive}, which must not exist; the one being written there already if there is. */
    static NewArchiveFileSystem create(String scheme, RemotePath archive) throws IOException {
        Key key = new Key(scheme, archive.fileSystem(), archive.pathString());
        RemoteFileSystem open = OPEN.get(key);
        if (open instanceof NewArchiveFileSystem n && n.isOpen()) {
            return n;
        }
        try {
            archive.fileSystem().stat(archive, false);
            throw new java.nio.file.FileAlreadyExistsException(archive.toString(), null,
                    "an archive is written whole, not updated: remove it to write a new one");
        } catch (java.nio.file.NoSuchFileException absent) {
            // as it should be
        }
        NewArchiveFileSystem made = new NewArchiveFileSystem(new ArchiveFileSystemProvider(), scheme, archive,
                ZIP64_THRESHOLD, EntryContent.MEMORY_LIMIT);
        RemoteFileSystem won = OPEN.merge(key, made, (old, mine) -> old.isOpen() ? old : mine);
        if (!(won instanceof NewArchiveFileSystem n)) {
            throw new java.nio.file.FileAlreadyExistsException(archive.toString(), null, "opened for reading meanwhile");
        }
        return n;
    }

    /** Sizes and offsets from which a new zip uses ZIP64 fields: those over 32 bits. */
    static final long ZIP64_THRESHOLD = 0xffffffffL;

    /** The open file system of the archive at {@code archive}, read again if the archive changed. */
    static ArchiveFileSystem open(ArchiveFormat format, RemotePath archive) throws IOException {
        // An archive whose own file system was closed can never be read again: close it, so the
        // map holds no archive (and no index) past its backend's life.
        OPEN.values().removeIf(fs -> {
            boolean dead = !archiveOf(fs).fileSystem().isOpen();
            if (dead) {
                try {
                    fs.close();
                } catch (IOException e) {
                    // a new archive whose backend is gone was lost already
                }
            }
            return dead;
        });
        Key key = new Key(format.scheme(), archive.fileSystem(), archive.pathString());
        RemoteFileSystem found = OPEN.get(key);
        if (found instanceof NewArchiveFileSystem n && n.isOpen()) {
            throw new java.nio.file.FileSystemException(archive.toString(), null,
                    "the archive is being written; it can be read once it is closed");
        }
        if (found instanceof ArchiveFileSystem open && open.isOpen()) {
            open.refresh();
            return open;
        }
        // Read outside any lock (the directory of a remote archive takes round trips); a
        // second reader that lost the race drops its copy.
        ArchiveFileSystem made = new ArchiveFileSystem(new ArchiveFileSystemProvider(), format, archive,
                ZoneId.systemDefault());
        RemoteFileSystem won = OPEN.merge(key, made, (old, mine) -> old.isOpen() ? old : mine);
        if (won != made) {
            made.close();
            if (!(won instanceof ArchiveFileSystem a)) {
                throw new java.nio.file.FileSystemException(archive.toString(), null,
                        "the archive is being written; it can be read once it is closed");
            }
            return a;
        }
        return made;
    }

    /** How many archives are open, for tests. */
    static int openArchives() {
        return OPEN.size();
    }

    void forget(RemoteFileSystem fs, String scheme, RemotePath archive) {
        OPEN.remove(new Key(scheme, archive.fileSystem(), archive.pathString()), fs);
    }

    private static RemotePath archiveOf(RemoteFileSystem fs) {
        return fs instanceof ArchiveFileSystem a ? a.archive() : ((NewArchiveFileSystem) fs).archive();
    }
}
