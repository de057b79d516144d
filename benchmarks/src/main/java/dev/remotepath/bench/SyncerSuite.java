package dev.remotepath.bench;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.CountingFileSystem;
import dev.remotepath.testkit.LocalTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

/**
 * PathSyncer against rclone on 10,000 small files in 100 directories: first sync and no-op
 * resync, local to local and local to mem, with the request counts of the no-op.
 */
final class SyncerSuite implements Suite {

    private Path source;
    private Path work;
    private final List<String> notes = new ArrayList<>();
    private boolean rclone;

    @Override
    public String name() {
        return "syncer";
    }

    @Override
    public String description() {
        return "10k small files in 100 dirs: PathSyncer vs rclone sync, first sync and no-op resync";
    }

    @Override
    public void prepare(Path fixtures) throws Exception {
        source = smallFiles(fixtures.resolve("src-10k"), 100, 100);
        work = Files.createDirectories(fixtures.resolve("work"));
        try (var old = Files.list(work)) {
            for (Path p : old.toList()) {
                LocalTrees.delete(p);
            }
        }
        Files.writeString(work.resolve("rclone.conf"), "");
        rclone = Fixtures.succeeds("rclone", "version");
        notes.add(rclone ? "rclone: " + Fixtures.firstLineOf("rclone", "version") : "rclone not installed: its cases are left out (apt-get install rclone)");
        // The no-op's request counts, once, through counting file systems.
        Path counted = work.resolve("counted");
        LocalTrees.delete(counted);
        PathSyncer.builder(RemotePaths.of(source), RemotePaths.of(counted)).build().run();
        RemotePath s = CountingFileSystem.counting(RemotePaths.of(source));
        RemotePath d = CountingFileSystem.counting(RemotePaths.of(counted));
        SyncReport r = PathSyncer.builder(s, d).build().run();
        CountingFileSystem cs = CountingFileSystem.of(s);
        CountingFileSystem cd = CountingFileSystem.of(d);
        notes.add(String.format("no-op local->local: files skipped %d, copied %d, content bytes read %d; source lists %d, "
                + "stats %d, reads %d; target lists %d, stats %d, reads %d", r.filesSkipped(), r.filesCopied(),
                r.contentBytesRead(), cs.count(CountingFileSystem.Call.LIST), cs.count(CountingFileSystem.Call.STAT),
                cs.count(CountingFileSystem.Call.OPEN_READ), cd.count(CountingFileSystem.Call.LIST),
                cd.count(CountingFileSystem.Call.STAT), cd.count(CountingFileSystem.Call.OPEN_READ)));
        if (r.contentBytesRead() != 0 || r.filesCopied() != 0 || cs.count(CountingFileSystem.Call.STAT) != 0) {
            throw new IllegalStateException("the no-op resync did work it should not: " + notes.getLast());
        }
        LocalTrees.delete(counted);
    }

    /**
     * Deletes the first syncs' trees (~60 of 10k files each): left for the next run's prepare,
     * their deletion took it ~40 s, and the discards it set off slowed that run's first group.
     */
    @Override
    public void cleanup() throws IOException {
        try (var old = Files.list(work)) {
            for (Path p : old.filter(p -> p.getFileName().toString().startsWith("first-")).toList()) {
                LocalTrees.delete(p);
            }
        }
    }

    /** {@code dirs} directories of {@code files} files of 1 B to 8 KiB, fixed mtimes. */
    static Path smallFiles(Path dir, int dirs, int files) throws IOException {
        Path done = dir.resolveSibling(dir.getFileName() + ".complete");
        if (Files.exists(done)) {
            return dir;
        }
        LocalTrees.delete(dir);
        Random random = new Random(42);
        for (int d = 0; d < dirs; d++) {
            Path sub = Files.createDirectories(dir.resolve(String.format("dir%03d", d)));
            for (int f = 0; f < files; f++) {
                byte[] content = new byte[1 + random.nextInt(8192)];
                random.nextBytes(content);
                Path p = sub.resolve(String.format("file%03d.bin", f));
                Files.write(p, content);
                Files.setLastModifiedTime(p, java.nio.file.attribute.FileTime.from(
                        Instant.parse("2024-01-01T00:00:00Z").plusSeconds(d * 1000L + f)));
            }
        }
        Files.writeString(done, "ok");
        return dir;
    }

    @Override
    public List<String> notes() {
        return notes;
    }

    @Override
    public List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // Each first sync writes into a directory never used before: deleting 10k files just
        // ahead of a timed run slows the next writes on this ext4 (online discard), for both tools.
        // Each starts on a clean page cache (sync(1), untimed): otherwise it runs while the kernel
        // writes back the 10k files the other tool's sample left dirty, and pays for them. And each
        // starts with the source's pages in the same state: rclone drops every file it read from
        // the page cache (fadvise DONTNEED), so without this the sample after rclone's read its
        // whole source from disk and rclone's own never did. Warm: the source read once, untimed;
        // cold (when this process may write /proc/sys/vm/drop_caches): every cache dropped.
        Path[] first = {null};
        Op warmFirst = () -> freshFirstTarget(first, () -> readAll(source));
        Op coldFirst = () -> freshFirstTarget(first, () -> Files.writeString(DROP_CACHES, "3"));
        if (rclone) {
            cases.add(new Case("first-sync-local-local", "rclone-sync", true, warmFirst,
                    () -> rcloneSync(source, first[0])));
        }
        cases.add(new Case("first-sync-local-local", "pathsyncer", !rclone, warmFirst,
                () -> sync(RemotePaths.of(first[0])).filesCopied()));
        if (rclone && Files.isWritable(DROP_CACHES)) {
            cases.add(new Case("first-sync-local-local-cold", "rclone-sync", true, coldFirst,
                    () -> rcloneSync(source, first[0])));
            cases.add(new Case("first-sync-local-local-cold", "pathsyncer", false, coldFirst,
                    () -> sync(RemotePaths.of(first[0])).filesCopied()));
        }
        Path noop = work.resolve("noop");
        Op fillNoop = () -> {
            if (!Files.exists(noop)) {
                PathSyncer.builder(RemotePaths.of(source), RemotePaths.of(noop)).build().run();
            }
            return 0;
        };
        if (rclone) {
            cases.add(new Case("noop-resync-local-local", "rclone-sync", true, fillNoop, () -> rcloneSync(source, noop)));
        }
        cases.add(new Case("noop-resync-local-local", "pathsyncer", !rclone, fillNoop,
                () -> sync(RemotePaths.of(noop)).filesSkipped()));
        if (cliLauncher().isPresent()) {
            String launcher = cliLauncher().get().toString();
            cases.add(new Case("noop-resync-local-local", "rpath-cli-process", false, fillNoop, () -> {
                Fixtures.exec(launcher, "sync", source.toString(), noop.toString());
                return 1;
            }));
        } else {
            notes.add("bin/rpath or cli/target/rpath.jar missing (run from the repository root after "
                    + "./mvnw package): the CLI case is left out");
        }
        RemotePath[] mem = new RemotePath[1];
        cases.add(new Case("first-sync-local-mem", "pathsyncer", true, () -> {
            if (mem[0] != null) {
                mem[0].fileSystem().close();
            }
            mem[0] = RemotePaths.get("mem://bench-" + System.nanoTime() + "/dst");
            return 0;
        }, () -> sync(mem[0]).filesCopied()));
        RemotePath memNoop = memTarget();
        cases.add(new Case("noop-resync-local-mem", "pathsyncer", true, () -> sync(memNoop).filesSkipped()));
        return cases;
    }

    @FunctionalInterface
    private interface CacheState {
        void set() throws IOException;
    }

    /** Untimed, ahead of a first sync: dirty pages written back, the page cache set, a new target. */
    private long freshFirstTarget(Path[] first, CacheState cache) throws Exception {
        Fixtures.exec("sync");
        cache.set();
        first[0] = work.resolve("first-" + System.nanoTime());
        return 0;
    }

    /** bin/rpath, when the CLI has been built (./mvnw package). */
    private static Optional<Path> cliLauncher() {
        Path launcher = Path.of("bin", "rpath").toAbsolutePath();
        return Files.isExecutable(launcher) && Files.exists(Path.of("cli", "target", "rpath.jar"))
                ? Optional.of(launcher) : Optional.empty();
    }

    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    /** Reads every file under {@code dir}, so its pages are in the page cache. */
    private static void readAll(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                Files.readAllBytes(p);
            }
        }
    }

    private RemotePath memTarget() {
        try {
            return RemotePaths.get("mem://bench-noop/dst");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public List<Target> targets() {
        if (!rclone) {
            return List.of();
        }
        List<Target> targets = new ArrayList<>(List.of(
                Target.speedup("noop-resync-local-local", "pathsyncer", "rclone-sync", 5.0),
                Target.speedup("first-sync-local-local", "pathsyncer", "rclone-sync", 1.5)));
        if (cliLauncher().isPresent()) {
            // The whole CLI process, JVM start included, no slower than rclone's.
            targets.add(Target.speedup("noop-resync-local-local", "rpath-cli-process", "rclone-sync", 1.0));
        }
        return targets;
    }

    private SyncReport sync(RemotePath target) throws IOException {
        SyncReport r = PathSyncer.builder(RemotePaths.of(source), target).build().run();
        if (!r.succeeded()) {
            throw new IOException("sync failed: " + r.errors());
        }
        return r;
    }

    private long rcloneSync(Path from, Path to) throws Exception {
        Fixtures.exec("env", "RCLONE_CONFIG=" + work.resolve("rclone.conf"), "rclone", "sync", from.toString(),
                to.toString());
        return 1;
    }
}
