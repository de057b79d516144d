package dev.remotepath.testkit;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.WriteMode;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the primitive calls made through it, and the content bytes read, so tests can prove
 * metadata reuse: "walking D directories makes D list calls and no stat". Thread-safe.
 */
public class CountingFileSystem extends ForwardingFileSystem {

    /** The primitives counted. */
    public enum Call {
        STAT, LIST, OPEN_READ, OPEN_WRITE, CREATE_DIRECTORY, DELETE_FILE, DELETE_DIRECTORY, DELETE_FILES,
        RENAME, SET_LAST_MODIFIED_TIME, SET_PERMISSIONS, READ_SYMBOLIC_LINK, CREATE_SYMBOLIC_LINK, NATIVE_COPY,
        NATIVE_CHECKSUM, REAL_PATH, LIST_TREE;

        /** The calls that change something: none may happen on either side of a no-op sync. */
        public static final java.util.Set<Call> WRITES = java.util.Collections.unmodifiableSet(java.util.EnumSet.of(
                OPEN_WRITE, CREATE_DIRECTORY, DELETE_FILE, DELETE_DIRECTORY, DELETE_FILES, RENAME,
                SET_LAST_MODIFIED_TIME, SET_PERMISSIONS, CREATE_SYMBOLIC_LINK, NATIVE_COPY));
    }

    private final Map<Call, AtomicLong> counts = new EnumMap<>(Call.class);
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong filesInBatches = new AtomicLong();

    public CountingFileSystem(RemoteFileSystem delegate) {
        super(delegate);
        for (Call c : Call.values()) {
            counts.put(c, new AtomicLong());
        }
    }

    /** A counting file system over {@code p}'s, and {@code p} on it. */
    public static RemotePath counting(RemotePath p) {
        return new CountingFileSystem(p.fileSystem()).wrap(p);
    }

    /** The counter of the file system a wrapped path lives on. */
    public static CountingFileSystem of(RemotePath wrapped) {
        return (CountingFileSystem) wrapped.fileSystem();
    }

    public long count(Call call) {
        return counts.get(call).get();
    }

    /** Content bytes read through {@code openRead} streams. */
    public long bytesRead() {
        return bytesRead.get();
    }

    /** Files handed to {@code deleteFiles}, over all its calls. */
    public long filesInBatches() {
        return filesInBatches.get();
    }

    /** Files deleted one by one and in batches together. */
    public long filesDeleted() {
        return count(Call.DELETE_FILE) + filesInBatches();
    }

    /** Every counter back to zero. */
    public void reset() {
        counts.values().forEach(c -> c.set(0));
        bytesRead.set(0);
        filesInBatches.set(0);
    }

    @Override
    public String toString() {
        return "CountingFileSystem" + counts + " bytesRead=" + bytesRead;
    }

    private void hit(Call c) {
        counts.get(c).incrementAndGet();
    }

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        hit(Call.STAT);
        return super.stat(path, followLinks);
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        hit(Call.LIST);
        return super.list(directory, detail);
    }

    /** One flat listing of a whole tree, counted apart from the per-directory {@link Call#LIST}s. */
    @Override
    public DirectoryListing listTree(RemotePath directory, ListDetail detail) throws IOException {
        hit(Call.LIST_TREE);
        return super.listTree(directory, detail);
    }

    /** Counted as a {@link Call#LIST}: it is one listing of one directory. */
    @Override
    public DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
            throws IOException {
        hit(Call.LIST);
        return super.listChild(parent, directory, detail);
    }

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        hit(Call.OPEN_READ);
        InputStream delegate = super.openRead(file, offset);
        class Counted extends FilterInputStream implements dev.remotepath.spi.StatReportingStream {
            Counted() {
                super(delegate);
            }

            @Override
            public java.util.Optional<dev.remotepath.FileStat> reportedStat() {
                return dev.remotepath.spi.StatReportingStream.of(delegate);
            }

            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    bytesRead.incrementAndGet();
                }
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                int n = super.read(buf, off, len);
                if (n > 0) {
                    bytesRead.addAndGet(n);
                }
                return n;
            }
        }
        return new Counted();
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        hit(Call.OPEN_WRITE);
        return super.openWrite(file, mode);
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, java.time.Instant lastModified) throws IOException {
        hit(Call.OPEN_WRITE);
        return super.openWrite(file, mode, lastModified);
    }

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        hit(Call.CREATE_DIRECTORY);
        super.createDirectory(directory);
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        hit(Call.DELETE_FILE);
        super.deleteFile(file);
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        hit(Call.DELETE_DIRECTORY);
        super.deleteDirectory(directory);
    }

    @Override
    public void deleteFiles(Collection<RemotePath> files) throws IOException {
        hit(Call.DELETE_FILES);
        filesInBatches.addAndGet(files.size());
        super.deleteFiles(files);
    }

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        hit(Call.RENAME);
        super.rename(source, target, replaceExisting);
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        hit(Call.SET_LAST_MODIFIED_TIME);
        super.setLastModifiedTime(path, time);
    }

    @Override
    public void setPermissions(RemotePath path, java.util.Set<java.nio.file.attribute.PosixFilePermission> permissions)
            throws IOException {
        hit(Call.SET_PERMISSIONS);
        super.setPermissions(path, permissions);
    }

    @Override
    public java.util.Optional<dev.remotepath.Checksum> nativeChecksum(RemotePath file, dev.remotepath.ChecksumAlgorithm algorithm)
            throws IOException {
        hit(Call.NATIVE_CHECKSUM);
        return super.nativeChecksum(file, algorithm);
    }

    /** How many calls of these kinds were made, each named with its count where non-zero ({@code {}} for none). */
    public Map<Call, Long> counts(java.util.Set<Call> kinds) {
        Map<Call, Long> out = new EnumMap<>(Call.class);
        for (Call c : kinds) {
            if (count(c) != 0) {
                out.put(c, count(c));
            }
        }
        return out;
    }

    @Override
    public RemotePath realPath(RemotePath path) throws IOException {
        hit(Call.REAL_PATH);
        return super.realPath(path);
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        hit(Call.READ_SYMBOLIC_LINK);
        return super.readSymbolicLink(link);
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        hit(Call.CREATE_SYMBOLIC_LINK);
        super.createSymbolicLink(link, target);
    }

    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        hit(Call.NATIVE_COPY);
        return super.copyFile(source, sourceStat, target, replaceExisting);
    }
}
