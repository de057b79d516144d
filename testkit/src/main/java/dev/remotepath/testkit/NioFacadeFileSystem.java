package dev.remotepath.testkit;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.nio.RemoteNio;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A backend's file system seen only through {@code java.nio.file}: every primitive is one
 * {@code Files.*} call (or a few) on the paths {@link RemoteNio} gives for the backend's own
 * file system, and what comes back is read from NIO's answers alone (attributes by name from
 * the {@code remotepath} view, exceptions as NIO throws them). The whole contract suite runs
 * over it (a backend's {@code *NioFacadeContractTest}), so every case is also a case of the
 * NIO provider.
 *
 * <p>What NIO has no call for is not offered, so the contract skips it: flat listings, batch
 * deletes, a write that carries its modification time, and checksums the server computes on
 * request (NIO shows only those a stat carries, as {@code remotepath:checksum.*}).
 */
public final class NioFacadeFileSystem implements RemoteFileSystem {

    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
    private static final LinkOption[] FOLLOW = {};

    private final RemoteFileSystem backend;
    private final Set<Capability> capabilities;

    private NioFacadeFileSystem(RemoteFileSystem backend) {
        this.backend = backend;
        EnumSet<Capability> caps = EnumSet.noneOf(Capability.class);
        caps.addAll(backend.capabilities());
        caps.removeAll(EnumSet.of(Capability.FLAT_LISTING, Capability.BATCH_DELETE, Capability.MTIME_ON_WRITE,
                Capability.NATIVE_CHECKSUM));
        this.capabilities = Set.copyOf(caps);
    }

    /** {@code directory}'s path on a facade over its backend file system. */
    public static RemotePath over(RemotePath directory) {
        return RemotePath.of(new NioFacadeFileSystem(directory.fileSystem()), directory.pathString());
    }

    /**
     * The backend under {@code fs} when it is a facade, else {@code fs}: a backend's own checks
     * (open streams, connections) look at the file system that does the work.
     */
    public static RemoteFileSystem backendOf(RemoteFileSystem fs) {
        return fs instanceof NioFacadeFileSystem facade ? facade.backend : fs;
    }

    /** The NIO path of {@code p}, on RemotePath's provider over the backend's own file system. */
    private Path nio(RemotePath p) {
        return RemoteNio.of(backend.path(p.pathString()));
    }

    // ------------------------------------------------------------------ identity

    @Override
    public RemoteFileSystemProvider provider() {
        return backend.provider();
    }

    @Override
    public String uriPrefix() {
        return backend.uriPrefix();
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public boolean isOpen() {
        return backend.isOpen();
    }

    @Override
    public void close() throws IOException {
        backend.close();
    }

    @Override
    public String toString() {
        return "NioFacadeFileSystem[" + backend + "]";
    }

    // ------------------------------------------------------------------ metadata

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        return statOf(nio(path), followLinks ? FOLLOW : NOFOLLOW);
    }

    /** One {@code readAttributes(p, "remotepath:*")}: the view names only what the backend knows. */
    @SuppressWarnings("unchecked")
    private static FileStat statOf(Path p, LinkOption... options) throws IOException {
        Map<String, Object> a = Files.readAttributes(p, "remotepath:*", options);
        FileStat.Builder b = FileStat.builder(FileType.valueOf((String) a.get("type")));
        if (a.get("size") instanceof Long n) {
            if (Boolean.TRUE.equals(a.get("sizeExact"))) {
                b.size(n);
            } else {
                b.approximateSize(n);
            }
        }
        if (a.get("lastModifiedTime") instanceof FileTime t) {
            b.lastModified(t.toInstant(), (Duration) a.get("lastModifiedPrecision"));
        }
        if (a.get("lastAccessTime") instanceof FileTime t) {
            b.lastAccess(t.toInstant());
        }
        if (a.get("changeTime") instanceof FileTime t) {
            b.changeTime(t.toInstant());
        }
        if (a.get("permissions") instanceof Set<?> perms) {
            b.permissions((Set<PosixFilePermission>) perms);
        }
        if (a.get("fileKey") instanceof String k) {
            b.fileKey(k);
        }
        if (a.get("owner") instanceof String o) {
            b.owner(o);
        }
        if (a.get("group") instanceof String g) {
            b.group(g);
        }
        if (a.get("etag") instanceof String e) {
            b.etag(e);
        }
        if (a.get("storedAt") instanceof FileTime t) {
            b.storedAt(t.toInstant());
        }
        for (Map.Entry<String, Object> e : a.entrySet()) {
            if (e.getKey().startsWith("checksum.")) {
                b.checksum(ChecksumAlgorithm.valueOf(e.getKey().substring("checksum.".length()).toUpperCase(Locale.ROOT)),
                        (String) e.getValue());
            }
        }
        return b.build();
    }

    /** A directory stream; each path it hands out carries its listed attributes, read without a request. */
    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        List<ListedEntry> out = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(nio(directory))) {
            for (Path p : stream) {
                out.add(new ListedEntry(p.getFileName().toString(), statOf(p, NOFOLLOW)));
            }
        }
        return DirectoryListing.of(out);
    }

    // ------------------------------------------------------------------ content

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        if (offset == 0) {
            return Files.newInputStream(nio(file));
        }
        SeekableByteChannel channel = Files.newByteChannel(nio(file));
        try {
            channel.position(offset);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return Channels.newInputStream(channel);
    }

    /**
     * NIO's options for each mode. The stream is the provider's own, so a backend's abortable
     * stream stays abortable: a failed copy is discarded, not published.
     */
    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        OpenOption[] options = switch (mode) {
            case CREATE_NEW -> new OpenOption[] {StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE};
            case CREATE_OR_TRUNCATE -> new OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE};
            case CREATE_OR_APPEND -> new OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE};
        };
        return Files.newOutputStream(nio(file), options);
    }

    /**
     * The permissions set on a file this call created, as soon as it is: the provider takes no
     * initial attributes, so the facade does what a caller of NIO would.
     */
    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, dev.remotepath.spi.WriteAttributes attributes)
            throws IOException {
        boolean creates = mode == WriteMode.CREATE_NEW || !Files.exists(nio(file), java.nio.file.LinkOption.NOFOLLOW_LINKS);
        OutputStream out = openWrite(file, mode); // a time is set afterwards: no MTIME_ON_WRITE here
        if (creates && attributes.permissions().isPresent() && capabilities().contains(Capability.POSIX_PERMISSIONS)) {
            try {
                Files.setPosixFilePermissions(nio(file), attributes.permissions().get());
            } catch (IOException | RuntimeException e) {
                out.close();
                throw e;
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ structure

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        Files.createDirectory(nio(directory));
    }

    /** The permissions set as soon as the directory is made, as a caller of NIO would (no initial attributes). */
    @Override
    public void createDirectory(RemotePath directory, java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions)
            throws IOException {
        createDirectory(directory);
        if (capabilities().contains(Capability.POSIX_PERMISSIONS)) { // elsewhere ignored, as the SPI's default does
            Files.setPosixFilePermissions(nio(directory), permissions);
        }
    }

    /** NIO's delete takes files and empty directories alike: the SPI's promise is checked first. */
    @Override
    public void deleteFile(RemotePath file) throws IOException {
        Path p = nio(file);
        if (Files.isDirectory(p, NOFOLLOW)) {
            throw new dev.remotepath.IsDirectoryException(file.toString());
        }
        Files.delete(p);
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        Path p = nio(directory);
        if (Files.exists(p, NOFOLLOW) && !Files.isDirectory(p, NOFOLLOW)) {
            throw new NotDirectoryException(directory.toString());
        }
        Files.delete(p);
    }

    /** {@code Files.move}: {@code ATOMIC_MOVE} where the backend renames atomically and the target is replaced. */
    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        List<CopyOption> options = new ArrayList<>();
        if (replaceExisting) {
            options.add(StandardCopyOption.REPLACE_EXISTING);
            if (capabilities.contains(Capability.ATOMIC_RENAME)) {
                options.add(StandardCopyOption.ATOMIC_MOVE);
            }
        }
        Files.move(nio(source), nio(target), options.toArray(CopyOption[]::new));
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        Files.getFileAttributeView(nio(path), BasicFileAttributeView.class, NOFOLLOW)
                .setTimes(FileTime.from(time), null, null);
    }

    @Override
    public void setPermissions(RemotePath path, Set<PosixFilePermission> permissions) throws IOException {
        Files.setPosixFilePermissions(nio(path), permissions);
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        Path l = nio(link);
        Files.createSymbolicLink(l, l.getFileSystem().getPath(target));
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        return Files.readSymbolicLink(nio(link)).toString();
    }

    @Override
    public RemotePath realPath(RemotePath path) throws IOException {
        return RemotePath.of(this, nio(path).toRealPath().toString());
    }

    /** The file store's space through {@code Files.getFileStore}; where it has none, none. */
    @Override
    public Optional<dev.remotepath.spi.StoreSpace> storeSpace(RemotePath path) throws IOException {
        java.nio.file.FileStore store = Files.getFileStore(nio(path));
        try {
            return Optional.of(dev.remotepath.spi.StoreSpace.of(store));
        } catch (UnsupportedOperationException none) {
            return Optional.empty();
        }
    }

    // ------------------------------------------------------------------ server-side work

    /** Only the checksums a stat carries: NIO has no call that asks a server to compute one. */
    @Override
    public Set<ChecksumAlgorithm> nativeChecksums() {
        return Set.of();
    }

    @Override
    public Optional<Checksum> nativeChecksum(RemotePath file, ChecksumAlgorithm algorithm) {
        return Optional.empty();
    }

    /** {@code Files.copy} within the provider, which copies on the server where the backend can. */
    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        if (!capabilities.contains(Capability.SERVER_SIDE_COPY)) {
            return false;
        }
        if (replaceExisting) {
            Files.copy(nio(source), nio(target), StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.copy(nio(source), nio(target));
        }
        return true;
    }
}
