package dev.remotepath.mem;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Serves {@code mem://volume/path}. A volume is created on first use and lives until the JVM
 * exits or it is closed; equal volume names give the same file system.
 */
public final class MemFileSystemProvider implements RemoteFileSystemProvider {

    private static final ConcurrentMap<String, MemFileSystem> VOLUMES = new ConcurrentHashMap<>();

    @Override
    public Set<String> schemes() {
        return Set.of("mem");
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) {
        if (options != FileSystemOptions.DEFAULTS) {
            throw new IllegalArgumentException("mem: takes no options, got " + options.getClass().getName());
        }
        String volume = uri.getRawAuthority() == null ? "" : decode(uri, uri.getRawAuthority());
        if (volume.isEmpty() || volume.contains("@")) {
            throw new InvalidPathException(uri.toString(), "mem: URIs name a volume: mem://volume/path");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidPathException(uri.toString(), "mem: paths take no query or fragment; percent-encode '?' and '#'");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : decode(uri, uri.getRawPath());
        return volume(volume).path(path);
    }

    private static String decode(URI uri, String raw) {
        try {
            return UriPaths.decode(raw);
        } catch (IllegalArgumentException e) {
            throw new InvalidPathException(uri.toString(), e.getMessage());
        }
    }

    /** The volume of that name, created if it does not exist. */
    public static MemFileSystem volume(String name) {
        return VOLUMES.compute(name, (n, fs) -> fs != null && fs.isOpen() ? fs : new MemFileSystem(n, new MemFileSystemProvider()));
    }

    static void forget(String name, MemFileSystem fs) {
        VOLUMES.remove(name, fs);
    }
}
