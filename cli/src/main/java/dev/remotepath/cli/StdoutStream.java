package dev.remotepath.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * The command's standard output, telling apart the two ways a write to it fails. Where it is a
 * pipe or a socket, a failed write means its reader has gone ({@code rpath ls -R | head}): that
 * is {@link ReaderGone}, which ends the command quietly with exit code 141, as a program killed
 * by SIGPIPE ends. Any other failure (a full disk under {@code > listing.txt}) is {@link Failed},
 * an error the command reports. A pipe cannot be full the way a disk is, so the destination's
 * type is all that is read, never the exception's message. Both are unchecked so that they pass
 * through {@link java.io.PrintWriter}, which swallows {@code IOException}s and would let the
 * command run on, printing nothing and reporting success. After one failure every later write
 * fails the same way.
 */
final class StdoutStream extends FilterOutputStream {

    /** The exit code after the reader went away: 128 + SIGPIPE, what a shell shows for {@code ls} there. */
    static final int READER_GONE_EXIT = 141;

    private final BooleanSupplier destinationIsPipe;
    private RuntimeException failure;

    StdoutStream(OutputStream out, BooleanSupplier destinationIsPipe) {
        super(out);
        this.destinationIsPipe = destinationIsPipe;
    }

    /** The process's own standard output. */
    static StdoutStream ofProcess(OutputStream fd1) {
        return new StdoutStream(fd1, StdoutStream::fd1IsPipeOrSocket);
    }

    @Override
    public void write(int b) {
        check();
        try {
            out.write(b);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        check();
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void flush() {
        check();
        try {
            out.flush();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private void check() {
        if (failure != null) {
            throw failure;
        }
    }

    private RuntimeException failed(IOException e) {
        failure = destinationIsPipe.getAsBoolean() ? new ReaderGone(e)
                : new Failed(new IOException("standard output: " + e.getMessage(), e));
        return failure;
    }

    /** Whether file descriptor 1 is a pipe or a socket (Unix; false where that cannot be read). */
    private static boolean fd1IsPipeOrSocket() {
        try {
            int type = (Integer) Files.getAttribute(Path.of("/dev/stdout"), "unix:mode") & 0170000;
            return type == 0010000 || type == 0140000; // S_IFIFO, S_IFSOCK
        } catch (IOException | RuntimeException notReadable) {
            return false;
        }
    }

    /** Standard output's reader has gone: the command stops, says nothing, and exits 141. */
    static final class ReaderGone extends RuntimeException {
        ReaderGone(IOException cause) {
            super("standard output's reader has gone", cause, false, false);
        }
    }

    /** Standard output could not be written (its cause says why, e.g. a full disk): reported as an error. */
    static final class Failed extends UncheckedIOException {
        Failed(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
