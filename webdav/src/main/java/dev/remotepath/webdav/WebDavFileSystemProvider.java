package dev.remotepath.webdav;

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
 * Serves {@code webdav://host[:port]/path} (plain HTTP) and {@code webdavs://} (HTTPS, the
 * certificate checked). One file system (one connection pool) per origin and options, shared by
 * every path on it until closed. Credentials never come in the URI: they are options.
 */
public final class WebDavFileSystemProvider implements RemoteFileSystemProvider {

    private record Key(String scheme, String host, int port, WebDavOptions options) {
    }

    /** Closed at JVM exit if still open: a Jetty selector left waiting would hold the exit up 0.3 s. */
    private static final FileSystemCache<Key, WebDavFileSystem> FILE_SYSTEMS = FileSystemCache.closedAtExit("remotepath-webdav-close");

    @Override
    public Set<String> schemes() {
        return Set.of("webdav", "webdavs");
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) throws IOException {
        WebDavOptions opts;
        if (options == FileSystemOptions.DEFAULTS) {
            opts = WebDavOptions.defaults();
        } else if (options instanceof WebDavOptions w) {
            opts = w;
        } else {
            throw new IllegalArgumentException("webdav: takes WebDavOptions, got " + options.getClass().getName());
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getRawUserInfo() != null) {
            throw new InvalidPathException(scheme + "://…", "credentials in the URI are not accepted "
                    + "(they would end up in logs): pass them as WebDavOptions");
        }
        String host = UriPaths.hostOf(uri, scheme + "://host[:port]/path");
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidPathException(uri.toString(), "paths take no query or fragment; percent-encode '?' and '#'");
        }
        int port = UriPaths.portOf(uri, scheme.equals("webdavs") ? 443 : 80, scheme + "://host[:port]/path");
        String path;
        try {
            path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : UriPaths.decode(uri.getRawPath());
        } catch (IllegalArgumentException e) {
            throw new InvalidPathException(uri.toString(), e.getMessage());
        }
        Key key = new Key(scheme, host.toLowerCase(Locale.ROOT), port, opts);
        String probe = path;
        WebDavFileSystem fs = FILE_SYSTEMS.get(key, (k, onClose) ->
                new WebDavFileSystem(this, scheme, k.host(), port, opts, probe, onClose));
        return fs.path(path);
    }
}
