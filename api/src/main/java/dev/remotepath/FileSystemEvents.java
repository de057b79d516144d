package dev.remotepath;

import java.io.IOException;
import java.time.Duration;

/**
 * Observes the primitive calls made of a file system, as OkHttp's {@code EventListener} does
 * HTTP calls: each call is {@link #started} and then either {@link #finished} or
 * {@link #failed}, exactly once, with the same {@link FileSystemCall} instance, the amount it
 * moved (bytes of a read or write, entries of a listing, files of a batch delete) and how long
 * it took. Counting, metrics and the CLI's {@code --verbose} request lines are all listeners.
 *
 * <p>Attach one with {@link dev.remotepath.spi.ObservedFileSystem#observe}: the path returned
 * lives on a file system that reports every call it forwards. Methods run on the thread making
 * the call, so they must be quick and thread-safe; one that throws is logged and ignored, never
 * failing the call it observes. Every method does nothing by default.
 */
public interface FileSystemEvents {

    /** Observes nothing. */
    FileSystemEvents NONE = new FileSystemEvents() {
    };

    /** The call is about to be made. */
    default void started(FileSystemCall call) {
    }

    /**
     * The call succeeded.
     *
     * @param amount bytes read or written, entries listed, files in a batch delete; 0 for the rest
     */
    default void finished(FileSystemCall call, long amount, Duration took) {
    }

    /**
     * The call failed with {@code error} (a stream: its read, write or close did), after moving
     * {@code amount}.
     */
    default void failed(FileSystemCall call, long amount, IOException error, Duration took) {
    }
}
