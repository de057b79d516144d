package dev.remotepath.cli;

import dev.remotepath.FileSystemCall;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ObservedFileSystem;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code --verbose}'s request lines: one line on stderr per primitive call a remote backend
 * finished or failed, from the file system's events ({@link FileSystemEvents}), e.g.
 * {@code rpath: sftp list /data 12 entries 3.1 ms}. Each file system is observed through one
 * {@link ObservedFileSystem}, so every path of it stays on one file system (server-side copies
 * and the per-backend limits see one).
 */
final class RequestLines implements FileSystemEvents {

    private final PrintWriter err;
    private final Map<RemoteFileSystem, ObservedFileSystem> observed = new ConcurrentHashMap<>();

    RequestLines(PrintWriter err) {
        this.err = err;
    }

    /** {@code p} on its file system's observer. */
    RemotePath observe(RemotePath p) {
        return observed.computeIfAbsent(p.fileSystem(), fs -> new ObservedFileSystem(fs, this)).wrap(p);
    }

    @Override
    public void finished(FileSystemCall call, long amount, Duration took) {
        line(call, amount(call, amount), took);
    }

    @Override
    public void failed(FileSystemCall call, long amount, IOException error, Duration took) {
        line(call, "failed: " + Failures.describe(error), took);
    }

    private static String amount(FileSystemCall call, long amount) {
        return switch (call.operation()) {
            case READ, WRITE, COPY_FILE -> amount + (amount == 1 ? " byte" : " bytes");
            case LIST, LIST_TREE -> amount + (amount == 1 ? " entry" : " entries");
            case DELETE_FILES -> amount + (amount == 1 ? " file" : " files");
            default -> "ok";
        };
    }

    private void line(FileSystemCall call, String outcome, Duration took) {
        String scheme = call.path().fileSystem().uriPrefix().replaceAll(":.*", "");
        String to = call.target().map(t -> " -> " + t.pathString()).orElse("");
        String ms = String.format(java.util.Locale.ROOT, "%.1f ms", took.toNanos() / 1e6);
        synchronized (err) {
            err.println("rpath: " + scheme + " " + call.operation().label() + " " + call.path().pathString() + to + " "
                    + outcome + " " + ms);
            err.flush();
        }
    }
}
