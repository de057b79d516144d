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
    private static final ConcurrentMap<Key, ArchiveFileSystem> OPEN = new ConcurrentHashMap<>();

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

    /** The open file system of the archive at {@code archive}, read again if the archive changed. */
    static ArchiveFileSystem open(ArchiveFormat format, RemotePath archive) throws IOException {
        // An archive whose own file system was closed can never be read again: close it, so the
        // map holds no archive (and no index) past its backend's life.
        OPEN.values().removeIf(fs -> {
            boolean dead = !fs.archive().fileSystem().isOpen();
            if (dead) {
                fs.close();
            }
            return dead;
        });
        Key key = new Key(format.scheme(), archive.fileSystem(), archive.pathString());
        ArchiveFileSystem open = OPEN.get(key);
        if (open != null && open.isOpen()) {
            open.refresh();
            return open;
        }
        // Read outside any lock (the directory of a remote archive takes round trips); a
        // second reader that lost the race drops its copy.
        ArchiveFileSystem made = new ArchiveFileSystem(new ArchiveFileSystemProvider(), format, archive,
                ZoneId.systemDefault());
        ArchiveFileSystem won = OPEN.merge(key, made, (old, mine) -> old.isOpen() ? old : mine);
        if (won != made) {
            made.close();
        }
        return won;
    }

    /** How many archives are open, for tests. */
    static int openArchives() {
        return OPEN.size();
    }

    void forget(ArchiveFileSystem fs, String scheme) {
        OPEN.remove(new Key(scheme, fs.archive().fileSystem(), fs.archive().pathString()), fs);
    }
}
