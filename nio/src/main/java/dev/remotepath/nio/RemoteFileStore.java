package dev.remotepath.nio;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.StoreSpace;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;

/**
 * The storage behind a path: named by its file system ({@code sftp://user@host}, {@code s3://bucket}),
 * typed by scheme. Its space is asked of the backend on each call, where the backend can tell
 * (the local disk, mem, SFTP servers with {@code statvfs@openssh.com}); elsewhere (object
 * stores, web servers, which have no such figure) the space methods throw
 * {@link UnsupportedOperationException}.
 */
final class RemoteFileStore extends FileStore {

    private final RemotePath path;

    RemoteFileStore(RemotePath path) {
        this.path = path;
    }

    @Override
    public String name() {
        return path.fileSystem().uriPrefix();
    }

    @Override
    public String type() {
        return path.toUri().getScheme();
    }

    @Override
    public boolean isReadOnly() {
        return !path.fileSystem().capabilities().contains(Capability.WRITE);
    }

    private StoreSpace space() throws IOException {
        return path.fileSystem().storeSpace(path).orElseThrow(() -> new UnsupportedOperationException(
                "the " + type() + " backend reports no space for its storage (" + path + ")"));
    }

    @Override
    public long getTotalSpace() throws IOException {
        return space().total();
    }

    @Override
    public long getUsableSpace() throws IOException {
        return space().usable();
    }

    @Override
    public long getUnallocatedSpace() throws IOException {
        return space().unallocated();
    }

    @Override
    public boolean supportsFileAttributeView(Class<? extends FileAttributeView> type) {
        return type == BasicFileAttributeView.class
                || type == PosixFileAttributeView.class && path.fileSystem().capabilities().contains(Capability.POSIX_PERMISSIONS);
    }

    @Override
    public boolean supportsFileAttributeView(String name) {
        return switch (name) {
            case "basic", RemoteAttributes.VIEW -> true;
            case "posix" -> path.fileSystem().capabilities().contains(Capability.POSIX_PERMISSIONS);
            default -> false;
        };
    }

    @Override
    public <V extends FileStoreAttributeView> V getFileStoreAttributeView(Class<V> type) {
        return null;
    }

    @Override
    public Object getAttribute(String attribute) throws IOException {
        return switch (attribute) {
            case "totalSpace" -> getTotalSpace();
            case "usableSpace" -> getUsableSpace();
            case "unallocatedSpace" -> getUnallocatedSpace();
            default -> throw new UnsupportedOperationException("no file store attribute '" + attribute + "'");
        };
    }

    @Override
    public String toString() {
        return name() + " (" + type() + ")";
    }
}
