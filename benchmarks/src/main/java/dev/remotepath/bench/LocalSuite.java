package dev.remotepath.bench;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.WalkOptions;
import dev.remotepath.local.LocalFileSystem;
import dev.remotepath.local.linux.LinuxDirectoryLister;
import dev.remotepath.local.linux.LinuxSyscalls;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Local listings and walks: the FFM lister against NIO and {@code find}. */
final class LocalSuite implements Suite {

    private static final int[] SIZES = {1_000, 10_000, 100_000};
    private final List<Path> flats = new ArrayList<>();
    private Path tree;
    private Path jar;
    private java.util.Optional<CLister> c = java.util.Optional.empty();

    @Override
    public String name() {
        return "local";
    }

    @Override
    public String description() {
        return "flat listings (1k/10k/100k) and a 101k-entry tree walk: FFM lister vs NIO vs find";
    }

    @Override
    public void prepare(Path fixtures) throws Exception {
        for (int n : SIZES) {
            flats.add(Fixtures.flat(fixtures, n));
        }
        tree = Fixtures.tree(fixtures, 10, 10, 1000);
        LocalFileSystem.instance().awaitBinding();
        c = CLister.compile(fixtures.resolve("c-lister"));
        jar = Path.of(LocalSuite.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Override
    public List<String> notes() {
        return List.of("lister: " + LocalFileSystem.instance().listerDescription() + ", stat threads: "
                        + LinuxDirectoryLister.DEFAULT_STAT_THREADS,
                "fixtures: flat dirs are 50% dirs, 45% files, 5% symlinks; tree is 10x10 dirs x 1000 files",
                "rp-list-*: the public API (RemotePath.list, sorted, validated DirEntry values); ffm-*: the SPI lister's "
                        + "raw listing; c-*: " + (c.isPresent() ? "dirlist.c (getdents64, statx per entry) in one downcall"
                                : "skipped, no C compiler"));
    }

    @Override
    public List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < SIZES.length; i++) {
            Path dir = flats.get(i);
            String n = SIZES[i] >= 1000 ? SIZES[i] / 1000 + "k" : String.valueOf(SIZES[i]);
            cases.add(new Case("list-types-" + n, "nio-isDirectory", true, () -> nioIsDirectory(dir)));
            cases.add(new Case("list-types-" + n, "ffm-types", false, () -> spiList(dir, ListDetail.TYPES)));
            cases.add(new Case("list-types-" + n, "rp-list-types", false, () -> publicList(dir, ListDetail.TYPES)));
            cases.add(new Case("list-types-" + n, "rp-read-unsorted", false, () -> unsortedList(dir, ListDetail.TYPES)));
            c.ifPresent(lister -> cases.add(new Case("list-types-" + n, "c-types", false, () -> lister.listTypes(dir))));
            cases.add(new Case("list-fullstat-" + n, "nio-readAttributes", true, () -> nioReadAttributes(dir)));
            cases.add(new Case("list-fullstat-" + n, "ffm-fullstat", false, () -> spiList(dir, ListDetail.ALL_STATS)));
            cases.add(new Case("list-fullstat-" + n, "ffm-fullstat-serial", false,
                    () -> serialList(dir, ListDetail.ALL_STATS)));
            cases.add(new Case("list-fullstat-" + n, "ffm-filestats", false, () -> spiList(dir, ListDetail.FILE_STATS)));
            cases.add(new Case("list-fullstat-" + n, "rp-list-fullstat", false, () -> publicList(dir, ListDetail.ALL_STATS)));
            c.ifPresent(lister -> cases.add(new Case("list-fullstat-" + n, "c-fullstat", false, () -> lister.listStats(dir))));
            cases.add(new Case("list-fullstat-" + n, "find-printf", false,
                    () -> find(dir, "-mindepth", "1", "-maxdepth", "1", "-printf", "%y %s %T@ %p\\n")));
        }
        cases.add(new Case("walk-tree", "nio-walkFileTree", true, () -> walkFileTree(tree)));
        cases.add(new Case("walk-tree", "rp-walk-types", false, () -> rpWalk(tree, ListDetail.TYPES)));
        cases.add(new Case("walk-tree", "rp-walk-filestats", false, () -> rpWalk(tree, ListDetail.FILE_STATS)));
        cases.add(new Case("walk-tree", "find-printf", false, () -> find(tree, "-printf", "%y %p\\n")));
        Path small = flats.getFirst();
        cases.add(new Case("startup-first-list-1k", "jvm-nio", true, () -> probe("nio", small)));
        cases.add(new Case("startup-first-list-1k", "jvm-ffm-forced", false, () -> probe("ffm", small)));
        cases.add(new Case("startup-first-list-1k", "jvm-auto", false, () -> probe("auto", small)));
        return cases;
    }

    @Override
    public List<Target> targets() {
        return List.of(
                Target.speedup("list-fullstat-10k", "ffm-fullstat", "nio-readAttributes", 1.6),
                Target.speedup("list-types-10k", "ffm-types", "nio-isDirectory", 5.0),
                Target.speedup("walk-tree", "rp-walk-types", "nio-walkFileTree", 1.5),
                // The per-entry allocation target is read on the types-only listing (what walks and
                // removes use). Full stats are reported, not targeted: a full FileStat is itself
                // larger than 130 bytes. Read allocation on serial cases: the harness counts the
                // calling thread's allocations only.
                Target.maxBytesPerUnit("list-types-10k", "ffm-types", 130),
                // Issue 19: the public API as fast as its lister. list(TYPES) within 1.5x of C
                // (C's time / ours >= 1/1.5) and >= 5x NIO; list(ALL_STATS) >= 1.6x NIO.
                Target.speedup("list-types-10k", "rp-list-types", "nio-isDirectory", 5.0),
                Target.speedup("list-types-10k", "rp-list-types", "c-types", 1 / 1.5),
                Target.speedup("list-fullstat-10k", "rp-list-fullstat", "nio-readAttributes", 1.6),
                Target.maxBytesPerUnit("list-types-10k", "rp-list-types", 130));
    }

    private static long nioIsDirectory(Path dir) throws IOException {
        long n = 0;
        long dirs = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                dirs += Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) ? 1 : 0;
                n++;
            }
        }
        return dirs > n ? -1 : n;
    }

    private static long nioReadAttributes(Path dir) throws IOException {
        long n = 0;
        long sizes = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                sizes += a.size();
                n++;
            }
        }
        return sizes < 0 ? -1 : n;
    }

    private static long spiList(Path dir, ListDetail detail) throws IOException {
        RemotePath rp = RemotePaths.of(dir);
        long n = 0;
        try (DirectoryListing l = rp.fileSystem().list(rp, detail)) {
            while (l.hasNext()) {
                l.next();
                n++;
            }
        }
        return n;
    }

    /**
     * The public API as users call it: a sorted list of validated entries, each looked at (its
     * type, as the NIO and C rows count directories).
     */
    private static long publicList(Path dir, ListDetail detail) throws IOException {
        long n = 0;
        long dirs = 0;
        for (DirEntry e : RemotePaths.of(dir).list(detail)) {
            dirs += e.isDirectory() ? 1 : 0;
            n++;
        }
        return dirs > n ? -1 : n;
    }

    /** As {@link #publicList} in the backend's order ({@code Listings.read}): what the sort costs. */
    private static long unsortedList(Path dir, ListDetail detail) throws IOException {
        long n = 0;
        long dirs = 0;
        for (DirEntry e : dev.remotepath.tree.Listings.read(RemotePaths.of(dir), detail)) {
            dirs += e.isDirectory() ? 1 : 0;
            n++;
        }
        return dirs > n ? -1 : n;
    }

    /** The same lister with one stat thread: what the parallel stats buy. */
    private final LinuxDirectoryLister serial = new LinuxDirectoryLister(LinuxSyscalls.load(), 1);

    private long serialList(Path dir, ListDetail detail) throws IOException {
        RemotePath rp = RemotePaths.of(dir);
        long n = 0;
        try (DirectoryListing l = serial.list(rp, dir.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), detail)) {
            while (l.hasNext()) {
                l.next();
                n++;
            }
        }
        return n;
    }

    private static long walkFileTree(Path root) throws IOException {
        long[] n = {0};
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                n[0]++;
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                n[0]++;
                return FileVisitResult.CONTINUE;
            }
        });
        return n[0] - 1; // the start is not an entry below it
    }

    private static long rpWalk(Path root, ListDetail detail) throws IOException {
        try (Stream<DirEntry> s = RemotePaths.of(root).walk(WalkOptions.defaults().withDetail(detail))) {
            return s.count();
        }
    }

    private static long find(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("find", dir.toString()));
        cmd.addAll(List.of(args));
        Fixtures.exec(cmd.toArray(String[]::new));
        return 1;
    }

    private long probe(String lister, Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Fixtures.exec(java, "--enable-native-access=ALL-UNNAMED", "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                "-D" + LocalFileSystem.LISTER_PROPERTY + "=" + lister, "-cp", jar.toString(),
                FirstListProbe.class.getName(), dir.toString());
        return 1;
    }
}
