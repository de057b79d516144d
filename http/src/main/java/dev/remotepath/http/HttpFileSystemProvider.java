package dev.remotepath.http;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.FileSystemCache;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.util.Locale;
import java.util.Set;

/**
 * Serves {@code http://} and {@code https://}. One file system (and one Jetty client) per
 * origin and options, shared by every path on it until closed.
 */
public final class HttpFileSystemProvider implements RemoteFileSystemProvider {

    /** Equal origins with equal options share one file system. */
    private record Key(String scheme, String host, int port, HttpOptions options) {
    }

    /** Closed at JVM exit if still open: a Jetty selector left waiting would hold the exit up 0.3 s. */
    private static final FileSystemCache<Key, HttpFileSystem> FILE_SYSTEMS = FileSystemCache.closedAtExit("remotepath-http-close");

    @Override
    public Set<String> schemes() {
        return Set.of("http", "https");
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) throws IOException {
        HttpOptions opts;
        if (options == FileSystemOptions.DEFAULTS) {
            opts = HttpOptions.defaults();
        } else if (options instanceof HttpOptions h) {
            opts = h;
        } else {
            throw new IllegalArgumentException("http: takes HttpOptions, got " + options.getClass().getName());
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getRawUserInfo() != null) {
            throw new InvalidPathException(uri.getScheme() + "://…", "credentials in the URI are not accepted "
                    + "(they would end up in logs): pass them as HttpOptions");
        }
        String host = UriPaths.hostOf(uri, scheme + "://host[:port]/path");
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidPathException(uri.toString(), "paths take no query or fragment; percent-encode '?' and '#'");
        }
        int port = UriPaths.portOf(uri, scheme.equals("https") ? 443 : 80, scheme + "://host[:port]/path");
        String path;
        try {
            path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : UriPaths.decode(uri.getRawPath());
        } catch (IllegalArgumentException e) {
            throw new InvalidPathException(uri.toString(), e.getMessage());
        }
        Key key = new Key(scheme, host.toLowerCase(Locale.ROOT), port, opts);
        HttpFileSystem fs = FILE_SYSTEMS.get(key, (k, onClose) ->
                new HttpFileSystem(this, scheme, k.host(), port, opts, onClose));
        return fs.path(path);
    }
}
