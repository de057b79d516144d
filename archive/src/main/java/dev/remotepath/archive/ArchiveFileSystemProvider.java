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
 * Serves {@code zip:<uri of the archive>!/path}: the archive's URI is any RemotePath URI
 * (another archive's too), opened with that backend's default options. An archive stays open,
 * one file system per archive, until it is closed; every URI of it looks again at the archive
 * ({@link ZipArchiveFileSystem#refresh()}: one stat) so a replaced archive is read anew.
 */
public final class ArchiveFileSystemProvider implements RemoteFileSystemProvider {

    /** The archives open, by the file system they lie on (identity) and their path there. */
    private static final ConcurrentMap<Key, ZipArchiveFileSystem> OPEN = new ConcurrentHashMap<>();

    private record Key(RemoteFileSystem fileSystem, String path) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.fileSystem == fileSystem && k.path.equals(path);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(fileSystem) * 31 + path.hashCode();
        }
    }

    @Override
    public Set<String> schemes() {
        return Set.of(ArchiveUris.ZIP);
    }

    @Override
    public boolean wrapsUris() {
        return true;
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) throws IOException {
        if (options != FileSystemOptions.DEFAULTS) {
            throw new IllegalArgumentException("zip: takes no options; open the archive's own path with its backend's "
                    + "options and call ZipArchiveFileSystem.open(path)");
        }
        return ZipArchiveFileSystem.path(uri.toString(), RemotePaths::get);
    }

    /** The open file system of the zip at {@code archive}, read again if the archive changed. */
    static ZipArchiveFileSystem zip(RemotePath archive) throws IOException {
        Key key = new Key(archive.fileSystem(), archive.pathString());
        ZipArchiveFileSystem open = OPEN.get(key);
        if (open != null && open.isOpen()) {
            open.refresh();
            return open;
        }
        // Read outside any lock (the directory of a remote archive takes round trips); a
        // second reader that lost the race drops its copy.
        ZipArchiveFileSystem made = new ZipArchiveFileSystem(new ArchiveFileSystemProvider(), archive,
                ZoneId.systemDefault());
        ZipArchiveFileSystem won = OPEN.merge(key, made, (old, mine) -> old.isOpen() ? old : mine);
        if (won != made) {
            made.close();
        }
        return won;
    }

    void forget(ZipArchiveFileSystem fs) {
        OPEN.remove(new Key(fs.archive().fileSystem(), fs.archive().pathString()), fs);
    }
}
