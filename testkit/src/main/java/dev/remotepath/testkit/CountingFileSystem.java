package dev.remotepath.testkit;

import dev.remotepath.FileSystemCall;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ObservedFileSystem;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the primitive calls made through it, and the content bytes read, so tests can prove
 * metadata reuse: "walking D directories makes D list calls and no stat". Thread-safe. One
 * {@link FileSystemEvents} listener among others, on an {@link ObservedFileSystem}: a call is
 * counted when it starts, the bytes of a read when its stream is closed.
 */
public class CountingFileSystem extends ObservedFileSystem {

    /** The primitives counted. */
    public enum Call {
        STAT, LIST, OPEN_READ, OPEN_WRITE, CREATE_DIRECTORY, DELETE_FILE, DELETE_DIRECTORY, DELETE_FILES,
        RENAME, SET_LAST_MODIFIED_TIME, SET_PERMISSIONS, READ_SYMBOLIC_LINK, CREATE_SYMBOLIC_LINK, NATIVE_COPY,
        NATIVE_CHECKSUM, REAL_PATH, LIST_TREE, STORE_SPACE;

        /** The calls that change something: none may happen on either side of a no-op sync. */
        public static final java.util.Set<Call> WRITES = java.util.Collections.unmodifiableSet(java.util.EnumSet.of(
                OPEN_WRITE, CREATE_DIRECTORY, DELETE_FILE, DELETE_DIRECTORY, DELETE_FILES, RENAME,
                SET_LAST_MODIFIED_TIME, SET_PERMISSIONS, CREATE_SYMBOLIC_LINK, NATIVE_COPY));

        static Call of(FileSystemCall.Operation op) {
            return switch (op) {
                case READ -> OPEN_READ;
                case WRITE -> OPEN_WRITE;
                case COPY_FILE -> NATIVE_COPY;
                default -> valueOf(op.name());
            };
        }
    }

    /** The counts, kept by a listener of the observed file system's events. */
    private static final class Counter implements FileSystemEvents {
        final Map<Call, AtomicLong> counts = new EnumMap<>(Call.class);
        final AtomicLong bytesRead = new AtomicLong();
        final AtomicLong filesInBatches = new AtomicLong();

        Counter() {
            for (Call c : Call.values()) {
                counts.put(c, new AtomicLong());
            }
        }

        @Override
        public void started(FileSystemCall call) {
            counts.get(Call.of(call.operation())).incrementAndGet();
        }

        @Override
        public void finished(FileSystemCall call, long amount, Duration took) {
            ended(call, amount);
        }

        @Override
        public void failed(FileSystemCall call, long amount, IOException error, Duration took) {
            ended(call, amount);
        }

        private void ended(FileSystemCall call, long amount) {
            switch (call.operation()) {
                case READ -> bytesRead.addAndGet(amount);
                case DELETE_FILES -> filesInBatches.addAndGet(amount);
                default -> {
                }
            }
        }
    }

    private final Counter counter;

    public CountingFileSystem(RemoteFileSystem delegate) {
        this(delegate, new Counter());
    }

    private CountingFileSystem(RemoteFileSystem delegate, Counter counter) {
        super(delegate, counter);
        this.counter = counter;
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
        return counter.counts.get(call).get();
    }

    /** Content bytes read through {@code openRead} streams, counted as each is closed. */
    public long bytesRead() {
        return counter.bytesRead.get();
    }

    /** Files handed to {@code deleteFiles}, over all its calls. */
    public long filesInBatches() {
        return counter.filesInBatches.get();
    }

    /** Files deleted one by one and in batches together. */
    public long filesDeleted() {
        return count(Call.DELETE_FILE) + filesInBatches();
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

    /** Every counter back to zero. */
    public void reset() {
        counter.counts.values().forEach(c -> c.set(0));
        counter.bytesRead.set(0);
        counter.filesInBatches.set(0);
    }

    @Override
    public String toString() {
        return "CountingFileSystem" + counter.counts + " bytesRead=" + counter.bytesRead;
    }
}
