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

    /** Closed at JVM exit if still open, so servers see a clean goodbye (FileSystemCache.closedAtExit). */
    private static final dev.remotepath.spi.FileSystemCache<Key, SftpFileSystem> FILE_SYSTEMS =
            dev.remotepath.spi.FileSystemCache.closedAtExit("remotepath-sftp-close");

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
        SftpOptions given = opts;
        String user = userInfo != null ? UriPaths.decode(userInfo)
                : opts.user().orElse(config != null && config.getUsername() != null && !config.getUsername().isEmpty()
                        ? config.getUsername() : System.getProperty("user.name"));
        int port = UriPaths.portOf(uri, config != null && config.getPort() > 0 ? config.getPort() : 22,
                "sftp://[user@]host[:port]/path");
        if (config != null) {
            opts = SshConfig.apply(opts, config);
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
        java.util.Optional<SftpEndpoint> via = hops(given, opts.proxyJump());
        SftpFileSystem fs = FILE_SYSTEMS.get(key, (k, onClose) ->
                new SftpFileSystem(this, new SftpEndpoint(k.user(), k.host(), connectTo, k.port(), k.options(), via), onClose));
        return fs.path(path);
    }

    /** At most this many ProxyJump hops, as a bound on a configuration that loops. */
    private static final int MAX_HOPS = 8;

    /**
     * The ProxyJump hops as endpoints, the last one reached through the ones before it. Each
     * hop's own Host block gives its HostName, Port, User and keys (not its own ProxyJump: the
     * list given is the whole route, as OpenSSH's {@code -J}).
     */
    static java.util.Optional<SftpEndpoint> hops(SftpOptions given, java.util.Optional<String> proxyJump) throws IOException {
        if (proxyJump.isEmpty()) {
            return java.util.Optional.empty();
        }
        String[] hops = proxyJump.get().split(",");
        if (hops.length > MAX_HOPS) {
            throw new IllegalArgumentException("ProxyJump '" + proxyJump.get() + "' has more than " + MAX_HOPS + " hops");
        }
        java.util.Optional<SftpEndpoint> via = java.util.Optional.empty();
        for (String hop : hops) {
            String spec = hop.strip();
            if (spec.startsWith("ssh://")) {
                spec = spec.substring("ssh://".length());
                if (spec.endsWith("/")) {
                    spec = spec.substring(0, spec.length() - 1);
                }
            }
            String user = null;
            int at = spec.lastIndexOf('@');
            if (at >= 0) {
                user = spec.substring(0, at);
                spec = spec.substring(at + 1);
            }
            String host = spec;
            int port = -1;
            if (spec.startsWith("[")) {
                int close = spec.indexOf(']');
                if (close < 0) {
                    throw new IllegalArgumentException("ProxyJump hop '" + hop.strip() + "': unclosed '['");
                }
                host = spec.substring(1, close);
                String rest = spec.substring(close + 1);
                if (rest.startsWith(":")) {
                    port = hopPort(hop, rest.substring(1));
                } else if (!rest.isEmpty()) {
                    throw new IllegalArgumentException("ProxyJump hop '" + hop.strip() + "': unexpected '" + rest + "'");
                }
            } else if (spec.indexOf(':') >= 0 && spec.indexOf(':') == spec.lastIndexOf(':')) {
                host = spec.substring(0, spec.indexOf(':'));
                port = hopPort(hop, spec.substring(spec.indexOf(':') + 1));
            }
            if (host.isEmpty() || (user != null && user.isEmpty())) {
                throw new IllegalArgumentException("ProxyJump hop '" + hop.strip() + "' is not [user@]host[:port]");
            }
            org.apache.sshd.client.config.hosts.HostConfigEntry config = SshConfig.lookup(given.sshConfig(), host);
            SftpOptions hopOptions = given.toBuilder().proxyJump(null).build();
            if (config != null) {
                hopOptions = SshConfig.apply(hopOptions, config).toBuilder().proxyJump(null).build();
            }
            String hopUser = user != null ? user : given.user().orElse(config != null && config.getUsername() != null
                    && !config.getUsername().isEmpty() ? config.getUsername() : System.getProperty("user.name"));
            int hopPortNumber = port > 0 ? port : config != null && config.getPort() > 0 ? config.getPort() : 22;
            String connectTo = config != null && config.getHostName() != null && !config.getHostName().isEmpty()
                    ? config.getHostName() : host;
            via = java.util.Optional.of(new SftpEndpoint(hopUser, host.toLowerCase(Locale.ROOT), connectTo, hopPortNumber,
                    hopOptions, via));
        }
        return via;
    }

    private static int hopPort(String hop, String port) {
        try {
            int p = Integer.parseInt(port);
            if (p < 1 || p > 65535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("ProxyJump hop '" + hop.strip() + "': bad port '" + port + "'");
        }
    }
}
