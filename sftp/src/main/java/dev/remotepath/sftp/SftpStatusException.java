package dev.remotepath.sftp;

import java.io.IOException;

/**
 * A server's SSH_FXP_STATUS answer other than OK, in the same form whichever client library
 * received it, so that one mapping turns it into a {@code java.nio.file} exception. Never
 * leaves the backend.
 */
final class SftpStatusException extends IOException {

    static final int NO_SUCH_FILE = 2;
    static final int PERMISSION_DENIED = 3;
    static final int FAILURE = 4;
    static final int OP_UNSUPPORTED = 8;
    static final int NO_SUCH_PATH = 10;
    static final int FILE_ALREADY_EXISTS = 11;
    static final int WRITE_PROTECT = 12;
    static final int NO_SPACE_ON_FILESYSTEM = 14;
    static final int QUOTA_EXCEEDED = 15;
    static final int DIR_NOT_EMPTY = 18;
    static final int NOT_A_DIRECTORY = 19;
    static final int FILE_IS_A_DIRECTORY = 24;

    private final int status;

    SftpStatusException(int status, String message, Throwable cause) {
        super(message == null || message.isBlank() ? "status " + status : message, cause);
        this.status = status;
    }

    int status() {
        return status;
    }
}
