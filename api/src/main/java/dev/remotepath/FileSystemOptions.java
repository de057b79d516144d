package dev.remotepath;

/**
 * Marker for a backend's typed connection options (credentials, timeouts, client choice),
 * passed to {@link RemotePaths#get(java.net.URI, FileSystemOptions)}. Each backend defines its
 * own record; implementations must keep secrets out of {@code toString()}.
 */
public interface FileSystemOptions {

    /** The options of a backend that takes none, or wants its defaults. */
    FileSystemOptions DEFAULTS = new FileSystemOptions() {
        @Override
        public String toString() {
            return "FileSystemOptions.DEFAULTS";
        }
    };
}
