package dev.remotepath.sftp;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.util.Locale;

/**
 * Serves {@code sftp://[user@]host[:port]/path}. One SSH connection (file system) per user,
 * host, port and options, shared until closed. A URI given without options reaches the
 * connection already open for its user, host and port, so {@code RemotePaths.get(p.toString())}
 * finds the same file as {@code p} although the URI holds no credentials.
 */
public final class SftpFileSystemProvider implements RemoteFileSystemProvider {

    private record Key(String user, String host, int port, SftpOptions options) {
    }

    private static final dev.remotepath.spi.FileSystemCache<Key, SftpFileSystem> FILE_SYSTEMS =
            new dev.remotepath.spi.FileSystemCache<>();

    static {
        // Connections left open by their users are closed when the JVM exits, so servers see a
        // clean goodbye rather than a dropped connection (and no upload is left half-sent).
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("remotepath-sftp-close").unstarted(() -> {
            for (SftpFileSystem fs : FILE_SYSTEMS.all()) {
                try {
                    fs.close();
                } catch (java.io.IOException | RuntimeException ignored) {
                    // exiting anyway
                }
            }
        }));
    }

    @Override
    public java.util.Set<String> schemes() {
        return java.util.Set.of("sftp");
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) throws IOException {
        SftpOptions opts;
        if (options == FileSystemOptions.DEFAULTS) {
            opts = SftpOptions.defaults();
        } else if (options instanceof SftpOptions s) {
            opts = s;
        } else {
            throw new IllegalArgumentException("sftp: takes SftpOptions, got " + options.getClass().getName());
        }
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && userInfo.contains(":")) {
            throw new InvalidPathException("sftp://…", "a password in the URI is not accepted (it would end up in logs): "
                    + "pass it through SftpOptions.password");
        }
        String host = UriPaths.hostOf(uri, "sftp://[user@]host[:port]/path");
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidPathException(uri.toString(), "paths take no query or fragment; percent-encode '?' and '#'");
        }
        // ~/.ssh/config's Host block (HostName, Port, User, IdentityFile) applies as in OpenSSH:
        // what the URI says wins, the configuration fills in the rest.
        org.apache.sshd.client.config.hosts.HostConfigEntry config = SshConfig.lookup(opts.sshConfig(), host);
        String user = userInfo != null ? UriPaths.decode(userInfo)
                : opts.user().orElse(config != null && config.getUsername() != null && !config.getUsername().isEmpty()
                        ? config.getUsername() : System.getProperty("user.name"));
        int port = UriPaths.portOf(uri, config != null && config.getPort() > 0 ? config.getPort() : 22,
                "sftp://[user@]host[:port]/path");
        if (config != null) {
            opts = SshConfig.withIdentities(opts, config);
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : UriPaths.decode(uri.getRawPath());
        if (options == FileSystemOptions.DEFAULTS) {
            // A URI carries no credentials: the same user@host:port reaches the connection
            // already open for it, whatever options opened it.
            java.util.Optional<SftpFileSystem> same = FILE_SYSTEMS.find(k -> k.user().equals(user)
                    && k.host().equalsIgnoreCase(host) && k.port() == port);
            if (same.isPresent()) {
                return same.get().path(path);
            }
        }
        Key key = new Key(user, host.toLowerCase(Locale.ROOT), port, opts);
        String connectTo = config != null && config.getHostName() != null && !config.getHostName().isEmpty()
                ? config.getHostName() : key.host();
        SftpFileSystem fs = FILE_SYSTEMS.get(key, (k, onClose) ->
                new SftpFileSystem(this, new SftpEndpoint(k.user(), k.host(), connectTo, k.port(), k.options()), onClose));
        return fs.path(path);
    }
}
