package dev.remotepath.spi;

import dev.remotepath.ReadOnlyRemoteFileSystemException;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A backend that can only be read (web servers, archives): every primitive that would change
 * something fails with {@link ReadOnlyRemoteFileSystemException} naming the path. The api
 * refuses writes before they reach a backend without {@link Capability#WRITE}; these are the
 * refusals for a caller of the SPI itself.
 */
public interface ReadOnlyFileSystem extends RemoteFileSystem {

    @Override
    default OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        throw new ReadOnlyRemoteFileSystemException(file.toString(), "write");
    }

    @Override
    default void createDirectory(RemotePath directory) throws IOException {
        throw new ReadOnlyRemoteFileSystemException(directory.toString(), "createDirectory");
    }

    @Override
    default void deleteFile(RemotePath file) throws IOException {
        throw new ReadOnlyRemoteFileSystemException(file.toString(), "delete");
    }

    @Override
    default void deleteDirectory(RemotePath directory) throws IOException {
        throw new ReadOnlyRemoteFileSystemException(directory.toString(), "delete");
    }

    @Override
    default void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        throw new ReadOnlyRemoteFileSystemException(source.toString(), "rename");
    }
}
