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
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
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
            try (Stream<Path> all = Files.walk(work)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    // ------------------------------------------------------------------ servers

    private record Running(Process process, int port, Path log) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            process.destroy();
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static boolean installed(String binary) {
        return Files.isExecutable(Path.of(binary));
    }

    private static void requireInstalled(String server, String binary) {
        if (!installed(binary)) {
            String why = server + " is not installed (" + binary + "); .ci/run installs it";
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(why);
            }
            assumeTrue(false, why);
        }
    }

    private static Running start(String server) throws Exception {
        int port = freePort();
        Path run = Files.createDirectories(work.resolve("run-" + server + "-" + UUID.randomUUID()));
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path log = run.resolve("server.log");
        List<String> cmd;
        switch (server) {
            case "python" -> {
                requireInstalled(server, "/usr/bin/python3");
                cmd = List.of("/usr/bin/python3", "-m", "http.server", String.valueOf(port), "--bind", "127.0.0.1",
                        "--directory", tree.toString());
            }
            case "nginx" -> {
                requireInstalled(server, "/usr/sbin/nginx");
                Files.createDirectories(run.resolve("tmp"));
                Path conf = run.resolve("nginx.conf");
                Files.writeString(conf, """
                        worker_processes 1;
                        pid %1$s/nginx.pid;
                        error_log %1$s/error.log;
                        events { worker_connections 64; }
                        http {
                          access_log off;
                          client_body_temp_path %1$s/tmp; proxy_temp_path %1$s/tmp; fastcgi_temp_path %1$s/tmp;
                          uwsgi_temp_path %1$s/tmp; scgi_temp_path %1$s/tmp;
                          server { listen 127.0.0.1:%2$d; root %3$s; autoindex on; }
                        }
                        """.formatted(run, port, tree));
                cmd = List.of("/usr/sbin/nginx", "-p", run.toString(), "-e", run.resolve("error.log").toString(), "-c",
                        conf.toString(), "-g", "daemon off;");
            }
            case "apache2" -> {
                requireInstalled(server, "/usr/sbin/apache2");
                Path conf = run.resolve("httpd.conf");
                String modules = "/usr/lib/apache2/modules";
                Files.writeString(conf, """
                        ServerRoot %1$s
                        Listen 127.0.0.1:%2$d
                        ServerName localhost
                        PidFile %1$s/httpd.pid
                        ErrorLog %1$s/error.log
                        Mutex file:%1$s default
                        LoadModule mpm_event_module %4$s/mod_mpm_event.so
                        LoadModule authz_core_module %4$s/mod_authz_core.so
                        LoadModule dir_module %4$s/mod_dir.so
                        LoadModule autoindex_module %4$s/mod_autoindex.so
                        LoadModule mime_module %4$s/mod_mime.so
                        TypesConfig /etc/mime.types
                        ServerLimit 2
                        StartServers 1
                        ThreadsPerChild 25
                        MaxRequestWorkers 50
                        User nobody
                        Group nogroup
                        DocumentRoot "%3$s"
                        <Directory "%3$s">
                          Options Indexes
                          Require all granted
                          IndexOptions FancyIndexing HTMLTable NameWidth=* Charset=UTF-8
                        </Directory>
                        """.formatted(run, port, tree, modules));
                cmd = List.of("/usr/sbin/apache2", "-d", run.toString(), "-f", conf.toString(), "-D", "FOREGROUND");
            }
            case "lighttpd" -> {
                requireInstalled(server, "/usr/sbin/lighttpd");
                Path conf = run.resolve("lighttpd.conf");
                Files.writeString(conf, """
                        server.document-root = "%3$s"
                        server.bind = "127.0.0.1"
                        server.port = %2$d
                        server.errorlog = "%1$s/error.log"
                        server.username = "nobody"
                        server.groupname = "nogroup"
                        server.modules = ("mod_dirlisting")
                        dir-listing.activate = "enable"
                        mimetype.assign = (".txt" => "text/plain", "" => "application/octet-stream")
                        """.formatted(run, port, tree));
                // lighttpd drops to nobody before opening its log: the run directory must be nobody's.
                new ProcessBuilder("chown", "-R", "nobody:nogroup", run.toString()).start().waitFor();
                cmd = List.of("/usr/sbin/lighttpd", "-D", "-f", conf.toString());
            }
            case "caddy" -> {
                requireInstalled(server, "/usr/bin/caddy");
                Path conf = run.resolve("Caddyfile");
                Files.writeString(conf, """
                        {
                          admin off
                          auto_https off
                        }
                        http://127.0.0.1:%2$d {
                          bind 127.0.0.1
                          root * "%3$s"
                          file_server browse
                        }
                        """.formatted(run, port, tree));
                cmd = List.of("/usr/bin/caddy", "run", "--config", conf.toString(), "--adapter", "caddyfile");
            }
            default -> throw new IllegalArgumentException(server);
        }
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        // Caddy writes state under HOME and XDG directories: keep it in the run directory.
        builder.environment().put("HOME", run.toString());
        builder.environment().put("XDG_DATA_HOME", run.resolve("data").toString());
        builder.environment().put("XDG_CONFIG_HOME", run.resolve("config").toString());
        Process p = builder.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return new Running(p, port, log);
            } catch (IOException notYet) {
                if (!p.isAlive()) {
                    break;
                }
                Thread.sleep(100);
            }
        }
        p.destroyForcibly();
        String out = Files.exists(log) ? Files.readString(log) : "";
        Path errors = run.resolve("error.log");
        if (Files.exists(errors)) {
            out += Files.readString(errors);
        }
        throw new AssertionError(server + " did not start on port " + port + ":\n" + out);
    }

    // ------------------------------------------------------------------ the checks

    @ParameterizedTest
    @ValueSource(strings = {"python", "nginx", "apache2", "lighttpd", "caddy"})
    void walkMatchesFind(String server) throws Exception {
        try (Running s = start(server)) {
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
                    long tolerance = st.sizeExact() ? 0 : Math.max(103, size / 20);
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
    @ValueSource(strings = {"python", "nginx", "apache2", "lighttpd", "caddy"})
    void syncFromTheServerMirrorsTheTree(String server) throws Exception {
        try (Running s = start(server)) {
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
