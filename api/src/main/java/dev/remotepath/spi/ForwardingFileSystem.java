package dev.remotepath.spi;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A file system that forwards every primitive to another one, translating paths between the
 * two. Subclasses override what they observe or disturb ({@link ObservedFileSystem}'s events;
 * in tests counting, fault injection, tampered listings). Paths made with {@link #wrap} belong
 * to this file system, so everything the api does with them passes through it. Closing it
 * leaves the delegate open: whoever made the delegate owns it. {@link #openReadAll} is not
 * forwarded: it comes back to this file system's {@code openRead}, which subclasses override to
 * see or disturb reads (ObservedFileSystem forwards it, watched). The three {@code openWrite}
 * variants are each forwarded as they are: a subclass that sees or disturbs writes overrides all
 * three (a copy asks for the source's permissions with {@link WriteAttributes}), and both
 * {@code createDirectory} variants likewise.
 */
public class ForwardingFileSystem implements RemoteFileSystem {

    protected final RemoteFileSystem delegate;

    public ForwardingFileSystem(RemoteFileSystem delegate) {
        this.delegate = delegate;
    }

    /** The same location, on this file system. */
    public RemotePath wrap(RemotePath p) {
        return RemotePath.of(this, p.pathString());
    }

    /** The same location, on the delegate. */
    protected RemotePath down(RemotePath p) {
        return RemotePath.of(delegate, p.pathString());
    }

    @Override
    public RemoteFileSystemProvider provider() {
        return delegate.provider();
    }

    @Override
    public String uriPrefix() {
        return delegate.uriPrefix();
    }

    @Override
    public Set<Capability> capabilities() {
        return delegate.capabilities();
    }

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        return delegate.stat(down(path), followLinks);
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        return delegate.list(down(directory), detail);
    }

    /** The delegate's flat listing: its names are relative to the directory, so they need no mapping. */
    @Override
    public DirectoryListing listTree(RemotePath directory, ListDetail detail) throws IOException {
        return delegate.listTree(down(directory), detail);
    }

    @Override
    public DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
            throws IOException {
        return delegate.listChild(parent, down(directory), detail);
    }

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        return delegate.openRead(down(file), offset);
    }

    @Override
    public InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        return delegate.openRead(down(file), offset, length);
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return delegate.openWrite(down(file), mode);
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, java.time.Instant lastModified) throws IOException {
        return delegate.openWrite(down(file), mode, lastModified);
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, WriteAttributes attributes) throws IOException {
        return delegate.openWrite(down(file), mode, attributes);
    }

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        delegate.createDirectory(down(directory));
    }

    @Override
    public void createDirectory(RemotePath directory, Set<java.nio.file.attribute.PosixFilePermission> permissions)
            throws IOException {
        delegate.createDirectory(down(directory), permissions);
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        delegate.deleteFile(down(file));
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        delegate.deleteDirectory(down(directory));
    }

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        delegate.rename(down(source), down(target), replaceExisting);
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        delegate.setLastModifiedTime(down(path), time);
    }

    @Override
    public void setPermissions(RemotePath path, Set<PosixFilePermission> permissions) throws IOException {
        delegate.setPermissions(down(path), permissions);
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        delegate.createSymbolicLink(down(link), target);
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        return delegate.readSymbolicLink(down(link));
    }

    @Override
    public RemotePath realPath(RemotePath path) throws IOException {
        return wrap(delegate.realPath(down(path)));
    }

    @Override
    public Set<ChecksumAlgorithm> nativeChecksums() {
        return delegate.nativeChecksums();
    }

    @Override
    public Optional<Checksum> nativeChecksum(RemotePath file, ChecksumAlgorithm algorithm) throws IOException {
        return delegate.nativeChecksum(down(file), algorithm);
    }

    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        return delegate.copyFile(down(source), sourceStat, down(target), replaceExisting);
    }

    @Override
    public void deleteFiles(Collection<RemotePath> files) throws IOException {
        List<RemotePath> down = files.stream().map(this::down).toList();
        delegate.deleteFiles(down);
    }

    @Override
    public Optional<StoreSpace> storeSpace(RemotePath path) throws IOException {
        return delegate.storeSpace(down(path));
    }

    @Override
    public Optional<java.nio.file.Path> toNioPath(RemotePath path) {
        return delegate.toNioPath(down(path));
    }

    @Override
    public boolean isOpen() {
        return delegate.isOpen();
    }

    /** Does not close the delegate, which its maker owns. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + delegate + "]";
    }
}
