package dev.remotepath.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.DirEntry;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.CountingFileSystem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tar archives: GNU, ustar and pax names, hard links, gzip, ranged reads, corrupt and hostile archives. */
class TarArchiveTest {

    @TempDir
    Path tmp;

    private Path tree() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("tree"));
        String longDir = "d".repeat(90) + "/" + "e".repeat(40);
        Files.createDirectories(root.resolve(longDir));
        Files.writeString(root.resolve(longDir).resolve("f".repeat(60) + ".txt"), "deep and long");
        Files.writeString(root.resolve("a.txt"), "alpha");
        Files.setLastModifiedTime(root.resolve("a.txt"), FileTime.from(Instant.parse("2024-06-01T10:00:00.123456789Z")));
        Files.createLink(root.resolve("hard.txt"), root.resolve("a.txt"));
        Files.createSymbolicLink(root.resolve("link"), Path.of("a.txt"));
        byte[] big = new byte[3 << 20];
        new Random(3).nextBytes(big);
        Files.write(root.resolve("big.bin"), big);
        return root;
    }

    private RemotePath tar(String format, boolean gzip) throws IOException, InterruptedException {
        Path root = tree();
        Path out = tmp.resolve(format + (gzip ? ".tgz" : ".tar"));
        Process p = new ProcessBuilder("tar", "--format=" + format, gzip ? "-czf" : "-cf", out.toString(), "-C",
                root.toString(), ".").redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(log).isZero();
        return RemotePaths.of(out);
    }

    @Test
    void gnuUstarAndPaxArchivesPlainAndCompressedReadAlike() throws Exception {
        for (String format : List.of("gnu", "pax", "ustar")) {
            for (boolean gzip : List.of(false, true)) {
                String what = format + (gzip ? ".tgz" : ".tar");
                if (Files.exists(tmp.resolve("tree"))) {
                    dev.remotepath.testkit.LocalTrees.delete(tmp.resolve("tree"));
                }
                RemotePath root = RemotePaths.get("tar:" + tar(format, gzip) + "!/");
                assertThat(root.list().stream().map(DirEntry::name)).as(what)
                        .containsExactly("a.txt", "big.bin", "d".repeat(90), "hard.txt", "link");
                assertThat(root.resolve("a.txt").readString()).isEqualTo("alpha");
                assertThat(root.resolve("hard.txt").readString()).as(what).isEqualTo("alpha");
                assertThat(root.resolve("link").readSymbolicLink()).isEqualTo("a.txt");
                assertThat(root.resolve("link").readString()).isEqualTo("alpha");
                RemotePath deep = root.resolve("d".repeat(90), "e".repeat(40), "f".repeat(60) + ".txt");
                assertThat(deep.readString()).as(what).isEqualTo("deep and long");
                byte[] all = Files.readAllBytes(tmp.resolve("tree/big.bin"));
                assertThat(root.resolve("big.bin").readAllBytes()).isEqualTo(all);
                try (InputStream in = root.fileSystem().openRead(root.resolve("big.bin"), 1_000_000, 100)) {
                    assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(all, 1_000_000, 1_000_100));
                }
                Instant mtime = root.resolve("a.txt").stat().lastModified().orElseThrow();
                assertThat(mtime).as(what).isEqualTo(format.equals("pax") ? Instant.parse("2024-06-01T10:00:00.123456789Z")
                        : Instant.parse("2024-06-01T10:00:00Z"));
            }
        }
    }

    @Test
    void anEntryOfAPlainTarIsReadByItsRangeOnly() throws Exception {
        RemotePath counted = CountingFileSystem.counting(tar("pax", false));
        ArchiveFileSystem fs = ArchiveFileSystem.tar(counted);
        CountingFileSystem calls = CountingFileSystem.of(counted);
        calls.reset();
        assertThat(fs.path("/a.txt").readString()).isEqualTo("alpha");
        assertThat(calls.bytesRead()).isEqualTo(5);
    }

    @Test
    void aSyncFromATarMirrorsIt() throws Exception {
        RemotePath root = RemotePaths.get("tar:" + tar("pax", true) + "!/");
        RemotePath target = RemotePaths.get("mem://tar-" + UUID.randomUUID() + "/out");
        SyncReport r = PathSyncer.builder(root, target).build().run();
        assertThat(r.succeeded()).as(r.toString()).isTrue();
        assertThat(target.resolve("hard.txt").readString()).isEqualTo("alpha");
        assertThat(target.resolve("a.txt").stat().lastModified()).contains(Instant.parse("2024-06-01T10:00:00.123456789Z"));
        assertThat(PathSyncer.builder(root, target).build().run().filesCopied()).isZero();
    }

    @Test
    void hostileNamesAndEntriesAreRefused() throws Exception {
        TarWriter w = new TarWriter().file("ok.txt", "fine").file("sub/../../evil.txt", "evil").file("sub/ok.txt", "x")
                .entry("dev/null", '3', "", new byte[0], -1, false)
                .entry("hard-to-nothing", '1', "missing.txt", new byte[0], -1, false)
                .entry("up", '2', "../../etc/passwd", new byte[0], -1, false);
        Path file = Files.write(tmp.resolve("hostile.tar"), w.bytes());
        RemotePath root = RemotePaths.get("tar:" + RemotePaths.of(file) + "!/");
        assertThat(root.list().stream().map(DirEntry::name)).containsExactly("dev", "hard-to-nothing", "ok.txt", "sub", "up");
        assertThatThrownBy(() -> root.resolve("sub").list()).isInstanceOf(UnsafeNameException.class);
        assertThat(root.resolve("dev/null").stat().type()).isEqualTo(FileType.OTHER);
        assertThatThrownBy(() -> root.resolve("dev/null").readAllBytes()).isInstanceOf(FileSystemException.class);
        assertThatThrownBy(() -> root.resolve("hard-to-nothing").readAllBytes()).isInstanceOf(IOException.class)
                .hasMessageContaining("missing.txt");
        assertThatThrownBy(() -> root.resolve("up").readAllBytes()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("outside the archive");
    }

    @Test
    void corruptArchivesFailNamingTheOffset() throws Exception {
        Path bad = Files.write(tmp.resolve("bad.tar"), new TarWriter().entry("a", '0', "", new byte[10], -1, true).bytes());
        assertThatThrownBy(() -> RemotePaths.get("tar:" + RemotePaths.of(bad) + "!/")).isInstanceOf(IOException.class)
                .hasMessageContaining("offset 0").hasMessageContaining("not a tar archive");
        byte[] good = new TarWriter().file("a", "x".repeat(2000)).bytes();
        Path cut = Files.write(tmp.resolve("cut.tar"), java.util.Arrays.copyOf(good, 1000));
        assertThatThrownBy(() -> RemotePaths.get("tar:" + RemotePaths.of(cut) + "!/")).isInstanceOf(IOException.class);
        Path lying = Files.write(tmp.resolve("lying.tar"),
                new TarWriter().entry("a", '0', "", "short".getBytes(StandardCharsets.UTF_8), 1L << 40, false).bytes());
        assertThatThrownBy(() -> RemotePaths.get("tar:" + RemotePaths.of(lying) + "!/")).isInstanceOf(IOException.class)
                .hasMessageContaining("ends inside");
        Path empty = Files.write(tmp.resolve("empty.tar"), new byte[0]);
        assertThatThrownBy(() -> RemotePaths.get("tar:" + RemotePaths.of(empty) + "!/")).isInstanceOf(IOException.class);
        Path zip = Files.write(tmp.resolve("really.zip"), new ZipWriter().bytes());
        assertThatThrownBy(() -> RemotePaths.get("tar:" + RemotePaths.of(zip) + "!/")).isInstanceOf(IOException.class);
    }

    @Test
    void aTarOfMoreEntriesThanAListingMayHoldIsRefusedBeforeItFillsTheHeap() throws Exception {
        // 3,000 empty files compress to a few kilobytes: a small .tar.gz can hold millions
        TarWriter w = new TarWriter();
        for (int i = 0; i < 3000; i++) {
            w.file("f" + i, "");
        }
        Path gz = tmp.resolve("many.tar.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(w.bytes());
        }
        assertThat(Files.size(gz)).isLessThan(64 * 1024);
        String uri = "tar:" + RemotePaths.of(gz) + "!/";
        System.setProperty("remotepath.maxListingEntries", "2500");
        try {
            assertThatThrownBy(() -> RemotePaths.get(uri)).isInstanceOf(IOException.class)
                    .hasMessageContaining("many.tar.gz").hasMessageContaining("more than 2,500 entries")
                    .hasMessageContaining("-Dremotepath.maxListingEntries");
        } finally {
            System.clearProperty("remotepath.maxListingEntries");
        }
        assertThat(RemotePaths.get(uri).list()).as("read under the default bound").hasSize(3000);
    }

    @Test
    void extensionRecordsPiledBeforeOneEntryAreBounded() throws Exception {
        // each record alone is under the 1 MiB an extension may hold; new keys record after
        // record would otherwise pile up in memory before the entry they describe
        TarWriter w = new TarWriter();
        for (int i = 0; i < 3; i++) {
            w.entry("PaxHeader/f", 'x', "", paxRecord("k" + i, "v".repeat(500_000)), -1, false);
        }
        Path file = Files.write(tmp.resolve("piled.tar"), w.file("f", "x").bytes());
        assertThatThrownBy(() -> RemotePaths.get("tar:" + RemotePaths.of(file) + "!/")).isInstanceOf(IOException.class)
                .hasMessageContaining("extension records of more than 1048576 bytes in all");
        TarWriter two = new TarWriter().entry("PaxHeader/f", 'x', "", paxRecord("comment", "v".repeat(500_000)), -1, false)
                .entry("PaxHeader/f", 'x', "", paxRecord("mtime", "1700000000.5"), -1, false).file("f", "x");
        Path fine = Files.write(tmp.resolve("fine.tar"), two.bytes());
        assertThat(RemotePaths.get("tar:" + RemotePaths.of(fine) + "!/").resolve("f").readAllBytes()).hasSize(1);
    }

    /** One pax record, {@code "<length> key=value\n"}, its length counting its own digits. */
    private static byte[] paxRecord(String key, String value) {
        int body = 1 + key.length() + 1 + value.length() + 1;
        int length = body + String.valueOf(body).length();
        length = body + String.valueOf(length).length();
        return (length + " " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void mutatedTarsFailOnlyWithIOExceptions() throws Exception {
        byte[] good = new TarWriter().file("d/a.txt", "alpha").entry("d/l", '2', "a.txt", new byte[0], -1, false)
                .file("b.txt", "b".repeat(700)).bytes();
        RemotePath vol = RemotePaths.get("mem://tar-fuzz-" + UUID.randomUUID() + "/");
        Random random = new Random(7);
        List<String> surprises = new java.util.ArrayList<>();
        for (int round = 0; round < 2000; round++) {
            byte[] bad = good.clone();
            if (round % 3 == 2) {
                bad = java.util.Arrays.copyOf(bad, random.nextInt(bad.length));
            } else {
                for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
                    bad[random.nextInt(1536)] = (byte) (round % 3 == 0 ? random.nextInt(256) : 0xff);
                }
            }
            try {
                RemotePath root = RemotePaths.get("tar:" + vol.resolve("r" + round + ".tar").write(bad) + "!/");
                try (var walk = root.walk()) {
                    for (DirEntry e : walk.toList()) {
                        if (e.type() == FileType.FILE) {
                            e.path().readAllBytes();
                        }
                    }
                }
            } catch (IOException | java.io.UncheckedIOException expected) {
                // refused
            } catch (RuntimeException e) {
                surprises.add("round " + round + ": " + e);
            }
        }
        assertThat(surprises).isEmpty();
    }

    @Test
    void readingManyEntriesOfACompressedTarDecompressesItOnce() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("many"));
        Random random = new Random(11);
        for (int d = 0; d < 4; d++) {
            Files.createDirectories(root.resolve("d" + d));
            for (int f = 0; f < 50; f++) {
                byte[] b = new byte[random.nextInt(4096)];
                random.nextBytes(b);
                Files.write(root.resolve("d" + d + "/f" + f), b);
            }
        }
        Path tgz = tmp.resolve("many.tgz");
        Process p = new ProcessBuilder("tar", "-czf", tgz.toString(), "-C", root.toString(), ".")
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
        java.util.Set<Path> before = copies();

        RemotePath counted = CountingFileSystem.counting(RemotePaths.of(tgz));
        ArchiveFileSystem fs = ArchiveFileSystem.tar(counted);
        RemotePath target = RemotePaths.get("mem://tar-many-" + UUID.randomUUID() + "/out");
        SyncReport r = PathSyncer.builder(fs.path("/"), target).build().run();
        assertThat(r.filesCopied()).as(r.toString()).isEqualTo(200);
        assertThat(target.resolve("d3/f49").readAllBytes()).isEqualTo(Files.readAllBytes(root.resolve("d3/f49")));
        CountingFileSystem calls = CountingFileSystem.of(counted);
        // the index, and one decompressed copy every entry is read from: not a decompression per entry
        assertThat(calls.count(CountingFileSystem.Call.OPEN_READ)).as(calls.toString()).isEqualTo(2);
        java.util.Set<Path> during = copies();
        during.removeAll(before);
        assertThat(during).hasSize(1);
        fs.close();
        assertThat(Files.exists(during.iterator().next())).as("the copy is deleted with its file system").isFalse();
    }

    private static java.util.Set<Path> copies() throws IOException {
        try (java.util.stream.Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(q -> q.getFileName().toString().startsWith("rpath-tar-"))
                    .collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
        }
    }
}
