package dev.remotepath.ftp;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;

/**
 * An FTP reply code as the {@code java.nio.file} exception it means (RFC 959 §4.2, RFC 3659), by
 * code, never by the server's text (which only goes into the message). 550, "not available",
 * means "missing" to one server and "denied" to another: callers that can tell which ask the
 * server (a stat) before they come here.
 */
final class FtpErrors {

    private FtpErrors() {
    }

    static IOException of(String command, int code, String reply, RemotePath path) {
        String p = path.toString();
        String what = command + " answered " + reply;
        return switch (code) {
            case 530, 532 -> new AccessDeniedException(p, null, what + " (not logged in, or no account for this)");
            case 552, 452 -> new FileSystemException(p, null, what + " (the server has no room to store it)");
            case 553 -> new FileSystemException(p, null, what + " (the server does not allow this name)");
            case 421 -> new FileSystemException(p, null, what + " (the server is closing the connection)");
            case 425, 426 -> new FileSystemException(p, null, what + " (the data connection failed)");
            default -> new FileSystemException(p, null, what);
        };
    }

    /** A broken connection (a timeout, a reset, a closed control connection) during {@code command}. */
    static FileSystemException transport(String command, RemotePath path, IOException cause) {
        FileSystemException e = new FileSystemException(path.toString(), null,
                "FTP connection failed during " + command + ": " + cause);
        e.initCause(cause);
        return e;
    }
}
