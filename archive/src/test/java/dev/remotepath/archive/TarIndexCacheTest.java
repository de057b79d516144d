package dev.remotepath.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.testkit.CountingFileSystem;
import dev.remotepath.testkit.CountingFileSystem.Call;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tar indexes kept across processes ({@link TarIndexCache}): an unchanged archive is not read
 * again to be indexed, a changed one is, and a cache file that lies is ignored or checked as any
 * listing is. A "later process" is a new file system on a new backend instance: nothing but the
 * cache's folder is shared.
 */
class TarIndexCacheTest {

    @TempDir
    Path tmp;

    private Path tar(String name, boolean gzip, String content) throws Exception {
        Path root = Files.createDirectories(tmp.resolve(name + "-tree"));
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("a.txt"), content);
        Files.writeString(root.resolve("sub/b.txt"), "bravo");
        Files.createSymbolicLink(root.resolve("link"), Path.of("a.txt"));
        byte[] big = new byte[1 << 20];
        new Random(7).nextBytes(big);
        Files.write(root.resolve("sub/big.bin"), big);
        Path out = tmp.resolve(name + (gzip ? ".tgz" : ".tar"));
        Process p = new ProcessBuilder("tar", "--format=pax", gzip ? "-czf" : "-cf", out.toString(), "-C",
                root.toString(), ".").redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(log).isZero();
        return out;
    }

    /** Opens the archive as a new process would: a new backend instance, counted. */
    private static RemotePath fresh(Path archive) throws IOException {
        return CountingFileSystem.counting(RemotePaths.of(archive));
    }

    private static List<String> listing(ArchiveFileSystem fs) throws IOException {
        return fs.path("/").walk().map(e -> e.path().toString().replaceFirst("^.*!", "") + " " + e.stat().type() + " "
                + e.stat().size().orElse(-1) + " " + e.stat().lastModified().orElse(Instant.EPOCH)).sorted().toList();
    }

    @Test
    void anUnchangedTarIsNotReadAgainToBeIndexedByTheNextProcess() throws Exception {
        for (boolean gzip : new boolean[] {false, true}) {
            Path archive = tar(gzip ? "z" : "p", gzip, "alpha");
            RemotePath first = fresh(archive);
            ArchiveFileSystem fs = ArchiveFileSystem.tar(first);
            List<String> indexed = listing(fs);
            fs.close();
            assertThat(CountingFileSystem.of(first).count(Call.OPEN_READ)).isEqualTo(1);
            assertThat(indexed).hasSize(5);

            RemotePath second = fresh(archive);
            ArchiveFileSystem again = ArchiveFileSystem.tar(second);
            assertThat(listing(again)).isEqualTo(indexed);
            assertThat(CountingFileSystem.of(second).count(Call.OPEN_READ)).as("gzip " + gzip).isZero();
            assertThat(again.path("/a.txt").readString()).isEqualTo("alpha");
            assertThat(again.path("/link").readString()).isEqualTo("alpha");
            assertThat(again.path("/sub/big.bin").readAllBytes())
                    .isEqualTo(Files.readAllBytes(tmp.resolve((gzip ? "z" : "p") + "-tree/sub/big.bin")));
            again.close();
        }
    }

    @Test
    void aReplacedArchiveIsIndexedAnew() throws Exception {
        Path archive = tar("r", false, "alpha");
        ArchiveFileSystem fs = ArchiveFileSystem.tar(fresh(archive));
        assertThat(fs.path("/a.txt").readString()).isEqualTo("alpha");
        fs.close();

        Path other = tar("r2", false, "ALPHA"); // the same size and names, other bytes
        Files.move(other, archive, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        RemotePath second = fresh(archive);
        ArchiveFileSystem again = ArchiveFileSystem.tar(second);
        assertThat(again.path("/a.txt").readString()).isEqualTo("ALPHA");
        assertThat(CountingFileSystem.of(second).count(Call.OPEN_READ)).as("indexed, then a.txt read").isEqualTo(2);
        again.close();
    }

    @Test
    void aCorruptOrTruncatedIndexIsIgnoredAndReplaced() throws Exception {
        Path archive = tar("c", false, "alpha");
        RemotePath first = fresh(archive);
        ArchiveFileSystem fs = ArchiveFileSystem.tar(first);
        List<String> indexed = listing(fs);
        fs.close();
        Path kept = TarIndexCache.file(first, first.stat()).orElseThrow();
        byte[] good = Files.readAllBytes(kept);

        for (int cut : new int[] {0, 7, good.length / 2, good.length - 1}) {
            Files.write(kept, Arrays.copyOf(good, cut));
            RemotePath next = fresh(archive);
            ArchiveFileSystem reread = ArchiveFileSystem.tar(next);
            assertThat(listing(reread)).as("cut at " + cut).isEqualTo(indexed);
            assertThat(CountingFileSystem.of(next).count(Call.OPEN_READ)).as("cut at " + cut).isEqualTo(1);
            reread.close();
            assertThat(Files.readAllBytes(kept)).as("rewritten whole").isEqualTo(good);
        }
        byte[] flipped = good.clone();
        flipped[good.length / 3] ^= 0x20;
        Files.write(kept, flipped);
        RemotePath next = fresh(archive);
        ArchiveFileSystem reread = ArchiveFileSystem.tar(next);
        assertThat(listing(reread)).isEqualTo(indexed);
        assertThat(CountingFileSystem.of(next).count(Call.OPEN_READ)).isEqualTo(1);
        reread.close();
    }

    @Test
    void everyPrefixOfAnIndexFileIsRefusedAsAnIOException() throws Exception {
        List<TarFormat.TarEntry> entries = List.of(
                new TarFormat.TarEntry("a\uD800b", FileType.FILE, 5, Optional.of(Instant.parse("1901-01-01T00:00:00.5Z")),
                        Duration.ofNanos(1), 0644, "", 0, 512, false, true),
                new TarFormat.TarEntry("l", FileType.SYMLINK, 1, Optional.empty(), Duration.ofSeconds(1), 0777, "a", 1024,
                        1536, false, true));
        byte[] bytes = TarIndexCache.encode("key", entries);
        assertThat(TarIndexCache.decode(bytes, "key")).isEqualTo(entries);
        assertThatThrownBy(() -> TarIndexCache.decode(bytes, "another key")).isInstanceOf(IOException.class);
        for (int cut = 0; cut < bytes.length; cut++) {
            byte[] prefix = Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> TarIndexCache.decode(prefix, "key")).as("cut at " + cut).isInstanceOf(IOException.class);
        }
    }

    @Test
    void namesFromAForgedIndexAreCheckedAsAnArchivesOwnAre() throws Exception {
        Path archive = tar("f", false, "alpha");
        RemotePath first = fresh(archive);
        ArchiveFileSystem.tar(first).close();
        FileStat stat = first.stat();
        Path kept = TarIndexCache.file(first, stat).orElseThrow();
        // a cache file with a valid CRC and the right key, naming an entry outside the archive
        Files.write(kept, TarIndexCache.encode(TarIndexCache.key(first, stat), List.of(
                new TarFormat.TarEntry("../../evil", FileType.FILE, 5, Optional.empty(), Duration.ofSeconds(1), 0644, "", 0,
                        512, false, false))));
        ArchiveFileSystem forged = ArchiveFileSystem.tar(fresh(archive));
        assertThatThrownBy(() -> forged.path("/").list()).isInstanceOf(UnsafeNameException.class);
        forged.close();
    }

    @Test
    void archivesThatLiveInOneProcessAreNotCached() throws Exception {
        Path archive = tar("m", false, "alpha");
        RemotePath mem = RemotePaths.get("mem://tar-index-" + java.util.UUID.randomUUID() + "/m.tar");
        mem.parent().createDirectories();
        mem.write(Files.readAllBytes(archive));
        assertThat(TarIndexCache.file(mem, mem.stat())).isEmpty();
        ArchiveFileSystem fs = ArchiveFileSystem.tar(mem);
        assertThat(fs.path("/a.txt").readString()).isEqualTo("alpha");
        fs.close();
        assertThat(TarIndexCache.file(RemotePaths.of(archive), RemotePaths.of(archive).stat())).isPresent();
    }

    @Test
    void theFolderIsTheConfiguredOneOrNone() {
        String before = System.getProperty(TarIndexCache.PROPERTY);
        try {
            System.setProperty(TarIndexCache.PROPERTY, "off");
            assertThat(TarIndexCache.directory()).isEmpty();
            System.setProperty(TarIndexCache.PROPERTY, tmp.toString());
            assertThat(TarIndexCache.directory()).contains(tmp);
            System.clearProperty(TarIndexCache.PROPERTY);
            assertThat(TarIndexCache.directory().orElseThrow().endsWith(Path.of("remotepath", "archive-index"))).isTrue();
        } finally {
            if (before == null) {
                System.clearProperty(TarIndexCache.PROPERTY);
            } else {
                System.setProperty(TarIndexCache.PROPERTY, before);
            }
        }
    }
}
