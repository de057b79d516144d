package dev.remotepath.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The workload the build records the JDK AOT cache from ({@code -XX:AOTCacheOutput}): the
 * commands people run most, on a tree large enough to exercise listing, comparing and copying,
 * locally and over SFTP, S3, Azure and WebDAV ({@link AotSftpTraining}, {@link AotS3Training},
 * {@link AotAzureTraining}, {@link AotWebDavTraining}).
 * Not a subcommand; run as {@code java -cp rpath.jar dev.remotepath.cli.AotTraining DIR [JDK-FILE [MODE]]}:
 * with {@code JDK-FILE}, it also records there the home of the JDK it ran on, the only JDK the
 * cache is valid for, so that {@code bin/rpath} starts that one without searching. With
 * {@code --remote} it trains the SFTP, S3, Azure and WebDAV commands as well, for the cache
 * {@code bin/rpath} gives commands that name remote URIs of several kinds: the 2,000 further
 * classes it preloads cost a local command ~0.1 s, so local commands keep the smaller cache.
 * With {@code --listing} it trains only the local commands that read (ls, stat), for the
 * smallest cache: a fresh JVM maps every class of its cache, and the copy and sync classes cost
 * a 1,000-entry {@code ls -l} ~10 ms. With {@code --sftp}, {@code --s3}, {@code --azure},
 * {@code --webdav} or {@code --ftp}, the local commands and those of that one backend
 * ({@link AotSftpTraining}, {@link AotS3Training}, {@link AotAzureTraining},
 * {@link AotWebDavTraining}, {@link AotFtpTraining}), for commands whose
 * remote URIs are all of that kind: the JVM maps every class of its cache at start, and the
 * remote cache's 13,000 cost an SFTP no-op sync of T1 ~0.08 s more than the SFTP cache's 5,000.
 */
public final class AotTraining {

    private AotTraining() {
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(args[0]);
        Path src = work.resolve("src");
        Path dst = work.resolve("dst");
        delete(work);
        for (int d = 0; d < 20; d++) {
            Path dir = Files.createDirectories(src.resolve("dir" + d));
            for (int f = 0; f < 100; f++) {
                Path file = dir.resolve("file" + f + ".txt");
                Files.writeString(file, "training content " + d + "/" + f);
                Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2024-01-01T00:00:00Z").plusSeconds(f)));
            }
        }
        OutputStream sink = OutputStream.nullOutputStream();
        String s = src.toString();
        String t = dst.toString();
        String mode = args.length > 2 ? args[2] : "";
        if (mode.equals("--listing")) {
            for (String[] command : LISTING) {
                run(sink, command, s);
            }
            finish(work, args);
            return;
        }
        run(sink, "sync", s, t, "--json");
        run(sink, "sync", s, t);
        run(sink, "sync", s, t, "--json", "--delete", "--dry-run");
        run(sink, "ls", "-l", s);
        run(sink, "ls", "--json", "-R", s + "/dir0");
        run(sink, "stat", "--json", s + "/dir0/file0.txt");
        run(sink, "checksum", s + "/dir0/file0.txt");
        run(sink, "cp", "-r", s + "/dir1", t + "/copy");
        run(sink, "rm", "-r", t + "/copy");
        run(sink, "--help");
        if (mode.equals("--webdav")) {
            AotWebDavTraining.run(work, sink, src);
        }
        if (mode.equals("--ftp")) {
            AotFtpTraining.run(work, sink, src);
        }
        if (mode.equals("--sftp")) {
            AotSftpTraining.run(work, sink, src);
        }
        if (mode.equals("--s3")) {
            AotS3Training.run(work, sink, src);
        }
        if (mode.equals("--azure")) {
            AotAzureTraining.run(work, sink, src);
        }
        if (mode.equals("--remote")) {
            AotSftpTraining.run(work, sink, src);
            AotS3Training.run(work, sink, src);
            AotAzureTraining.run(work, sink, src);
            AotWebDavTraining.run(work, sink, src);
        }
        finish(work, args);
    }

    /**
     * The commands of the listing cache, each given the training tree's path after its
     * arguments: the few that cover the rest (names alone, --json) without their extra classes,
     * which cost the commonest, ls -l, ~5 ms a run to map (a 1,000-entry ls -l: 124-129 ms).
     */
    private static final String[][] LISTING = {
        {"ls", "-l"}, {"ls", "-lR"}, {"stat"},
    };

    private static void run(OutputStream sink, String[] command, String path) {
        String[] args = java.util.Arrays.copyOf(command, command.length + 1);
        args[command.length] = path;
        run(sink, args);
    }

    private static void finish(Path work, String[] args) throws IOException {
        delete(work);
        if (args.length > 1) {
            Files.writeString(Path.of(args[1]), System.getProperty("java.home") + "\n");
        }
    }

    /**
     * The commands every remote training runs against {@code base} (a server's root URI, no
     * trailing slash) with {@code local} the training tree: a mkdir, two syncs, listings, a stat,
     * copies up, within and down, a cat and an rm.
     */
    static void remoteCommands(OutputStream sink, String base, Path local, Path work) {
        String file = local.resolve("dir0/file0.txt").toString();
        String scheme = base.substring(0, base.indexOf(':'));
        run(sink, "mkdir", base + "/training");
        run(sink, "sync", local.toString(), base + "/training/tree", "--json");
        run(sink, "sync", local.toString(), base + "/training/tree");
        run(sink, "ls", "-l", base + "/training/tree/");
        run(sink, "ls", "--json", "-R", base + "/training/tree/dir0/");
        run(sink, "stat", "--json", base + "/training/tree/dir0/file0.txt");
        run(sink, "cp", file, base + "/training/one.txt");
        run(sink, "cp", base + "/training/one.txt", base + "/training/two.txt");
        run(sink, "cp", base + "/training/one.txt", work.resolve("one-" + scheme + ".txt").toString());
        run(sink, "cat", base + "/training/one.txt");
        run(sink, "rm", base + "/training/two.txt");
    }

    static void run(OutputStream sink, String... args) {
        // main asks Prewarm what to warm before it executes a command: without this the caches
        // lacked Prewarm's classes, and every command read them from the jar and verified them.
        Prewarm.workFor(args);
        // main's own standard output stream, so the caches hold its class and method reference
        int code = Rpath.execute(args, StdoutStream.ofProcess(sink), sink);
        if (code != 0) {
            throw new IllegalStateException("training command failed (" + code + "): " + String.join(" ", args));
        }
    }

    private static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
