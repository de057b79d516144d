package dev.remotepath.testkit;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Which processes hold files open below a directory, read from Linux's {@code /proc/<pid>/fd}:
 * this JVM (the local backend, an in-process MINA or s3proxy server) and every server program a
 * test started (sshd's session processes, ProFTPD, rclone, Jetty serving a directory). A case
 * that leaves a stream, handle or connection open leaves a file open somewhere, whichever side
 * forgot it. Processes this user may not inspect are passed over; on a system without
 * {@code /proc} nothing is ever reported.
 */
public final class OpenFiles {

    private static final Path PROC = Path.of("/proc");

    private OpenFiles() {
    }

    /** Whether open files can be seen here at all. */
    public static boolean observable() {
        return Files.isDirectory(PROC.resolve("self/fd"));
    }

    /** Each open file below {@code directory}, as {@code pid:fd -> path}. */
    public static List<String> under(Path directory) throws IOException {
        Path root = directory.toRealPath();
        List<String> open = new ArrayList<>();
        if (!observable()) {
            return open;
        }
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, p -> p.getFileName().toString().chars()
                .allMatch(Character::isDigit))) {
            for (Path process : processes) {
                try (DirectoryStream<Path> fds = Files.newDirectoryStream(process.resolve("fd"))) {
                    for (Path fd : fds) {
                        Path target;
                        try {
                            target = Files.readSymbolicLink(fd);
                        } catch (IOException closedMeanwhile) {
                            continue;
                        }
                        if (target.startsWith(root)) {
                            open.add(process.getFileName() + ":" + fd.getFileName() + " -> " + target);
                        }
                    }
                } catch (IOException goneOrNotOurs) {
                    // The process ended, or belongs to someone this user may not inspect.
                }
            }
        }
        return open;
    }

    /**
     * The files still open below {@code directory} after waiting up to {@code patience} for
     * them to close (servers close asynchronously, after the client's CLOSE or FIN).
     */
    public static List<String> remainingUnder(Path directory, Duration patience) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        List<String> open = under(directory);
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            open = under(directory);
        }
        return open;
    }
}
