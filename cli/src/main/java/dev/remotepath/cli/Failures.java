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
                || e instanceof IllegalArgumentException || e instanceof UsageException) {
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
            sb.append(f.getFile() == null ? "?" : Paths.asTyped(f.getFile()));
            if (f.getOtherFile() != null) {
                sb.append(" -> ").append(f.getOtherFile().equals(f.getFile()) ? Paths.asTypedSecond(f.getOtherFile())
                        : Paths.asTyped(f.getOtherFile()));
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

    /**
     * A stable, machine-readable name for what went wrong: scripts decide on it, never on the
     * English message.
     */
    static String kind(Throwable e) {
        return kind(e.getClass());
    }

    /** {@link #kind(Throwable)} of an exception type (a sync error keeps only the type). */
    static String kind(Class<? extends Throwable> type) {
        if (type.getName().equals("dev.remotepath.sftp.HostKeyException")) {
            return "host_key"; // by name: naming the class would load the backends' jar on every failure
        }
        java.util.List<java.util.Map.Entry<Class<?>, String>> kinds = java.util.List.of(
                java.util.Map.entry(SyncRefusedException.class, "refused"),
                java.util.Map.entry(NoSuchFileException.class, "no_such_file"),
                java.util.Map.entry(FileAlreadyExistsException.class, "already_exists"),
                java.util.Map.entry(DirectoryNotEmptyException.class, "directory_not_empty"),
                java.util.Map.entry(NotDirectoryException.class, "not_a_directory"),
                java.util.Map.entry(AccessDeniedException.class, "access_denied"),
                java.util.Map.entry(FileSystemLoopException.class, "link_loop"),
                java.util.Map.entry(InvalidPathException.class, "invalid_path"),
                java.util.Map.entry(ProviderNotFoundException.class, "unknown_scheme"),
                java.util.Map.entry(UsageException.class, "usage"),
                java.util.Map.entry(IllegalArgumentException.class, "usage"),
                java.util.Map.entry(java.net.SocketTimeoutException.class, "timeout"),
                java.util.Map.entry(java.net.ConnectException.class, "connection_refused"),
                java.util.Map.entry(FileSystemException.class, "file_system"),
                java.util.Map.entry(java.io.IOException.class, "io"));
        for (java.util.Map.Entry<Class<?>, String> k : kinds) {
            if (k.getKey().isAssignableFrom(type)) {
                return k.getValue();
            }
        }
        return "internal";
    }

    /** The JSON object {@code --json} prints on stderr for one error of a sync, as it happens. */
    static Json.Obj json(dev.remotepath.syncer.SyncError e) {
        return Json.obj().put("error", Hints.forCli(e.toString())).put("path", e.relativePath()).put("other", null)
                .put("kind", e.exceptionType().map(Failures::kind).orElse("sync")).put("command", "sync")
                .put("operation", e.operation());
    }

    /**
     * The JSON object {@code --json} prints on stderr for an error: {@code error} (the message),
     * {@code path} and {@code other} (when the error names them, as the user typed them where
     * known), {@code kind} ({@link #kind}), {@code command} and {@code exit}.
     */
    static Json.Obj json(String command, Throwable e) {
        String path = null;
        String other = null;
        if (e instanceof FileSystemException f) {
            path = Paths.asTyped(f.getFile());
            other = f.getOtherFile() != null && f.getOtherFile().equals(f.getFile())
                    ? Paths.asTypedSecond(f.getOtherFile()) : Paths.asTyped(f.getOtherFile());
        } else if (e instanceof InvalidPathException i) {
            path = i.getInput();
        }
        return Json.obj().put("error", describe(e)).put("path", path).put("other", other).put("kind", kind(e))
                .put("command", command).put("exit", exitCode(e));
    }

    /** Reports {@code e} as one line: text, or with {@code json} a JSON object. */
    static int report(String command, Throwable e, boolean verbose, boolean json, PrintWriter err) {
        if (json) {
            err.println(json(command, e));
            err.flush();
            return exitCode(e);
        }
        return report(command, e, verbose, err);
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
