package dev.remotepath;

import java.nio.file.FileSystemException;

/**
 * A listing (an HTML page, an S3 key, an SFTP server's READDIR) returned a name that could
 * escape or corrupt its directory: empty, {@code .}, {@code ..}, or containing {@code /} or NUL.
 * Such a name never becomes a path; the whole listing fails with this exception.
 */
public final class UnsafeNameException extends FileSystemException {

    public UnsafeNameException(String directory, String name, String why) {
        super(directory, null, "listing returned an unsafe name " + EntryNames.quote(name) + ": " + why);
    }
}
