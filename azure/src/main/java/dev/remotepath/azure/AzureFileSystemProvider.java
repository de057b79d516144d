package dev.remotepath.azure;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.FileSystemCache;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Serves {@code az://container/blob}. One file system (and SDK client) per container and
 * options, shared until closed. A URI given without options reaches the file system already
 * open for its container, else one made from the environment ({@link AzureOptions#fromEnvironment()}).
 */
public final class AzureFileSystemProvider implements RemoteFileSystemProvider {

    /** Container names as Azure accepts them: 3-63 of a-z, 0-9 and single hyphens; or $root, $web. */
    private static final Pattern CONTAINER = Pattern.compile("\\$root|\\$web|[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62}");

    private record Key(String container, AzureOptions options) {
    }

    private static final FileSystemCache<Key, AzureFileSystem> FILE_SYSTEMS = new FileSystemCache<>();

    @Override
    public Set<String> schemes() {
        return Set.of("az");
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) throws IOException {
        AzureOptions opts;
        if (options == FileSystemOptions.DEFAULTS) {
            opts = null;
        } else if (options instanceof AzureOptions a) {
            opts = a;
        } else {
            throw new IllegalArgumentException("az: takes AzureOptions, got " + options.getClass().getName());
        }
        if (uri.getRawUserInfo() != null) {
            throw new InvalidPathException("az://…", "credentials in the URI are not accepted (they would end up in "
                    + "logs): pass them through AzureOptions.credentials");
        }
        String container = uri.getHost() != null ? uri.getHost() : uri.getRawAuthority();
        if (container == null || !CONTAINER.matcher(container).matches() || uri.getPort() != -1) {
            throw new InvalidPathException(uri.toString(), "az URIs name a container (3-63 lower-case letters, digits "
                    + "and hyphens): az://container/path");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidPathException(uri.toString(), "paths take no query or fragment; percent-encode '?' and '#'");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : UriPaths.decode(uri.getRawPath());
        if (opts == null) {
            Optional<AzureFileSystem> any = FILE_SYSTEMS.find(k -> k.container().equals(container));
            if (any.isPresent()) {
                return any.get().path(path);
            }
            try {
                opts = AzureOptions.fromEnvironment();
            } catch (IllegalArgumentException e) {
                throw new java.nio.file.FileSystemException(uri.toString(), null, e.getMessage());
            }
        }
        Key key = new Key(container, opts);
        AzureFileSystem fs;
        try {
            fs = FILE_SYSTEMS.get(key, (k, onClose) -> new AzureFileSystem(this, k.container(), k.options(), onClose));
        } catch (IllegalArgumentException | IllegalStateException e) {
            // the SDK refusing what the options say (a malformed connection string or endpoint)
            throw new java.nio.file.FileSystemException("az://" + container, null, "cannot make an Azure client: "
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage())));
        }
        return fs.path(path);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
