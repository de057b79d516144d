package dev.remotepath;

/**
 * What kind of object a path names, as the backend reports it without following links
 * (unless the stat was asked to follow them).
 */
public enum FileType {
    /** A regular file: bytes that can be read. */
    FILE,
    /** A directory, or a prefix that a backend presents as one (S3). */
    DIRECTORY,
    /** A symbolic link; its target is read with {@link RemotePath#readSymbolicLink()}. */
    SYMLINK,
    /** A device, socket, FIFO or anything else that is neither file, directory nor link. */
    OTHER;

    /** The lower-case word the CLI and JSON output use: {@code file}, {@code directory}, ... */
    public String label() {
        return this == FILE ? "file" : this == DIRECTORY ? "directory" : this == SYMLINK ? "symlink" : "other";
    }
}
