package dev.remotepath.nio;

import dev.remotepath.spi.Capability;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.WatchService;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One RemotePath file system (one SFTP server and user, one bucket, one mem volume...) as a
 * {@link FileSystem}: a single root {@code /}, '/' as separator, glob and regex matchers as the
 * default file system has them. Watching, file stores and user lookup are not supported (the
 * standard {@link UnsupportedOperationException}). Closing it closes the backend's file system
 * when this provider opened it with options of its own, and an archive's ({@code zip:},
 * {@code tar:}) always: a new archive written through it is published by that close.
 */
final class RemoteNioFileSystem extends FileSystem {

    private final RemoteNioProvider provider;
    private final String key;
    private final RemoteFileSystem remote;
    private final boolean ownsRemote;
    private volatile boolean open = true;

    RemoteNioFileSystem(RemoteNioProvider provider, String key, RemoteFileSystem remote, boolean ownsRemote) {
        this.provider = provider;
        this.key = key;
        this.remote = remote;
        this.ownsRemote = ownsRemote;
    }

    /** The backend's file system. */
    RemoteFileSystem remote() {
        if (!open) {
            throw new ClosedFileSystemException();
        }
        return remote;
    }

    String key() {
        return key;
    }

    @Override
    public RemoteNioProvider provider() {
        return provider;
    }

    @Override
    public void close() throws IOException {
        if (!open) {
            return;
        }
        open = false;
        provider.forget(this);
        if (ownsRemote) {
            remote.close();
        }
    }

    @Override
    public boolean isOpen() {
        return open && remote.isOpen();
    }

    @Override
    public boolean isReadOnly() {
        return !remote.capabilities().contains(Capability.WRITE);
    }

    @Override
    public String getSeparator() {
        return "/";
    }

    @Override
    public Iterable<Path> getRootDirectories() {
        return List.of(getPath("/"));
    }

    @Override
    public Iterable<FileStore> getFileStores() {
        return List.of(new RemoteFileStore(remote.path("/")));
    }

    @Override
    public Set<String> supportedFileAttributeViews() {
        Set<String> views = new TreeSet<>(Set.of("basic", RemoteAttributes.VIEW));
        if (remote.capabilities().contains(Capability.POSIX_PERMISSIONS)) {
            views.add("posix");
        }
        return views;
    }

    @Override
    public Path getPath(String first, String... more) {
        StringBuilder b = new StringBuilder(first);
        for (String m : more) {
            if (!m.isEmpty()) {
                b.append('/').append(m);
            }
        }
        return RemoteNioPath.parse(this, b.toString());
    }

    @Override
    public PathMatcher getPathMatcher(String syntaxAndPattern) {
        // The default file system's matcher on the same '/'-separated text: its glob and regex
        // syntax, exactly, for paths of this one.
        PathMatcher m = FileSystems.getDefault().getPathMatcher(syntaxAndPattern);
        return p -> m.matches(Path.of(p.toString()));
    }

    @Override
    public UserPrincipalLookupService getUserPrincipalLookupService() {
        throw new UnsupportedOperationException("user lookup is not supported by RemotePath file systems");
    }

    @Override
    public WatchService newWatchService() {
        throw new UnsupportedOperationException("watching is not supported by RemotePath file systems");
    }

    @Override
    public String toString() {
        return "RemoteNioFileSystem[" + key + "]";
    }
}
