package dev.remotepath.cli;

import dev.remotepath.syncer.SyncRefusedException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.ProviderNotFoundException;

/** Turns an exception into the one clear line the CLI prints, and its exit code. */
final class Failures {

    static final int OK = 0;
    static final int SOME_FAILED = 1;
    static final int USAGE = 2;
    static final int REFUSED = 3;

    private Failures() {
    }

    static int exitCode(Throwable e) {
        if (e instanceof SyncRefusedException) {
            return REFUSED;
        }
        if (e instanceof InvalidPathException || e instanceof ProviderNotFoundException
                || e instanceof IllegalArgumentException) {
            return USAGE;
        }
        return SOME_FAILED;
    }

    /** "PATH: cause" for file system errors, the message otherwise; hints name the CLI's flags. */
    static String describe(Throwable e) {
        return Hints.forCli(describeAsThrown(e));
    }

    private static String describeAsThrown(Throwable e) {
        if (e instanceof FileSystemException f) {
            String what = switch (f) {
                case NoSuchFileException x -> "no such file or directory";
                case FileAlreadyExistsException x -> "already exists";
                case DirectoryNotEmptyException x -> "directory not empty";
                case NotDirectoryException x -> "not a directory";
                case AccessDeniedException x -> "permission denied";
                case FileSystemLoopException x -> "too many levels of symbolic links";
                default -> null;
            };
            String reason = f.getReason();
            StringBuilder sb = new StringBuilder();
            sb.append(f.getFile() == null ? "?" : f.getFile());
            if (f.getOtherFile() != null) {
                sb.append(" -> ").append(f.getOtherFile());
            }
            sb.append(": ").append(what != null ? what : reason != null ? reason : f.getClass().getSimpleName());
            if (what != null && reason != null && !reason.isBlank()) {
                sb.append(" (").append(reason).append(')');
            }
            return sb.toString();
        }
        if (e instanceof InvalidPathException i) {
            return "invalid path or URI '" + i.getInput() + "': " + i.getReason();
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    static int report(String command, Throwable e, boolean verbose, PrintWriter err) {
        err.println("rpath " + command + ": " + Text.escape(describe(e)));
        if (verbose) {
            e.printStackTrace(err);
        }
        err.flush();
        return exitCode(e);
    }
}
