package dev.remotepath.ftp;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.FileSystemCache;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Serves {@code ftp://[user@]host[:port]/path} and {@code ftps://} (TLS, the certificate checked:
 * {@code AUTH TLS} on port 21, or implicit TLS on port 990 with {@link FtpOptions#implicitTls()}).
 * No user, or {@code anonymous}, logs in anonymously. One file system (one connection pool) per
 * user, server and options. A password never comes in the URI: it is an option.
 */
public final class FtpFileSystemProvider implements RemoteFileSystemProvider {

    private record Key(String scheme, String user, String host, int port, FtpOptions options) {
    }

    private static final FileSystemCache<Key, FtpFileSystem> FILE_SYSTEMS = FileSystemCache.closedAtExit("remotepath-ftp-close");

    @Override
    public Set<String> schemes() {
        return Set.of("ftp", "ftps");
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) throws IOException {
        FtpOptions opts;
        if (options == FileSystemOptions.DEFAULTS) {
            opts = FtpOptions.defaults();
        } else if (options instanceof FtpOptions f) {
            opts = f;
        } else {
            throw new IllegalArgumentException("ftp: takes FtpOptions, got " + options.getClass().getName());
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String usage = scheme + "://[user@]host[:port]/path";
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && userInfo.contains(":")) {
            throw new InvalidPathException(scheme + "://…", "a password in the URI is not accepted (it would end up "
                    + "in logs): pass it through FtpOptions.password");
        }
        String host = UriPaths.hostOf(uri, usage);
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidPathException(uri.toString(), "paths take no query or fragment; percent-encode '?' and '#'");
        }
        String user;
        String path;
        try {
            user = userInfo == null ? "anonymous" : UriPaths.decode(userInfo);
            path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : UriPaths.decode(uri.getRawPath());
        } catch (IllegalArgumentException e) {
            throw new InvalidPathException(uri.toString(), e.getMessage());
        }
        if (user.isEmpty() || user.chars().anyMatch(ch -> ch == '\r' || ch == '\n')) {
            throw new InvalidPathException(uri.toString(), "not a user name FTP can send");
        }
        int port = UriPaths.portOf(uri, scheme.equals("ftps") && opts.implicitTls() ? 990 : 21, usage);
        String lower = host.toLowerCase(Locale.ROOT);
        if (options == FileSystemOptions.DEFAULTS) {
            // A URI carries no password: the same user@host:port reaches the pool already open for it.
            Optional<FtpFileSystem> same = FILE_SYSTEMS.find(k -> k.scheme().equals(scheme) && k.user().equals(user)
                    && k.host().equals(lower) && k.port() == port);
            if (same.isPresent()) {
                return same.get().path(path);
            }
        }
        Key key = new Key(scheme, user, lower, port, opts);
        FtpFileSystem fs = FILE_SYSTEMS.get(key, (k, onClose) ->
                new FtpFileSystem(this, new FtpConnection.Endpoint(scheme, k.host(), port, user), opts, onClose));
        return fs.path(path);
    }
}
