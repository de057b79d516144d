package dev.remotepath;

import java.nio.file.FileSystemException;

/**
 * An operation meant for a file (reading or writing its content) found a directory, on any
 * backend: POSIX's {@code EISDIR}, which {@code java.nio.file} has no type of its own for. Its
 * reason starts with "is a directory", so messages read as before; callers catch the type
 * instead of matching text.
 */
public final class IsDirectoryException extends FileSystemException {

    /** {@code file} is a directory. */
    public IsDirectoryException(String file) {
        super(file, null, "is a directory");
    }

    /** {@code file} is a directory; {@code advice} (what to do instead) follows the reason. */
    public IsDirectoryException(String file, String advice) {
        super(file, null, "is a directory (" + advice + ")");
    }
}
