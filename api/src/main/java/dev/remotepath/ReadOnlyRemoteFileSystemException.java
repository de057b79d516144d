package dev.remotepath;

import java.nio.file.FileSystemException;

/**
 * A write, delete or rename was asked of a backend that is read-only (an HTTP index). Checked,
 * unlike {@link java.nio.file.ReadOnlyFileSystemException}, so that tree algorithms and the
 * syncer report it like any other I/O failure.
 */
public final class ReadOnlyRemoteFileSystemException extends FileSystemException {

    public ReadOnlyRemoteFileSystemException(String path, String operation) {
        super(path, null, operation + " refused: the file system is read-only");
    }
}
