package dev.remotepath.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.local.linux.LinuxDirectoryLister;
import dev.remotepath.local.linux.LinuxSyscalls;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The FFM lister reports exactly what NIO's attribute reads report, field by field. */
class ListerEquivalenceTest {

    @TempDir
    Path temp;

    private LinuxDirectoryLister ffm;

    @BeforeEach
    void bind() {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "FFM lister is Linux-only");
        ffm = new LinuxDirectoryLister(LinuxSyscalls.load());
    }

    private Map<String, FileStat> listFfm(Path dir, ListDetail detail) throws Exception {
        RemotePath rp = RemotePaths.of(dir);
        Map<String, FileStat> out = new HashMap<>();
        try (DirectoryListing l = ffm.list(rp, dir.toString().getBytes(StandardCharsets.UTF_8), detail)) {
            while (l.hasNext()) {
                ListedEntry e = l.next();
                out.put(e.name(), e.stat());
            }
        }
        return out;
    }

    @Test
    void fullStatsMatchNio() throws Exception {
        Files.writeString(temp.resolve("file.txt"), "hello");
        Files.setLastModifiedTime(temp.resolve("file.txt"), FileTime.from(Instant.parse("2024-02-29T13:37:42.123456789Z")));
        Files.createDirectory(temp.resolve("dir"));
        Files.createSymbolicLink(temp.resolve("link"), Path.of("file.txt"));
        Files.createSymbolicLink(temp.resolve("broken"), Path.of("nowhere"));
        Files.write(temp.resolve("empty"), new byte[0]);
        Map<String, FileStat> listed = listFfm(temp, ListDetail.ALL_STATS);
        assertThat(listed).containsOnlyKeys("file.txt", "dir", "link", "broken", "empty");
        for (var e : listed.entrySet()) {
            Path p = temp.resolve(e.getKey());
            PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            FileStat s = e.getValue();
            assertThat(s.size()).as(e.getKey()).hasValue(a.size());
            assertThat(s.lastModified()).as(e.getKey()).hasValue(a.lastModifiedTime().toInstant());
            assertThat(s.lastAccess()).as(e.getKey()).hasValue(a.lastAccessTime().toInstant());
            assertThat(s.permissions()).as(e.getKey()).hasValue(a.permissions());
            assertThat(s.fileKey()).as(e.getKey()).hasValue(a.fileKey().toString());
            assertThat(s.type().name()).as(e.getKey()).isEqualTo(a.isSymbolicLink() ? "SYMLINK"
                    : a.isDirectory() ? "DIRECTORY" : a.isRegularFile() ? "FILE" : "OTHER");
        }
        assertThat(listed.get("file.txt").lastModified()).hasValue(Instant.parse("2024-02-29T13:37:42.123456789Z"));
    }

    @Test
    void parallelStatsOfALargeDirectoryMatchSerialOnes() throws Exception {
        for (int i = 0; i < 3000; i++) {
            Files.writeString(temp.resolve("f" + i), "x".repeat(i % 97));
        }
        for (int i = 0; i < 300; i++) {
            Files.createDirectory(temp.resolve("d" + i));
        }
        Map<String, FileStat> parallel = listFfm(temp, ListDetail.ALL_STATS);
        ffm = new LinuxDirectoryLister(LinuxSyscalls.load(), 1);
        Map<String, FileStat> serial = listFfm(temp, ListDetail.ALL_STATS);
        assertThat(parallel).hasSize(3300).isEqualTo(serial);
        assertThat(parallel.get("f96").size()).hasValue(96);
        assertThat(parallel.get("d7").type()).isEqualTo(FileType.DIRECTORY);
    }

    @Test
    void typesOnlyAsksForNoStat() throws Exception {
        Files.writeString(temp.resolve("f"), "x");
        Files.createDirectory(temp.resolve("d"));
        Map<String, FileStat> listed = listFfm(temp, ListDetail.TYPES);
        assertThat(listed.get("f").type()).isEqualTo(FileType.FILE);
        assertThat(listed.get("f").size()).isEmpty();
        assertThat(listed.get("d").type()).isEqualTo(FileType.DIRECTORY);
    }

    @Test
    void fileStatsStatsFilesAndDirectoriesOnly() throws Exception {
        Files.writeString(temp.resolve("f"), "xyz");
        Files.createDirectory(temp.resolve("d"));
        Files.setLastModifiedTime(temp.resolve("d"), java.nio.file.attribute.FileTime.from(java.time.Instant.parse("2020-01-02T03:04:05Z")));
        Files.createSymbolicLink(temp.resolve("l"), temp.resolve("f"));
        Map<String, FileStat> listed = listFfm(temp, ListDetail.FILE_STATS);
        assertThat(listed.get("f").size()).hasValue(3);
        // A directory's time, for copies and syncs to give it to the target's
        assertThat(listed.get("d").lastModified()).hasValue(java.time.Instant.parse("2020-01-02T03:04:05Z"));
        assertThat(listed.get("l").lastModified()).isEmpty(); // links: their type alone
    }

    @Test
    void nioUriOfRawNameMatchesFfmName() throws Exception {
        Path raw = Path.of(URI.create("file://" + temp + "/bad%FF%FEname"));
        Files.writeString(raw, "x");
        assertThat(listFfm(temp, ListDetail.TYPES)).containsOnlyKeys("bad\udcff\udcfename");
    }
}
