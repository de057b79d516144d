package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.WalkOptions;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.LocalWebServers;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The backend against the real servers people share files with: nginx (autoindex), Apache
 * httpd (FancyIndexing tables), lighttpd (dir-listing), Caddy (browse, answering JSON) and
 * Python's http.server, each started
 * here on 127.0.0.1 with a generated configuration over a generated tree. Every entry walked
 * is checked against {@code find}: names, types, sizes (exact, or within a rounded column's
 * precision) and modification times (within the page's precision). {@code .ci/run} installs
 * the servers; elsewhere a missing one is skipped, saying so.
 */
class RealServersTest {

    private static Path work;
    private static Path tree;
    private static Map<String, String[]> truth;

    /** Names every one of these servers serves and lists (the fixtures show each of them). */
    private static final List<String> NAMES = List.of("plain.txt", "with space.txt", "café.txt", "日本語.txt", "emoji 😀.txt",
            "percent%.txt", "literal%20.txt", "hash#.txt", "question?.txt", "amp&.txt", "plus+.txt", "semi;colon.txt",
            "eq=comma,.txt", "quote'.txt", "[brackets].txt", "noext");

    @BeforeAll
    static void tree() throws Exception {
        work = Files.createTempDirectory("rp-real-");
        tree = Files.createDirectories(work.resolve("tree"));
        Instant t = Instant.parse("2024-02-29T13:37:42Z");
        int i = 0;
        for (String name : NAMES) {
            write(tree.resolve(name), 10 + i * 97, t.plusSeconds(i * 3600L));
            i++;
        }
        write(tree.resolve("big.bin"), 1_500_000, t);
        write(tree.resolve("sub dir/inner.txt"), 123, t);
        write(tree.resolve("sub dir/deeper/x#y.txt"), 4567, t.minusSeconds(86400 * 400L));
        Files.createDirectories(tree.resolve("empty"));
        write(tree.resolve(".hidden"), 5, t);
        try (Stream<Path> all = Files.walk(work)) {
            for (Path p : all.toList()) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        // Directory mtimes last: writing into them changed them.
        for (Path d : List.of(tree.resolve("sub dir/deeper"), tree.resolve("sub dir"), tree.resolve("empty"))) {
            Files.setLastModifiedTime(d, FileTime.from(t));
        }
        truth = find(tree);
    }

    private static void write(Path p, int size, Instant mtime) throws IOException {
        Files.createDirectories(p.getParent());
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        Files.write(p, b);
        Files.setLastModifiedTime(p, FileTime.from(mtime));
    }

    /** relative path -> {type f/d, size, mtime epoch seconds} from find(1). */
    private static Map<String, String[]> find(Path root) throws Exception {
        Process p = new ProcessBuilder("find", root.toString(), "-mindepth", "1", "-printf", "%P\\t%y\\t%s\\t%T@\\n").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        Map<String, String[]> m = new TreeMap<>();
        out.lines().forEach(l -> {
            String[] f = l.split("\t");
            m.put(f[0], new String[] {f[1], f[2], f[3]});
        });
        return m;
    }

    @AfterAll
    static void clean() throws IOException {
        if (work != null) {
            LocalTrees.delete(work);
        }
    }

    // ------------------------------------------------------------------ servers

    /** Starts a server over the test tree; a missing one is skipped here and fails in CI. */
    private static LocalWebServers.Running start(String server) throws Exception {
        try {
            return LocalWebServers.start(server, tree, work);
        } catch (LocalWebServers.NotInstalledException e) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(e.getMessage());
            }
            assumeTrue(false, e.getMessage());
            throw e;
        }
    }

    // ------------------------------------------------------------------ the checks

    @ParameterizedTest
    @ValueSource(strings = {"python", "nginx", "apache2", "lighttpd", "caddy", "mini_httpd", "http-server", "serve"})
    void walkMatchesFind(String server) throws Exception {
        try (LocalWebServers.Running s = start(server)) {
            RemotePath root = RemotePaths.get("http://127.0.0.1:" + s.port() + "/");
            Map<String, FileStat> walked = new TreeMap<>();
            try (Stream<DirEntry> all = root.walk(WalkOptions.defaults().withDetail(ListDetail.FILE_STATS))) {
                all.forEach(e -> walked.put(root.relativize(e.path()).pathString(), e.stat()));
            }
            Map<String, String[]> expected = new TreeMap<>(truth);
            expected.keySet().removeIf(k -> k.startsWith(".") || k.contains("/."));
            walked.keySet().removeIf(k -> k.startsWith(".") || k.contains("/."));
            assertThat(walked.keySet()).as("entries served by " + server).containsExactlyElementsOf(expected.keySet());
            for (var e : walked.entrySet()) {
                String[] t = expected.get(e.getKey());
                FileStat st = e.getValue();
                assertThat(st.type()).as(e.getKey()).isEqualTo(t[0].equals("d") ? FileType.DIRECTORY : FileType.FILE);
                if (t[0].equals("f") && st.size().isPresent()) {
                    long size = Long.parseLong(t[1]);
                    // A rounded column is within 5 %, or within one unit where it shows whole units
                    // ("1 KB" for 1,368 bytes: serve).
                    long unit = size >= 1L << 20 ? 1L << 20 : size >= 1024 ? 1024 : 1;
                    long tolerance = st.sizeExact() ? 0 : Math.max(Math.max(103, size / 20), unit);
                    assertThat(Math.abs(st.size().getAsLong() - size)).as("size of %s on %s", e.getKey(), server)
                            .isLessThanOrEqualTo(tolerance);
                }
                if (st.lastModified().isPresent()) {
                    Instant mtime = Instant.ofEpochSecond(new BigDecimal(t[2]).longValue());
                    assertThat(Duration.between(mtime, st.lastModified().get()).abs()).as("mtime of %s on %s", e.getKey(), server)
                            .isLessThan(st.lastModifiedPrecision().plusSeconds(1));
                }
            }
            if (server.equals("caddy")) {
                // Asked for JSON, Caddy gives exact sizes and nanosecond times (its HTML would not).
                assertThat(walked.values()).filteredOn(FileStat::isRegularFile).allSatisfy(st -> {
                    assertThat(st.sizeExact()).isTrue();
                    assertThat(st.lastModifiedPrecision()).isLessThan(Duration.ofSeconds(1));
                });
            }
            // Reads, with an offset, of a file whose name needs encoding.
            RemotePath hash = root.resolve("sub dir/deeper/x#y.txt");
            assertThat(hash.stat().size()).hasValue(4567);
            byte[] whole = Files.readAllBytes(tree.resolve("sub dir/deeper/x#y.txt"));
            try (InputStream in = hash.newInputStream(4500)) {
                assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(whole, 4500, whole.length));
            }
            assertThat(root.resolve("emoji 😀.txt").readAllBytes()).isEqualTo(Files.readAllBytes(tree.resolve("emoji 😀.txt")));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"python", "nginx", "apache2", "lighttpd", "caddy", "mini_httpd", "http-server", "serve"})
    void syncFromTheServerMirrorsTheTree(String server) throws Exception {
        try (LocalWebServers.Running s = start(server)) {
            RemotePath root = RemotePaths.get("http://127.0.0.1:" + s.port() + "/");
            RemotePath target = RemotePaths.get("mem://real-" + server + "-" + UUID.randomUUID() + "/mirror");
            SyncReport r = PathSyncer.builder(root, target).build().run();
            assertThat(r.errors()).isEmpty();
            for (var e : truth.entrySet()) {
                if (e.getKey().startsWith(".") || !e.getValue()[0].equals("f")) {
                    continue;
                }
                assertThat(target.resolve(e.getKey()).readAllBytes()).as(e.getKey())
                        .isEqualTo(Files.readAllBytes(tree.resolve(e.getKey())));
            }
            SyncReport again = PathSyncer.builder(root, target).build().run();
            assertThat(again.filesCopied()).as("no-op resync from " + server).isZero();
            assertThat(again.contentBytesRead()).isZero();
            target.fileSystem().close();
        }
    }
}
