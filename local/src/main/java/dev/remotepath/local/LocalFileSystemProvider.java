package dev.remotepath.local;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.util.Set;

/** Serves {@code file:///absolute/path} (and {@code file://localhost/...}): the local disk. */
public final class LocalFileSystemProvider implements RemoteFileSystemProvider {

    @Override
    public Set<String> schemes() {
        return Set.of("file");
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) {
        if (options != FileSystemOptions.DEFAULTS) {
            throw new IllegalArgumentException("file: takes no options, got " + options.getClass().getName());
        }
        String authority = uri.getRawAuthority();
        if (authority != null && !authority.isEmpty() && !authority.equalsIgnoreCase("localhost")) {
            throw new InvalidPathException(uri.toString(), "file: URIs name the local machine only (file:///path)");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidPathException(uri.toString(), "file: paths take no query or fragment; percent-encode '?' and '#'");
        }
        String raw = uri.getRawPath();
        if (raw == null || !raw.startsWith("/")) {
            throw new InvalidPathException(uri.toString(), "file: URIs need an absolute path (file:///path)");
        }
        try {
            return LocalFileSystem.instance().path(UriPaths.decode(raw));
        } catch (IllegalArgumentException e) {
            throw new InvalidPathException(uri.toString(), e.getMessage());
        }
    }
}
