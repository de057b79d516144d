package dev.remotepath.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.DirEntry;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.AbortableOutputStream;
import dev.remotepath.spi.WriteMode;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SymlinkPolicy;
import dev.remotepath.syncer.SyncReport;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Writing new zip and tar archives: as a sync's target, read back by us, the JDK, unzip and GNU tar. */
class NewArchiveTest {

    @TempDir
    Path tmp;

    private static final Instant A_TIME = Instant.parse("2024-06-01T10:00:00.123456789Z");
    private static final String LONG_DIR = "d".repeat(90) + "/" + "e".repeat(40);
    private static final String LONG_NAME = "n".repeat(150) + ".txt";
    private static final String UNICODE = "é-ü-日本.txt";

    private Path tree() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("tree"));
        Files.createDirectories(root.resolve(LONG_DIR));
        Files.writeString(root.resolve(LONG_DIR).resolve("f".repeat(60) + ".txt"), "deep and long");
        Files.writeString(root.resolve("a.txt"), "alpha");
        Files.setLastModifiedTime(root.resolve("a.txt"), FileTime.from(A_TIME));
        Files.writeString(root.resolve(LONG_NAME), "long name");
        Files.writeString(root.resolve(UNICODE), "unicode");
        Files.write(root.resolve("empty.txt"), new byte[0]);
        Files.createDirectories(root.resolve("empty-dir"));
        Files.createSymbolicLink(root.resolve("link"), Path.of("a.txt"));
        byte[] big = new byte[3 << 20]; // over the 1 MiB an entry keeps in memory
        new Random(3).nextBytes(big);
        Files.write(root.resolve("big.bin"), big);
        return root;
    }

    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> PRIVATE =
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");
    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> PRIVATE_DIR =
            java.nio.file.attribute.PosixFilePermissions.fromString("rwx------");

    private static String suffix(String format) {
        return switch (format) {
            case "zip" -> ".zip";
            case "tar" -> ".tar";
            default -> ".tar.gz";
        };
    }

    private static String scheme(String format) {
        return format.equals("zip") ? "zip" : "tar";
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "tar", "tgz"})
    void aSyncIntoANewArchivePublishesItWholeOnClose(String format) throws Exception {
        Path source = tree();
        Files.setPosixFilePermissions(source.resolve("a.txt"), PRIVATE); // recorded as tar and zip record it
        Files.setPosixFilePermissions(source.resolve("empty-dir"), PRIVATE_DIR); // directories too
        Path out = tmp.resolve("out" + suffix(format));
        RemotePath target = RemotePaths.get(scheme(format) + ":" + out.toUri() + "!/");
        assertThat(target.fileSystem()).isInstanceOf(NewArchiveFileSystem.class);
        assertThat(RemotePaths.get(scheme(format) + ":" + out.toUri() + "!/a.txt").fileSystem())
                .as("the same archive while it is written").isSameAs(target.fileSystem());

        SyncReport report = PathSyncer.builder(RemotePaths.of(source), target).symlinks(SymlinkPolicy.PRESERVE)
                .transfers(4).build().run();
        assertThat(report.succeeded()).as(report.toString()).isTrue();
        assertThat(report.filesCopied()).isEqualTo(6);
        assertThat(target.resolve("a.txt").stat().size()).hasValue(5);
        assertThat(Files.exists(out)).as("not published before close").isFalse();
        assertThatThrownBy(() -> target.resolve("a.txt").readString()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("once it is closed");
        target.fileSystem().close();

        assertThat(Files.exists(out)).isTrue();
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s.map(p -> p.getFileName().toString())).as("no temporary left")
                    .containsExactlyInAnyOrder("tree", out.getFileName().toString());
        }
        RemotePath root = RemotePaths.get(scheme(format) + ":" + out.toUri() + "!/");
        assertThat(root.fileSystem()).isInstanceOf(ArchiveFileSystem.class);
        assertThat(root.list().stream().map(DirEntry::name)).containsExactlyInAnyOrder("a.txt", "big.bin",
                "d".repeat(90), "empty-dir", "empty.txt", "link", LONG_NAME, UNICODE);
        assertThat(root.resolve("a.txt").readString()).isEqualTo("alpha");
        assertThat(root.resolve("a.txt").stat().permissions()).hasValue(PRIVATE);
        assertThat(root.resolve("empty.txt").stat().permissions()).hasValue(Files.getPosixFilePermissions(source.resolve("empty.txt")));
        assertThat(root.resolve(LONG_NAME).readString()).isEqualTo("long name");
        assertThat(root.resolve(UNICODE).readString()).isEqualTo("unicode");
        assertThat(root.resolve("empty.txt").readAllBytes()).isEmpty();
        assertThat(root.resolve("empty-dir").list()).isEmpty();
        assertThat(root.resolve("empty-dir").stat().permissions()).hasValue(PRIVATE_DIR);
        assertThat(root.resolve("link").readSymbolicLink()).isEqualTo("a.txt");
        assertThat(root.resolve(LONG_DIR, "f".repeat(60) + ".txt").readString()).isEqualTo("deep and long");
        assertThat(root.resolve("big.bin").readAllBytes()).isEqualTo(Files.readAllBytes(source.resolve("big.bin")));
        Instant kept = root.resolve("a.txt").stat().lastModified().orElseThrow();
        Duration precision = format.equals("zip") ? Duration.ofNanos(100) : Duration.ofSeconds(1);
        assertThat(kept).isEqualTo(A_TIME.minusNanos(A_TIME.getNano() % precision.toNanos()));
        assertThat(root.resolve("a.txt").stat().lastModifiedPrecision()).isEqualTo(precision);

        // The published archive is the mirror: a second run finds nothing to do.
        SyncReport again = PathSyncer.builder(RemotePaths.of(source), root).symlinks(SymlinkPolicy.PRESERVE).build()
                .run();
        assertThat(again.succeeded()).as(again.toString()).isTrue();
        assertThat(again.filesCopied()).isZero();
        assertThat(again.bytesCopied()).isZero();

        if (format.equals("zip")) {
            readByTheJdkAndUnzip(out, source);
        } else {
            readByGnuTar(out, source);
        }
    }

    private static void readByTheJdkAndUnzip(Path out, Path source) throws Exception {
        try (ZipFile z = new ZipFile(out.toFile())) {
            assertThat(new String(z.getInputStream(z.getEntry("a.txt")).readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("alpha");
            assertThat(z.getInputStream(z.getEntry("big.bin")).readAllBytes())
                    .isEqualTo(Files.readAllBytes(source.resolve("big.bin")));
            assertThat(z.getEntry(UNICODE)).isNotNull();
            assertThat(z.getEntry("empty-dir/").isDirectory()).isTrue();
            ZipEntry a = z.getEntry("a.txt");
            // the JDK reads NTFS times to the microsecond
            assertThat(a.getLastModifiedTime().toInstant()).isEqualTo(A_TIME.minusNanos(A_TIME.getNano() % 1000));
        }
        if (Files.isExecutable(Path.of("/usr/bin/unzip"))) {
            Path x = Files.createDirectories(out.resolveSibling("unzipped"));
            assertThat(run("unzip", "-q", out.toString(), "-d", x.toString())).isZero();
            assertThat(Files.readString(x.resolve("a.txt"))).isEqualTo("alpha");
            assertThat(Files.getPosixFilePermissions(x.resolve("a.txt"))).isEqualTo(PRIVATE);
            assertThat(Files.getPosixFilePermissions(x.resolve("empty-dir"))).isEqualTo(PRIVATE_DIR);
            assertThat(Files.readSymbolicLink(x.resolve("link"))).isEqualTo(Path.of("a.txt"));
            assertThat(Files.getLastModifiedTime(x.resolve("a.txt")).toInstant().getEpochSecond())
                    .isEqualTo(A_TIME.getEpochSecond());
            assertThat(Files.mismatch(x.resolve("big.bin"), source.resolve("big.bin"))).isEqualTo(-1);
        }
    }

    private static void readByGnuTar(Path out, Path source) throws Exception {
        Path x = Files.createDirectories(out.resolveSibling("untarred"));
        assertThat(run("tar", "-xpf", out.toString(), "-C", x.toString())).isZero();
        assertThat(Files.readString(x.resolve("a.txt"))).isEqualTo("alpha");
        assertThat(Files.getPosixFilePermissions(x.resolve("a.txt"))).isEqualTo(PRIVATE);
        assertThat(Files.getPosixFilePermissions(x.resolve("empty-dir"))).isEqualTo(PRIVATE_DIR);
        assertThat(Files.readString(x.resolve(LONG_NAME))).isEqualTo("long name");
        assertThat(Files.readString(x.resolve(UNICODE))).isEqualTo("unicode");
        assertThat(Files.readString(x.resolve(LONG_DIR).resolve("f".repeat(60) + ".txt"))).isEqualTo("deep and long");
        assertThat(Files.readSymbolicLink(x.resolve("link"))).isEqualTo(Path.of("a.txt"));
        assertThat(Files.isDirectory(x.resolve("empty-dir"))).isTrue();
        assertThat(Files.getLastModifiedTime(x.resolve("a.txt")).toInstant())
                .isEqualTo(Instant.ofEpochSecond(A_TIME.getEpochSecond()));
        assertThat(Files.mismatch(x.resolve("big.bin"), source.resolve("big.bin"))).isEqualTo(-1);
    }

    private static int run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        assertThat(code).as(String.join(" ", command) + ": " + log).isZero();
        return code;
    }

    @Test
    void aUriOfNoArchiveListsNothingAndMakesNothing() throws Exception {
        Path out = tmp.resolve("missing.zip");
        RemotePath root = RemotePaths.get("zip:" + out.toUri() + "!/");
        assertThatThrownBy(root::list).isInstanceOf(NoSuchFileException.class).hasMessageContaining("no archive at");
        assertThatThrownBy(() -> root.resolve("a.txt").readString()).isInstanceOf(NoSuchFileException.class);
        root.fileSystem().close();
        assertThat(Files.exists(out)).isFalse();
        assertThatThrownBy(() -> RemotePaths.get("zip:" + tmp.resolve("no/such/dir/x.zip").toUri() + "!/a.txt")
                .writeString("x")).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void entriesAreWrittenOnceAndNeverReplacedDeletedOrRenamed() throws Exception {
        Path out = tmp.resolve("once.zip");
        NewArchiveFileSystem fs = NewArchiveFileSystem.zip(RemotePaths.of(out));
        RemotePath root = fs.path("/");
        root.resolve("a.txt").writeString("one");
        assertThatThrownBy(() -> root.resolve("a.txt").writeString("two")).isInstanceOf(FileAlreadyExistsException.class);
        assertThatThrownBy(() -> root.resolve("a.txt").delete()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("written once");
        assertThatThrownBy(() -> root.resolve("a.txt").moveTo(root.resolve("b.txt")))
                .isInstanceOf(FileSystemException.class);
        assertThatThrownBy(() -> root.resolve("no/b.txt").writeString("x")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> root.resolve("a.txt/b.txt").writeString("x")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> root.resolve("a.txt").newOutputStream(java.nio.file.StandardOpenOption.APPEND))
                .isInstanceOf(FileSystemException.class);
        assertThatThrownBy(() -> root.resolve("a.txt").setLastModifiedTime(Instant.EPOCH))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("when it is written");
        root.resolve("dir").createDirectory();
        assertThatThrownBy(() -> root.resolve("dir").createDirectory()).isInstanceOf(FileAlreadyExistsException.class);
        root.resolve("dir").setLastModifiedTime(A_TIME);
        assertThatThrownBy(() -> NewArchiveFileSystem.tar(RemotePaths.of(Files.writeString(tmp.resolve("x.tar"), "x"))))
                .isInstanceOf(FileAlreadyExistsException.class);
        fs.close();
        fs.close(); // once
        RemotePath read = ArchiveFileSystem.zip(RemotePaths.of(out)).path("/");
        assertThat(read.resolve("a.txt").readString()).isEqualTo("one");
        assertThat(read.resolve("dir").stat().lastModified()).hasValue(A_TIME.minusNanos(A_TIME.getNano() % 100));
        assertThatThrownBy(() -> NewArchiveFileSystem.zip(RemotePaths.of(out))).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void anAbortedEntryLeavesNoTraceAndTheRestIsPublished() throws Exception {
        Path out = tmp.resolve("partial.tar");
        NewArchiveFileSystem fs = NewArchiveFileSystem.tar(RemotePaths.of(out));
        RemotePath root = fs.path("/");
        root.resolve("kept.txt").writeString("kept");
        OutputStream failed = fs.openWrite(root.resolve("failed.txt"), WriteMode.CREATE_NEW);
        failed.write("half".getBytes(StandardCharsets.UTF_8));
        assertThat(root.list().stream().map(DirEntry::name)).contains("failed.txt");
        ((AbortableOutputStream) failed).abort();
        assertThat(root.list().stream().map(DirEntry::name)).containsExactly("kept.txt");
        root.resolve("failed.txt").writeString("second try"); // the name is free again
        fs.close();
        RemotePath read = ArchiveFileSystem.tar(RemotePaths.of(out)).path("/");
        assertThat(read.list().stream().map(DirEntry::name)).containsExactlyInAnyOrder("kept.txt", "failed.txt");
        assertThat(read.resolve("failed.txt").readString()).isEqualTo("second try");
    }

    @Test
    void closingWhileAnEntryIsWrittenOrAbortingPublishesNothing() throws Exception {
        Path out = tmp.resolve("never.zip");
        NewArchiveFileSystem fs = NewArchiveFileSystem.zip(RemotePaths.of(out));
        fs.path("/a.txt").writeString("a");
        OutputStream open = fs.openWrite(fs.path("/b.txt"), WriteMode.CREATE_NEW);
        open.write(1);
        assertThatThrownBy(fs::close).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("still being written");
        assertThatThrownBy(open::close).isInstanceOf(java.nio.file.ClosedFileSystemException.class);
        NewArchiveFileSystem second = NewArchiveFileSystem.zip(RemotePaths.of(out));
        assertThat(second).isNotSameAs(fs);
        second.path("/a.txt").writeString("a");
        second.abort();
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s.toList()).as("neither archive nor temporary").isEmpty();
        }
        // Nothing written: nothing published.
        NewArchiveFileSystem.tar(RemotePaths.of(tmp.resolve("empty.tar"))).close();
        assertThat(Files.exists(tmp.resolve("empty.tar"))).isFalse();
    }

    @Test
    void zip64RecordsAreWrittenWhereFieldsOverflowAndReadByEveryone() throws Exception {
        Path out = tmp.resolve("z64.zip");
        // Every size and offset "overflows" from 0: the ZIP64 extras and end records a 4 GiB
        // archive gets, written small.
        NewArchiveFileSystem fs = new NewArchiveFileSystem(new ArchiveFileSystemProvider(), "zip",
                RemotePaths.of(out), 0, 64);
        RemotePath root = fs.path("/");
        byte[] data = new byte[10_000];
        new Random(5).nextBytes(data);
        root.resolve("spilled.bin").write(data); // past the 64 bytes it keeps in memory
        root.resolve("d").createDirectory();
        root.resolve("d/e.txt").writeString("e");
        root.resolve("empty").write(new byte[0]);
        fs.close();
        try (ZipFile z = new ZipFile(out.toFile())) {
            assertThat(z.size()).isEqualTo(4);
            assertThat(z.getInputStream(z.getEntry("spilled.bin")).readAllBytes()).isEqualTo(data);
            assertThat(z.getEntry("spilled.bin").getSize()).isEqualTo(10_000);
            assertThat(new String(z.getInputStream(z.getEntry("d/e.txt")).readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("e");
        }
        RemotePath read = ArchiveFileSystem.zip(RemotePaths.of(out)).path("/");
        assertThat(read.resolve("spilled.bin").readAllBytes()).isEqualTo(data);
        assertThat(read.resolve("d/e.txt").readString()).isEqualTo("e");
        if (Files.isExecutable(Path.of("/usr/bin/unzip"))) {
            run("unzip", "-tq", out.toString());
        }
    }

    @Test
    void aNewArchiveInsideANewArchive() throws Exception {
        Path out = tmp.resolve("outer.zip");
        RemotePath inner = RemotePaths.get("tar:zip:" + out.toUri() + "!/inner.tar!/");
        inner.resolve("a.txt").writeString("nested");
        NewArchiveFileSystem innerFs = (NewArchiveFileSystem) inner.fileSystem();
        NewArchiveFileSystem outerFs = (NewArchiveFileSystem) innerFs.archive().fileSystem();
        innerFs.close();
        outerFs.close();
        assertThat(RemotePaths.get("tar:zip:" + out.toUri() + "!/inner.tar!/a.txt").readString()).isEqualTo("nested");
    }

    @Test
    void manyEntriesFromParallelWritersAllArrive() throws Exception {
        Path out = tmp.resolve("many.tgz");
        NewArchiveFileSystem fs = NewArchiveFileSystem.tar(RemotePaths.of(out));
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int id = t;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < 200; i++) {
                        fs.path("/t" + id + "-" + i + ".txt").writeString("thread " + id + " file " + i);
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        fs.close();
        RemotePath read = ArchiveFileSystem.tar(RemotePaths.of(out)).path("/");
        assertThat(read.list()).hasSize(1600);
        assertThat(read.resolve("t5-199.txt").readString()).isEqualTo("thread 5 file 199");
        assertThat(read.resolve("t0-0.txt").stat().type()).isEqualTo(FileType.FILE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "tar", "tgz"})
    void namesThatAreNotUtf8KeepTheirBytes(String format) throws Exception {
        String latin1 = "caf\uDCE9.txt"; // the byte 0xE9 alone: "café" in Latin-1, as NameBytes carries it
        String longLatin1 = "\uDCE9".repeat(120) + ".txt";
        RemotePath src = RemotePaths.get("mem://new-archive-" + java.util.UUID.randomUUID() + "/src");
        src.createDirectories();
        src.resolve(latin1).writeString("latin-1");
        src.resolve(longLatin1).writeString("long latin-1");
        src.resolve("link").createSymbolicLink(latin1);
        Path out = tmp.resolve("names" + suffix(format));
        NewArchiveFileSystem fs = format.equals("zip") ? NewArchiveFileSystem.zip(RemotePaths.of(out))
                : NewArchiveFileSystem.tar(RemotePaths.of(out));
        SyncReport r = PathSyncer.builder(src, fs.path("/")).symlinks(SymlinkPolicy.PRESERVE).build().run();
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        fs.close();
        RemotePath root = RemotePaths.get(scheme(format) + ":" + out.toUri() + "!/");
        assertThat(root.list().stream().map(DirEntry::name)).containsExactlyInAnyOrder(latin1, longLatin1, "link");
        assertThat(root.resolve(latin1).readString()).isEqualTo("latin-1");
        assertThat(root.resolve(longLatin1).readString()).isEqualTo("long latin-1");
        assertThat(root.resolve("link").readSymbolicLink()).isEqualTo(latin1);
        // Other tools see the very bytes.
        Process p = new ProcessBuilder(format.equals("zip") ? List.of("unzip", "-Z1", out.toString())
                : List.of("tar", "--quoting-style=literal", "-tf", out.toString())).redirectErrorStream(true).start();
        byte[] listing = p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).as(new String(listing, StandardCharsets.ISO_8859_1)).isZero();
        String raw = new String(listing, StandardCharsets.ISO_8859_1);
        assertThat(raw).contains("caf\u00e9.txt", "\u00e9".repeat(120) + ".txt");
    }
}
