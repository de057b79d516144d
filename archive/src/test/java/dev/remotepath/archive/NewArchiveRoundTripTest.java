package dev.remotepath.archive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random trees written into new archives and read back: every name (long, deep, not ASCII, not
 * UTF-8), size (around the 1 MiB an entry keeps in memory) and time (before 1970, before 1980,
 * after 2107, past ustar's octal range) comes back as it went in, to the format's precision.
 */
class NewArchiveRoundTripTest {

    @TempDir
    Path tmp;

    private static final String[] PARTS = {"a", "b.txt", "é", "日本語", "caf\uDCE9", "x".repeat(99), "y".repeat(140),
        "with space", "semi;colon", "%41", "dash-", "emoji-\uD83D\uDE00"};

    private static String name(Random r) {
        return PARTS[r.nextInt(PARTS.length)] + (r.nextBoolean() ? "" : "-" + r.nextInt(1000));
    }

    private static Instant time(Random r) {
        long[] seconds = {-86_400L * 400, 0, 315_532_800L - 1, 1_700_000_000L, 4_354_819_200L + 86_400, 1L << 34,
            r.nextLong(0, 2_000_000_000L)};
        return Instant.ofEpochSecond(seconds[r.nextInt(seconds.length)], r.nextInt(1_000_000_000));
    }

    @ParameterizedTest
    @ValueSource(strings = {"zip", "tar", "tgz"})
    void randomTreesComeBackAsTheyWentIn(String format) throws Exception {
        for (int seed = 0; seed < 6; seed++) {
            Random r = new Random(seed * 31L + format.hashCode());
            Path out = tmp.resolve("t" + seed + (format.equals("zip") ? ".zip" : format.equals("tar") ? ".tar" : ".tgz"));
            NewArchiveFileSystem fs = format.equals("zip") ? NewArchiveFileSystem.zip(RemotePaths.of(out))
                    : NewArchiveFileSystem.tar(RemotePaths.of(out));
            TreeMap<String, Object> expected = new TreeMap<>(); // path -> byte[] content, Instant (dir), String (link)
            List<String> dirs = new ArrayList<>(List.of(""));
            fs.path("/").createDirectory();
            for (int i = 0; i < 60; i++) {
                String parent = dirs.get(r.nextInt(dirs.size()));
                String path = parent + "/" + name(r);
                if (expected.containsKey(path) || path.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 900) {
                    continue;
                }
                int kind = r.nextInt(10);
                if (kind < 2) {
                    fs.path(path).createDirectory();
                    Instant t = time(r);
                    fs.path(path).setLastModifiedTime(t);
                    expected.put(path, t);
                    dirs.add(path);
                } else if (kind < 3) {
                    String target = name(r);
                    fs.path(path).createSymbolicLink(target);
                    expected.put(path, target);
                } else {
                    int size = r.nextInt(10) == 0 ? EntryContent.MEMORY_LIMIT - 2 + r.nextInt(5) : r.nextInt(3000);
                    byte[] content = new byte[size];
                    r.nextBytes(content);
                    Instant t = time(r);
                    try (var o = fs.openWrite(fs.path(path), dev.remotepath.spi.WriteMode.CREATE_NEW, t)) {
                        o.write(content);
                    }
                    expected.put(path, new Object[] {content, t});
                }
            }
            fs.close();

            RemotePath root = RemotePaths.get((format.equals("zip") ? "zip:" : "tar:") + out.toUri() + "!/");
            Duration precision = format.equals("zip") ? Duration.ofNanos(100) : Duration.ofSeconds(1);
            TreeMap<String, Object> seen = new TreeMap<>();
            try (var walk = root.walk()) {
                for (DirEntry e : (Iterable<DirEntry>) walk::iterator) {
                    String p = e.path().pathString();
                    if (p.equals("/")) {
                        continue;
                    }
                    seen.put(p, e.type());
                }
            }
            assertThat(seen.keySet()).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(expected.keySet());
            for (var x : expected.entrySet()) {
                RemotePath p = root.resolve(x.getKey().substring(1));
                FileStat st = p.stat(java.nio.file.LinkOption.NOFOLLOW_LINKS);
                if (x.getValue() instanceof Object[] file) {
                    assertThat(st.type()).isEqualTo(FileType.FILE);
                    assertThat(p.readAllBytes()).as(x.getKey()).isEqualTo((byte[]) file[0]);
                    assertThat(st.lastModified()).as(x.getKey()).hasValue(truncated((Instant) file[1], precision));
                } else if (x.getValue() instanceof Instant t) {
                    assertThat(st.type()).isEqualTo(FileType.DIRECTORY);
                    assertThat(st.lastModified()).as(x.getKey()).hasValue(truncated(t, precision));
                } else {
                    assertThat(st.type()).isEqualTo(FileType.SYMLINK);
                    assertThat(p.readSymbolicLink()).isEqualTo(x.getValue());
                }
            }
            root.fileSystem().close();
        }
    }

    private static Instant truncated(Instant t, Duration precision) {
        long nanos = Math.floorMod(t.getNano(), precision.toNanos());
        return t.minusNanos(nanos);
    }
}
