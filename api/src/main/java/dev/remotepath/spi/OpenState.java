package dev.remotepath.spi;

import java.nio.file.ClosedFileSystemException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether a file system is open, for backends: {@link #close()} is true for exactly one caller,
 * however many threads close at once, so a file system's shutdown runs once; every operation
 * after it fails with {@link ClosedFileSystemException}, as {@code java.nio.file} promises.
 */
public final class OpenState {

    private final AtomicBoolean closed = new AtomicBoolean();

    public boolean isOpen() {
        return !closed.get();
    }

    /** Marks the file system closed; true only for the first call, which does the closing. */
    public boolean close() {
        return closed.compareAndSet(false, true);
    }

    /** Throws {@link ClosedFileSystemException} once closed. */
    public void requireOpen() {
        if (closed.get()) {
            throw new ClosedFileSystemException();
        }
    }
}
