package dev.remotepath;

import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.WriteMode;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Set;

/** A file system with no storage at all: pure path operations must never reach it. */
final class PureFileSystem implements RemoteFileSystem {

    private final String prefix;

    PureFileSystem(String prefix) {
        this.prefix = prefix;
    }

    private static final PureFileSystem SHARED = new PureFileSystem("pure://vol");

    static RemotePath pure(String p) {
        return SHARED.path(p);
    }

    private static AssertionError touched() {
        return new AssertionError("a pure operation touched storage");
    }

    @Override
    public RemoteFileSystemProvider provider() {
        throw touched();
    }

    @Override
    public String uriPrefix() {
        return prefix;
    }

    @Override
    public Set<Capability> capabilities() {
        return Set.of();
    }

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) {
        throw touched();
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) {
        throw touched();
    }

    @Override
    public InputStream openRead(RemotePath file, long offset) {
        throw touched();
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) {
        throw touched();
    }

    @Override
    public void createDirectory(RemotePath directory) {
        throw touched();
    }

    @Override
    public void deleteFile(RemotePath file) {
        throw touched();
    }

    @Override
    public void deleteDirectory(RemotePath directory) {
        throw touched();
    }

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) {
        throw touched();
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void close() {
    }
}
