package dev.remotepath.sftp;

import java.io.IOException;

/**
 * The server's host key is not trusted: unknown to known_hosts under the strict policy, or
 * different from the key known_hosts holds (which may mean a man-in-the-middle).
 */
public final class HostKeyException extends IOException {
    public HostKeyException(String where, String problem) {
        super("sftp " + where + ": host key not trusted: " + problem);
    }
}
