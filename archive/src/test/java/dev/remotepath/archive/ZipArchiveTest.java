package dev.remotepath.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.ReadOnlyRemoteFileSystemException;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.CountingFileSystem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Zip archives on the local disk and in mem: reading, names, links, corrupt and hostile archives. */
class ZipArchiveTest {

    @TempDir
    Path tmp;

    private RemotePath write(String name, byte[] zip) throws IOException {
        Path p = tmp.resolve(name);
        Files.write(p, zip);
        return RemotePaths.of(p);
    }

    private static String uri(RemotePath archive, String inside) {
        return "zip:" + archive + "!" + inside;
    }

    /** A zip made by the JDK: directories, stored and deflated entries, an mtime in the extra field. */
    private static byte[] jdkZip() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("docs/"));
            zip.closeEntry();
            ZipEntry readme = new ZipEntry("docs/readme.txt");
            readme.setLastModifiedTime(FileTime.from(Instant.parse("2024-06-01T10:00:00Z")));
            zip.putNextEntry(readme);
            zip.write("read me\n".repeat(1000).getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
            byte[] bin = new byte[100_000];
            new Random(1).nextBytes(bin);
            ZipEntry stored = new ZipEntry("data/bin/random.bin");
            stored.setMethod(ZipEntry.STORED);
            stored.setSize(bin.length);
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(bin);
            stored.setCrc(crc.getValue());
            zip.putNextEntry(stored);
            zip.write(bin);
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("top.txt"));
            zip.write("top".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return bytes.toByteArray();
    }

    @Test
    void listsStatsAndReadsAJdkZip() throws Exception {
        RemotePath archive = write("a.zip", jdkZip());
        RemotePath root = RemotePaths.get(uri(archive, "/"));
        assertThat(root.list().stream().map(DirEntry::name)).containsExactly("data", "docs", "top.txt");
        assertThat(root.resolve("data/bin").list(ListDetail.FILE_STATS).get(0).stat().size()).hasValue(100_000);
        RemotePath readme = root.resolve("docs/readme.txt");
        FileStat st = readme.stat();
        assertThat(st.type()).isEqualTo(FileType.FILE);
        assertThat(st.size()).hasValue(8000);
        assertThat(st.lastModified()).contains(Instant.parse("2024-06-01T10:00:00Z"));
        assertThat(st.lastModifiedPrecision()).isEqualTo(Duration.ofSeconds(1));
        assertThat(readme.readString()).isEqualTo("read me\n".repeat(1000));
        assertThat(root.resolve("docs").stat().isDirectory()).isTrue();
        assertThat(root.resolve("data").stat().isDirectory()).isTrue(); // implied by its entries
        assertThat(root.resolve("missing.txt").exists()).isFalse();
        assertThatThrownBy(() -> root.resolve("top.txt/x").stat()).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> root.resolve("top.txt").list()).isInstanceOf(NotDirectoryException.class);
        assertThatThrownBy(() -> root.resolve("docs").readAllBytes()).isInstanceOf(dev.remotepath.IsDirectoryException.class);
    }

    @Test
    void readsFromAnOffsetAndAWindow() throws Exception {
        byte[] bin = new byte[100_000];
        new Random(1).nextBytes(bin);
        RemotePath root = RemotePaths.get(uri(write("a.zip", jdkZip()), "/"));
        for (String name : List.of("data/bin/random.bin", "docs/readme.txt")) {
            RemotePath f = root.resolve(name);
            byte[] all = f.readAllBytes();
            try (InputStream in = f.newInputStream(4321)) {
                assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(all, 4321, all.length));
            }
            try (InputStream in = f.fileSystem().openRead(f, 1000, 50)) {
                assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(all, 1000, 1050));
            }
            try (InputStream in = f.newInputStream(all.length + 10)) {
                assertThat(in.read()).isEqualTo(-1);
            }
        }
        assertThat(root.resolve("data/bin/random.bin").readAllBytes()).isEqualTo(bin);
    }

    @Test
    void urisRoundTripAndNameTheArchive() throws Exception {
        RemotePath archive = write("with space!.zip", jdkZip());
        RemotePath readme = RemotePaths.get(uri(archive, "/docs/readme.txt").replace("!.zip", "%21.zip"));
        assertThat(readme.toString()).isEqualTo("zip:" + archive.toString().replace("!", "%21") + "!/docs/readme.txt");
        assertThat(RemotePaths.get(readme.toString())).isEqualTo(readme);
        assertThat(readme.fileSystem()).isSameAs(RemotePaths.get(readme.toString()).fileSystem());
        assertThat(((ArchiveFileSystem) readme.fileSystem()).archive()).isEqualTo(archive);
        assertThatThrownBy(() -> RemotePaths.get("zip:" + archive)).isInstanceOf(InvalidPathException.class)
                .hasMessageContaining("!/path");
        assertThatThrownBy(() -> RemotePaths.get(uri(archive, "/a#frag"))).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> RemotePaths.get("mailto:someone@example.org")).isInstanceOf(InvalidPathException.class);
        // an absent archive's URI is where a new one may be written (NewArchiveTest); nothing to read
        assertThatThrownBy(() -> RemotePaths.get(uri(RemotePaths.of(tmp.resolve("absent.zip")), "/")).list())
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void nestedArchivesAndArchivesInMem() throws Exception {
        RemotePath inner = RemotePaths.get("mem://archive-" + UUID.randomUUID() + "/in.zip");
        inner.write(jdkZip());
        ZipWriter outer = new ZipWriter();
        outer.add("nested/in.zip").content(inner.readAllBytes());
        RemotePath outerZip = write("outer.zip", outer.bytes());
        RemotePath top = RemotePaths.get("zip:zip:" + outerZip + "!/nested/in.zip!/top.txt");
        assertThat(top.readString()).isEqualTo("top");
        assertThat(RemotePaths.get(top.toString())).isEqualTo(top);
        assertThat(RemotePaths.get(uri(inner, "/docs/readme.txt")).readString()).startsWith("read me");
    }

    @Test
    void aSyncFromAnArchiveMirrorsItsEntries() throws Exception {
        RemotePath root = RemotePaths.get(uri(write("a.zip", jdkZip()), "/"));
        RemotePath target = RemotePaths.get("mem://archive-" + UUID.randomUUID() + "/out");
        SyncReport first = PathSyncer.builder(root, target).build().run();
        assertThat(first.succeeded()).as(first.toString()).isTrue();
        assertThat(first.filesCopied()).isEqualTo(3);
        assertThat(target.resolve("docs/readme.txt").readString()).isEqualTo("read me\n".repeat(1000));
        assertThat(target.resolve("docs/readme.txt").stat().lastModified()).contains(Instant.parse("2024-06-01T10:00:00Z"));
        SyncReport again = PathSyncer.builder(root, target).build().run();
        assertThat(again.filesCopied()).isZero();
        assertThat(again.filesSkipped()).isEqualTo(3);
    }

    @Test
    void readingOneEntryReadsTheDirectoryAndThatEntryOnly() throws Exception {
        byte[] bulk = new byte[32 << 20];
        RemotePath archive = write("bulk.zip", dev.remotepath.testkit.ZipFixtures.bulkThenReadme(bulk, "read me"));
        RemotePath counted = CountingFileSystem.counting(archive);
        ArchiveFileSystem fs = ArchiveFileSystem.zip(counted);
        assertThat(fs.path("/").list()).hasSize(2);
        assertThat(fs.path("/docs/readme.txt").readString()).isEqualTo("read me");
        long read = CountingFileSystem.of(counted).bytesRead();
        assertThat(read).as("bytes read of a %d-byte archive", Files.size(tmp.resolve("bulk.zip"))).isLessThan(8_192);
    }

    @Test
    void zip64RecordsAndAStubBeforeTheArchive() throws Exception {
        ZipWriter w = new ZipWriter().zip64().stub("#!/bin/sh\necho self-extracting\nexit 0\n".getBytes(StandardCharsets.UTF_8));
        w.file("a.txt", "alpha");
        w.add("b/c.txt").content("gamma".repeat(100)).deflated();
        RemotePath root = RemotePaths.get(uri(write("z64.zip", w.bytes()), "/"));
        assertThat(root.resolve("a.txt").readString()).isEqualTo("alpha");
        assertThat(root.resolve("b/c.txt").readString()).isEqualTo("gamma".repeat(100));
    }

    @Test
    void aJdkZipOfMoreThan65535EntriesUsesZip64() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (int i = 0; i < 70_000; i++) {
                zip.putNextEntry(new ZipEntry("d" + (i / 1000) + "/f" + i));
                zip.closeEntry();
            }
        }
        RemotePath root = RemotePaths.get(uri(write("many.zip", bytes.toByteArray()), "/"));
        assertThat(root.list()).hasSize(70);
        try (var walk = root.walk()) {
            assertThat(walk.filter(e -> e.type() == FileType.FILE).count()).isEqualTo(70_000);
        }
    }

    @Test
    void unixModesAndLinksWithinTheArchive() throws Exception {
        ZipWriter w = new ZipWriter();
        w.file("bin/tool", "#!/bin/sh\n").mode(0100750).mtime(1_700_000_000L);
        w.link("bin/current", "tool");
        w.link("latest", "bin/current");
        w.link("up/../../etc", "../../etc/passwd");
        w.link("escape", "../outside.txt");
        w.link("absolute", "/etc/passwd");
        w.link("loop", "loop");
        RemotePath root = RemotePaths.get(uri(write("links.zip", w.bytes()), "/"));
        FileStat tool = root.resolve("bin/tool").stat();
        assertThat(tool.permissions()).contains(PosixFilePermissions.fromString("rwxr-x---"));
        assertThat(tool.lastModified()).contains(Instant.ofEpochSecond(1_700_000_000L));
        assertThat(root.resolve("latest").readString()).isEqualTo("#!/bin/sh\n");
        assertThat(root.resolve("latest").stat(java.nio.file.LinkOption.NOFOLLOW_LINKS).type()).isEqualTo(FileType.SYMLINK);
        assertThat(root.resolve("latest").readSymbolicLink()).isEqualTo("bin/current");
        assertThat(root.fileSystem().realPath(root.resolve("latest"))).isEqualTo(root.resolve("bin/tool"));
        assertThatThrownBy(() -> root.resolve("escape").readString()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("outside the archive");
        assertThatThrownBy(() -> root.resolve("absolute").readString()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("outside the archive");
        assertThatThrownBy(() -> root.resolve("loop").stat()).isInstanceOf(FileSystemLoopException.class);
    }

    @Test
    void hostileNamesMakeTheirDirectoryAnErrorAndNothingIsWrittenOutside() throws Exception {
        ZipWriter w = new ZipWriter();
        w.file("ok.txt", "fine");
        w.file("sub/../../evil.txt", "evil");
        w.file("sub/fine.txt", "fine");
        w.file("nul/a\0b.txt", "nul");
        w.file("twice/x.txt", "one");
        w.file("twice/x.txt", "two");
        w.file("clash/f", "file");
        w.file("clash/f/g", "below a file");
        w.file("empty//name.txt", "double slash");
        RemotePath root = RemotePaths.get(uri(write("hostile.zip", w.bytes()), "/"));
        assertThat(root.list().stream().map(DirEntry::name)).containsExactly("clash", "empty", "nul", "ok.txt", "sub", "twice");
        assertThatThrownBy(() -> root.resolve("sub").list()).isInstanceOf(UnsafeNameException.class);
        assertThatThrownBy(() -> root.resolve("nul").list()).isInstanceOf(UnsafeNameException.class);
        assertThatThrownBy(() -> root.resolve("empty").list()).isInstanceOf(UnsafeNameException.class);
        assertThatThrownBy(() -> root.resolve("twice").list()).isInstanceOf(IOException.class).hasMessageContaining("x.txt");
        assertThatThrownBy(() -> root.resolve("twice/x.txt").readString()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("more than one entry");
        assertThatThrownBy(() -> root.resolve("clash").list()).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> root.resolve("clash/f").stat()).isInstanceOf(FileSystemException.class);

        RemotePath mem = RemotePaths.get("mem://archive-" + UUID.randomUUID() + "/");
        RemotePath target = mem.resolve("a/b/out").createDirectories();
        SyncReport r = PathSyncer.builder(root, target).build().run();
        assertThat(r.succeeded()).isFalse();
        assertThat(r.errors()).hasSizeGreaterThanOrEqualTo(5);
        assertThat(r.filesCopied()).isEqualTo(1); // ok.txt; every directory holding a bad name is an error
        assertThat(target.resolve("ok.txt").readString()).isEqualTo("fine");
        assertThat(mem.list().stream().map(DirEntry::name)).containsExactly("a");
        assertThat(mem.resolve("a").list().stream().map(DirEntry::name)).containsExactly("b");
        assertThat(mem.resolve("a/b").list().stream().map(DirEntry::name)).containsExactly("out");
        try (var walk = target.walk()) {
            assertThat(walk.filter(e -> e.type() == FileType.FILE).map(e -> e.path().name())).containsExactly("ok.txt");
        }
    }

    @Test
    void anAbsoluteOrClimbingNameAtTheTopRefusesTheWholeArchive() throws Exception {
        for (String hostile : List.of("../evil.txt", "/etc/passwd")) {
            ZipWriter w = new ZipWriter();
            w.file("ok.txt", "fine");
            w.file(hostile, "evil");
            RemotePath root = RemotePaths.get(uri(write("top-" + hostile.length() + ".zip", w.bytes()), "/"));
            assertThatThrownBy(root::list).as(hostile).isInstanceOf(UnsafeNameException.class);
            RemotePath target = RemotePaths.get("mem://archive-" + UUID.randomUUID() + "/out").createDirectories();
            // The source's own listing is refused: the run cannot start, as for a missing source.
            assertThatThrownBy(() -> PathSyncer.builder(root, target).build().run()).isInstanceOf(UnsafeNameException.class);
            assertThat(target.list()).isEmpty();
        }
    }

    @Test
    void corruptArchivesFailNamingWhatIsWrong() throws Exception {
        assertThatThrownBy(() -> RemotePaths.get(uri(write("text.zip", "not a zip".getBytes()), "/")))
                .isInstanceOf(ZipException.class).hasMessageContaining("not a zip archive");
        byte[] good = jdkZip();
        assertThatThrownBy(() -> RemotePaths.get(uri(write("cut.zip", java.util.Arrays.copyOf(good, good.length - 30)), "/")))
                .isInstanceOf(ZipException.class);

        ZipWriter w = new ZipWriter();
        w.file("crc.txt", "content").declaredCrc = 12345L;
        ZipWriter.Entry bomb = w.add("bomb.txt").content("x".repeat(100_000)).deflated();
        bomb.declaredSize = 10L;
        ZipWriter.Entry shortOne = w.add("short.txt").content("y".repeat(100)).deflated();
        shortOne.declaredSize = 1000L;
        w.file("locked.txt", "secret").flags |= 1;
        w.file("bzip2.txt", "x").method = 12;
        RemotePath root = RemotePaths.get(uri(write("bad.zip", w.bytes()), "/"));
        assertThatThrownBy(() -> root.resolve("crc.txt").readString()).isInstanceOf(ZipException.class).hasMessageContaining("CRC");
        assertThatThrownBy(() -> root.resolve("bomb.txt").readAllBytes()).isInstanceOf(ZipException.class)
                .hasMessageContaining("inflates past");
        assertThatThrownBy(() -> root.resolve("short.txt").readAllBytes()).isInstanceOf(java.io.EOFException.class)
                .hasMessageContaining("short.txt");
        assertThatThrownBy(() -> root.resolve("locked.txt").readAllBytes()).isInstanceOf(ZipException.class)
                .hasMessageContaining("encrypted");
        assertThatThrownBy(() -> root.resolve("bzip2.txt").readAllBytes()).isInstanceOf(ZipException.class)
                .hasMessageContaining("method 12");
    }

    @Test
    void aCentralDirectoryLargerThanTheLimitIsRefusedNotAllocated() throws Exception {
        ZipWriter w = new ZipWriter();
        for (int i = 0; i < 100; i++) {
            w.file("f" + i, "x");
        }
        RemotePath archive = write("many.zip", w.bytes());
        long size = Files.size(tmp.resolve("many.zip"));
        assertThat(ZipCentralDirectory.read(archive, size, java.time.ZoneOffset.UTC)).hasSize(100);
        assertThatThrownBy(() -> ZipCentralDirectory.read(archive, size, java.time.ZoneOffset.UTC, 1024))
                .isInstanceOf(ZipException.class).hasMessageContaining("more than the 1024");
    }

    @Test
    void everyWriteIsRefused() throws Exception {
        RemotePath root = RemotePaths.get(uri(write("a.zip", jdkZip()), "/"));
        assertThatThrownBy(() -> root.resolve("new.txt").writeString("x")).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
        assertThatThrownBy(() -> root.resolve("top.txt").delete()).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
        assertThatThrownBy(() -> root.resolve("newdir").createDirectory()).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
    }

    @Test
    void aReplacedArchiveIsReadAgain() throws Exception {
        Path p = tmp.resolve("changing.zip");
        ZipWriter one = new ZipWriter();
        one.file("v.txt", "one");
        Files.write(p, one.bytes());
        RemotePath v = RemotePaths.get(uri(RemotePaths.of(p), "/v.txt"));
        assertThat(v.readString()).isEqualTo("one");
        ZipWriter two = new ZipWriter();
        two.file("v.txt", "two, longer");
        Files.write(p, two.bytes());
        RemotePath again = RemotePaths.get(v.toString());
        assertThat(again.readString()).isEqualTo("two, longer");
        assertThat(v.readString()).isEqualTo("two, longer"); // the same file system, read anew
    }

    @Test
    void anArchiveIsClosedWithItsBackend() throws Exception {
        RemotePath zip = RemotePaths.get("mem://archive-" + UUID.randomUUID() + "/a.zip").write(jdkZip());
        dev.remotepath.spi.RemoteFileSystem volume = zip.fileSystem();
        RemotePath top = RemotePaths.get(uri(zip, "/top.txt"));
        assertThat(top.readString()).isEqualTo("top");
        int open = ArchiveFileSystemProvider.openArchives();
        volume.close();
        RemotePaths.get(uri(write("other.zip", jdkZip()), "/top.txt"));
        assertThat(top.fileSystem().isOpen()).isFalse();
        assertThat(ArchiveFileSystemProvider.openArchives()).isLessThanOrEqualTo(open);
        assertThatThrownBy(top::readString).isInstanceOf(java.nio.file.ClosedFileSystemException.class);
    }

    @Test
    void closingForgetsTheArchiveNotItsBackend() throws Exception {
        RemotePath archive = write("a.zip", jdkZip());
        RemotePath top = RemotePaths.get(uri(archive, "/top.txt"));
        top.fileSystem().close();
        assertThatThrownBy(top::readString).isInstanceOf(java.nio.file.ClosedFileSystemException.class);
        assertThat(archive.fileSystem().isOpen()).isTrue();
        assertThat(RemotePaths.get(uri(archive, "/top.txt")).readString()).isEqualTo("top");
    }

    @Test
    void anEntryIsItsLocalHeaderAndDataInOneReadUnlessTheLocalExtraIsLong() throws Exception {
        ZipWriter w = new ZipWriter();
        w.add("plain.txt").content("plain ".repeat(500)).deflated();
        ZipWriter.Entry padded = w.add("padded.txt").content("padded ".repeat(500)).deflated();
        ZipArchiveWriter.Le pad = new ZipArchiveWriter.Le();
        pad.u16(0xcafe).u16(3000).bytes(new byte[3000]); // past the room the combined read leaves
        padded.localExtra = pad.toByteArray();
        RemotePath counted = dev.remotepath.testkit.CountingFileSystem.counting(write("padded.zip", w.bytes()));
        ArchiveFileSystem fs = ArchiveFileSystem.zip(counted);
        dev.remotepath.testkit.CountingFileSystem calls = dev.remotepath.testkit.CountingFileSystem.of(counted);
        long opened = calls.count(dev.remotepath.testkit.CountingFileSystem.Call.OPEN_READ);
        assertThat(fs.path("/plain.txt").readString()).isEqualTo("plain ".repeat(500));
        assertThat(calls.count(dev.remotepath.testkit.CountingFileSystem.Call.OPEN_READ) - opened).isEqualTo(1);
        assertThat(fs.path("/padded.txt").readString()).isEqualTo("padded ".repeat(500));
        assertThat(calls.count(dev.remotepath.testkit.CountingFileSystem.Call.OPEN_READ) - opened).isEqualTo(3);
        // known now where both entries' data start: one read each
        assertThat(fs.path("/padded.txt").readString()).isEqualTo("padded ".repeat(500));
        assertThat(fs.path("/plain.txt").readString()).isEqualTo("plain ".repeat(500));
        assertThat(calls.count(dev.remotepath.testkit.CountingFileSystem.Call.OPEN_READ) - opened).isEqualTo(5);
    }
}
