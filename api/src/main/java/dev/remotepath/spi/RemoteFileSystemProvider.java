package dev.remotepath.spi;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.net.URI;
import java.util.Set;

/**
 * The entry point of a backend, found by {@link java.util.ServiceLoader} from
 * {@code META-INF/services/dev.remotepath.spi.RemoteFileSystemProvider}. It owns the cache of
 * its file systems (one per volume, host and user, bucket and options) so that equal URIs give
 * paths on the same file system.
 */
public interface RemoteFileSystemProvider {

    /** The URI schemes served, lower case: {@code mem}, {@code http} and {@code https}, ... */
    Set<String> schemes();

    /**
     * The path a URI names, on a file system made or taken from the cache.
     *
     * @param uri     an absolute, hierarchical URI of one of {@link #schemes()}
     * @param options the backend's typed options, or {@link FileSystemOptions#DEFAULTS}
     * @throws IllegalArgumentException if the options are of another backend's type
     * @throws IOException if a file system had to be made and could not be (unreachable host,
     *                     refused credentials)
     */
    RemotePath getPath(URI uri, FileSystemOptions options) throws IOException;

    /**
     * Whether this provider's URIs wrap another URI ({@code zip:file:///x.zip!/a.txt}): opaque
     * in {@link URI}'s terms, so {@link dev.remotepath.RemotePaths} hands them over unparsed
     * instead of refusing them as it refuses every other opaque URI.
     */
    default boolean wrapsUris() {
        return false;
    }
}
