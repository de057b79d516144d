package dev.remotepath.spi;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.FileSystemCall;
import dev.remotepath.FileSystemCall.Operation;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A file system that reports every primitive call it forwards to {@link FileSystemEvents}:
 * started, then finished or failed, with the amount moved and the time taken. Streams and
 * listings are calls that last until they are closed. The same behaviour as the file system
 * observed (capabilities, errors, streams that report their stat or can be aborted), only
 * watched; closing it leaves that file system open.
 *
 * <pre>{@code
 * RemotePath root = ObservedFileSystem.observe(RemotePaths.get("sftp://host/data/"), events);
 * root.resolve("a.txt").readString(); // started(READ a.txt), finished(READ, 12 bytes, 3 ms)
 * }</pre>
 */
public class ObservedFileSystem extends ForwardingFileSystem {

    private static final System.Logger LOG = System.getLogger(ObservedFileSystem.class.getName());

    private final FileSystemEvents events;

    public ObservedFileSystem(RemoteFileSystem delegate, FileSystemEvents events) {
        super(Objects.requireNonNull(delegate, "delegate"));
        this.events = Objects.requireNonNull(events, "events");
    }

    /** {@code path}'s location on a new file system that reports {@code path}'s file system's calls to {@code events}. */
    public static RemotePath observe(RemotePath path, FileSystemEvents events) {
        return new ObservedFileSystem(path.fileSystem(), events).wrap(path);
    }

    /** The file system observed. */
    public RemoteFileSystem observed() {
        return delegate;
    }

    // ------------------------------------------------------------------ reporting

    /** One call under way: reports its end once. */
    private final class Watch {
        final FileSystemCall call;
        final long start = System.nanoTime();
        private boolean ended;

        Watch(Operation operation, RemotePath path, Optional<RemotePath> target) {
            this.call = new FileSystemCall(operation, path, target);
            try {
                events.started(call);
            } catch (RuntimeException e) {
                listenerFailed(e);
            }
        }

        synchronized void finished(long amount) {
            if (ended) {
                return;
            }
            ended = true;
            try {
                events.finished(call, amount, Duration.ofNanos(System.nanoTime() - start));
            } catch (RuntimeException e) {
                listenerFailed(e);
            }
        }

        synchronized void failed(long amount, IOException error) {
            if (ended) {
                return;
            }
            ended = true;
            try {
                events.failed(call, amount, error, Duration.ofNanos(System.nanoTime() - start));
            } catch (RuntimeException e) {
                listenerFailed(e);
            }
        }

        void failed(long amount, RuntimeException error) {
            failed(amount, new IOException(error.toString(), error));
        }

        /** Closes what the call lasted for, and ends the call: failed by the close, or by an earlier error, else finished. */
        void close(java.io.Closeable resource, long amount, IOException earlier) throws IOException {
            try {
                resource.close();
            } catch (IOException e) {
                failed(amount, e);
                throw e;
            }
            if (earlier != null) {
                failed(amount, earlier);
            } else {
                finished(amount);
            }
        }
    }

    /** Starts a call that lasts beyond this method (a stream, a listing): only a failure to open ends it here. */
    private static <T> T opening(Watch w, Io<T> open) throws IOException {
        try {
            return open.call();
        } catch (IOException e) {
            w.failed(0, e);
            throw e;
        } catch (RuntimeException e) {
            w.failed(0, e);
            throw e;
        }
    }

    private void listenerFailed(RuntimeException e) {
        // A listener's bug must not fail the file operation it watches.
        LOG.log(System.Logger.Level.WARNING, "a FileSystemEvents listener threw; the call it observed went on", e);
    }

    @FunctionalInterface
    private interface Io<T> {
        T call() throws IOException;
    }

    private <T> T watched(Operation op, RemotePath path, Optional<RemotePath> target, long amount, Io<T> io)
            throws IOException {
        Watch w = new Watch(op, path, target);
        T result = opening(w, io);
        w.finished(amount);
        return result;
    }

    private <T> T watched(Operation op, RemotePath path, Io<T> io) throws IOException {
        return watched(op, path, Optional.empty(), 0, io);
    }

    @FunctionalInterface
    private interface IoVoid {
        void call() throws IOException;
    }

    /** A call that returns nothing, reported with {@code amount}. */
    private void watchedVoid(Operation op, RemotePath path, Optional<RemotePath> target, long amount, IoVoid io)
            throws IOException {
        watched(op, path, target, amount, () -> {
            io.call();
            return null;
        });
    }

    // ------------------------------------------------------------------ primitives

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        return watched(Operation.STAT, path, () -> super.stat(path, followLinks));
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        return listing(Operation.LIST, directory, () -> super.list(directory, detail));
    }

    @Override
    public DirectoryListing listTree(RemotePath directory, ListDetail detail) throws IOException {
        return listing(Operation.LIST_TREE, directory, () -> super.listTree(directory, detail));
    }

    @Override
    public DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
            throws IOException {
        // The delegate's own listing is the handle it knows (a directory descriptor, say).
        DirectoryListing own = parent instanceof WatchedListing w ? w.listing : parent;
        return listing(Operation.LIST, directory, () -> delegate.listChild(own, down(directory), detail));
    }

    private DirectoryListing listing(Operation op, RemotePath directory, Io<DirectoryListing> open) throws IOException {
        Watch w = new Watch(op, directory, Optional.empty());
        return new WatchedListing(opening(w, open), w);
    }

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        Watch w = new Watch(Operation.READ, file, Optional.empty());
        return new WatchedInput(opening(w, () -> super.openRead(file, offset)), w);
    }

    @Override
    public InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        Watch w = new Watch(Operation.READ, file, Optional.empty());
        return new WatchedInput(opening(w, () -> super.openRead(file, offset, length)), w);
    }

    /** One READ watched, the backend's bounded read kept (ForwardingFileSystem leaves it to openRead). */
    @Override
    public InputStream openReadAll(RemotePath file, FileStat listed) throws IOException {
        Watch w = new Watch(Operation.READ, file, Optional.empty());
        return new WatchedInput(opening(w, () -> delegate.openReadAll(down(file), listed)), w);
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return writing(file, () -> super.openWrite(file, mode));
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
        return writing(file, () -> super.openWrite(file, mode, lastModified));
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, WriteAttributes attributes) throws IOException {
        return writing(file, () -> super.openWrite(file, mode, attributes));
    }

    private OutputStream writing(RemotePath file, Io<OutputStream> open) throws IOException {
        Watch w = new Watch(Operation.WRITE, file, Optional.empty());
        OutputStream out = opening(w, open);
        // An abortable stream stays one: the api aborts it, rather than closing, when a copy fails.
        return out instanceof AbortableOutputStream a ? new WatchedAbortable(a, w) : new WatchedOutput(out, w);
    }

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        watchedVoid(Operation.CREATE_DIRECTORY, directory, Optional.empty(), 0,
                () -> super.createDirectory(directory));
    }

    @Override
    public void createDirectory(RemotePath directory, Set<java.nio.file.attribute.PosixFilePermission> permissions)
            throws IOException {
        watchedVoid(Operation.CREATE_DIRECTORY, directory, Optional.empty(), 0,
                () -> super.createDirectory(directory, permissions));
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        watchedVoid(Operation.DELETE_FILE, file, Optional.empty(), 0, () -> super.deleteFile(file));
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        watchedVoid(Operation.DELETE_DIRECTORY, directory, Optional.empty(), 0,
                () -> super.deleteDirectory(directory));
    }

    @Override
    public void deleteFiles(Collection<RemotePath> files) throws IOException {
        if (files.isEmpty()) {
            super.deleteFiles(files);
            return;
        }
        RemotePath first = files.iterator().next();
        watchedVoid(Operation.DELETE_FILES, first.parent(), Optional.empty(), files.size(),
                () -> super.deleteFiles(files));
    }

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        watchedVoid(Operation.RENAME, source, Optional.of(target), 0,
                () -> super.rename(source, target, replaceExisting));
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        watchedVoid(Operation.SET_LAST_MODIFIED_TIME, path, Optional.empty(), 0,
                () -> super.setLastModifiedTime(path, time));
    }

    @Override
    public void setPermissions(RemotePath path, Set<PosixFilePermission> permissions) throws IOException {
        watchedVoid(Operation.SET_PERMISSIONS, path, Optional.empty(), 0,
                () -> super.setPermissions(path, permissions));
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        watchedVoid(Operation.CREATE_SYMBOLIC_LINK, link, Optional.empty(), 0,
                () -> super.createSymbolicLink(link, target));
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        return watched(Operation.READ_SYMBOLIC_LINK, link, () -> super.readSymbolicLink(link));
    }

    @Override
    public RemotePath realPath(RemotePath path) throws IOException {
        return watched(Operation.REAL_PATH, path, () -> super.realPath(path));
    }

    @Override
    public Optional<StoreSpace> storeSpace(RemotePath path) throws IOException {
        return watched(Operation.STORE_SPACE, path, () -> super.storeSpace(path));
    }

    @Override
    public Optional<Checksum> nativeChecksum(RemotePath file, ChecksumAlgorithm algorithm) throws IOException {
        return watched(Operation.NATIVE_CHECKSUM, file, () -> super.nativeChecksum(file, algorithm));
    }

    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        long size = sourceStat.size().orElse(0);
        Watch w = new Watch(Operation.COPY_FILE, source, Optional.of(target));
        boolean copied = opening(w, () -> super.copyFile(source, sourceStat, target, replaceExisting));
        w.finished(copied ? size : 0); // false: the server would not, and nothing was copied
        return copied;
    }

    // ------------------------------------------------------------------ calls that last

    /** A listing reported when closed, with the entries it handed over. */
    private static final class WatchedListing implements DirectoryListing {
        final DirectoryListing listing;
        private final Watch watch;
        private long entries;
        private IOException error;

        WatchedListing(DirectoryListing listing, Watch watch) {
            this.listing = listing;
            this.watch = watch;
        }

        @Override
        public boolean hasNext() throws IOException {
            try {
                return listing.hasNext();
            } catch (IOException e) {
                error = e;
                throw e;
            }
        }

        @Override
        public ListedEntry next() throws IOException {
            try {
                ListedEntry e = listing.next();
                entries++;
                return e;
            } catch (IOException e) {
                error = e;
                throw e;
            }
        }

        @Override
        public int size() {
            return listing.size();
        }

        @Override
        public void close() throws IOException {
            watch.close(listing, entries, error);
        }
    }

    /** A read reported when closed, with the bytes read; the stat its response carried passes through. */
    private static final class WatchedInput extends InputStream implements StatReportingStream {
        private final InputStream in;
        private final Watch watch;
        private long bytes;
        private IOException error;

        WatchedInput(InputStream in, Watch watch) {
            this.in = in;
            this.watch = watch;
        }

        @Override
        public Optional<FileStat> reportedStat() {
            return StatReportingStream.of(in);
        }

        @Override
        public int read() throws IOException {
            try {
                int c = in.read();
                if (c >= 0) {
                    bytes++;
                }
                return c;
            } catch (IOException e) {
                error = e;
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                int n = in.read(b, off, len);
                if (n > 0) {
                    bytes += n;
                }
                return n;
            } catch (IOException e) {
                error = e;
                throw e;
            }
        }

        @Override
        public long skip(long n) throws IOException {
            return in.skip(n);
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            watch.close(in, bytes, error);
        }
    }

    /** A write reported when closed (published), with the bytes written. */
    private static final class WatchedOutput extends OutputStream {
        private final OutputStream out;
        private final Watch watch;
        private long bytes;
        private IOException error;

        WatchedOutput(OutputStream out, Watch watch) {
            this.out = out;
            this.watch = watch;
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
                bytes++;
            } catch (IOException e) {
                error = e;
                throw e;
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
                bytes += len;
            } catch (IOException e) {
                error = e;
                throw e;
            }
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            watch.close(out, bytes, error);
        }
    }

    /** As {@link WatchedOutput}, for a stream that can be abandoned: an abort is the write's failure. */
    private static final class WatchedAbortable extends AbortableOutputStream {
        private final AbortableOutputStream out;
        private final WatchedOutput counted;
        private final Watch watch;

        WatchedAbortable(AbortableOutputStream out, Watch watch) {
            this.out = out;
            this.counted = new WatchedOutput(out, watch);
            this.watch = watch;
        }

        @Override
        public void write(int b) throws IOException {
            counted.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            counted.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            counted.flush();
        }

        @Override
        public void close() throws IOException {
            counted.close();
        }

        @Override
        public void abort() throws IOException {
            try {
                out.abort();
            } finally {
                watch.failed(counted.bytes, new IOException("write of " + watch.call.path() + " aborted: nothing published"));
            }
        }
    }
}
