package dev.remotepath.sftp;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * SFTP status codes as {@code java.nio.file} exceptions, by code, never by the server's message
 * text (which only rides along as the reason). Both clients report a status the same way
 * ({@link SftpStatusException}), so one mapping serves MINA and sshj.
 */
final class SftpErrors {

    private SftpErrors() {
    }

    /** A status answer as the matching java.nio.file exception; FAILURE stays generic for callers to refine. */
    static IOException mapped(SftpStatusException e, RemotePath p, RemotePath other) {
        String f = p.toString();
        String o = other == null ? null : other.toString();
        IOException out = switch (e.status()) {
            case SftpStatusException.NO_SUCH_FILE, SftpStatusException.NO_SUCH_PATH -> new NoSuchFileException(f, o, null);
            case SftpStatusException.PERMISSION_DENIED, SftpStatusException.WRITE_PROTECT ->
                    new AccessDeniedException(f, o, e.getMessage());
            case SftpStatusException.FILE_ALREADY_EXISTS -> new FileAlreadyExistsException(f, o, null);
            case SftpStatusException.DIR_NOT_EMPTY -> new DirectoryNotEmptyException(f);
            case SftpStatusException.NOT_A_DIRECTORY -> new NotDirectoryException(f);
            case SftpStatusException.FILE_IS_A_DIRECTORY -> new dev.remotepath.IsDirectoryException(f);
            case SftpStatusException.NO_SPACE_ON_FILESYSTEM, SftpStatusException.QUOTA_EXCEEDED ->
                    new FileSystemException(f, o, "no space left: " + e.getMessage());
            default -> new FileSystemException(f, o, "SFTP error " + e.status() + ": " + e.getMessage());
        };
        out.initCause(e);
        return out;
    }
}
