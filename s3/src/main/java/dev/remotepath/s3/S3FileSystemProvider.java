package dev.remotepath.s3;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Serves {@code s3://bucket/key}. One file system (and SDK client) per bucket and options,
 * shared until closed. A URI given without options reaches the file system already open for
 * its bucket, so {@code RemotePaths.get(p.toString())} finds the same object as {@code p}.
 */
public final class S3FileSystemProvider implements RemoteFileSystemProvider {

    /** Bucket names as S3 (and, leniently, older and compatible stores) accept them. */
    private static final Pattern BUCKET = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9._-]{1,254}");

    private record Key(String bucket, S3Options options) {
    }

    /** Closed at JVM exit if still open, so servers see a clean goodbye (FileSystemCache.closedAtExit). */
    private static final dev.remotepath.spi.FileSystemCache<Key, S3FileSystem> FILE_SYSTEMS =
            dev.remotepath.spi.FileSystemCache.closedAtExit("remotepath-s3-close");

    @Override
    public Set<String> schemes() {
        return Set.of("s3");
    }

    @Override
    public RemotePath getPath(URI uri, FileSystemOptions options) throws IOException {
        S3Options opts;
        if (options == FileSystemOptions.DEFAULTS) {
            opts = null;
        } else if (options instanceof S3Options s) {
            opts = s;
        } else {
            throw new IllegalArgumentException("s3: takes S3Options, got " + options.getClass().getName());
        }
        if (uri.getRawUserInfo() != null) {
            throw new InvalidPathException("s3://…", "credentials in the URI are not accepted (they would end up in "
                    + "logs): pass them through S3Options.credentials");
        }
        String bucket = uri.getHost() != null ? uri.getHost() : uri.getRawAuthority();
        if (bucket == null || !BUCKET.matcher(bucket).matches() || uri.getPort() != -1) {
            throw new InvalidPathException(uri.toString(), "s3 URIs name a bucket: s3://bucket/key");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new InvalidPathException(uri.toString(), "paths take no query or fragment; percent-encode '?' and '#'");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : UriPaths.decode(uri.getRawPath());
        if (opts == null) {
            java.util.Optional<S3FileSystem> any = FILE_SYSTEMS.find(k -> k.bucket().equals(bucket));
            if (any.isPresent()) {
                return any.get().path(path);
            }
            opts = S3Options.defaults();
        }
        Key key = new Key(bucket, opts);
        S3FileSystem fs = FILE_SYSTEMS.get(key, (k, onClose) -> new S3FileSystem(this, k.bucket(), k.options(), onClose));
        return fs.path(path);
    }
}
