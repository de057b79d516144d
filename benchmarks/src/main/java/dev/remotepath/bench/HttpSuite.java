package dev.remotepath.bench;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.WalkOptions;
import dev.remotepath.http.index.IndexPageParser;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.testkit.CountingFileSystem;
import dev.remotepath.testkit.LocalWebServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Index-page parsing on the 1000-entry pages pathlib_next benchmarks on, and a walk of a
 * 1000-file tree served by loopback nginx (requests counted: one list per directory, no HEAD).
 */
final class HttpSuite implements Suite {

    private static final String[][] PAGES = {
        {"apache-pre", "bench8_apache_pre_1000.html"},
        {"apache-table", "bench9_table_1000.html"},
        {"nginx", "nginx_autoindex_pre_1000.html"}};

    /**
     * The three pages are one group, so the harness interleaves them: the JIT compiles the
     * parser having seen all three layouts, as in any program that lists more than one server,
     * and one run's figures for the three come from one compiled state (JMH, a JVM per page, is
     * the isolated view: IndexPageParseBenchmark).
     */
    private static final String PARSE_GROUP = "parse-1000-entry-page";

    private final List<byte[]> pages = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private Process nginx;
    private RemotePath served;

    @Override
    public String name() {
        return "http";
    }

    @Override
    public String description() {
        return "index-page parse time on 1000-entry pages; walk of 1000 files over loopback nginx";
    }

    @Override
    public void prepare(Path fixtures) throws Exception {
        Path dir = Path.of("http", "src", "test", "resources", "http-bench");
        if (!Files.isDirectory(dir)) {
            throw new IOException("run from the repository root: " + dir + " holds the benchmark pages");
        }
        for (String[] p : PAGES) {
            byte[] body = Files.readAllBytes(dir.resolve(p[1]));
            int n = parse(body);
            if (n < 1000) {
                throw new IllegalStateException(p[1] + " parsed to " + n + " entries, expected 1000");
            }
            pages.add(body);
        }
        notes.add("pathlib_next 0.9.1 on this kind of machine (fixtures README): 18.0 ms (Apache pre), 29.5 ms "
                + "(table), 15.4 ms (nginx) per parse");
        startNginx(fixtures);
    }

    private static int parse(byte[] body) throws IOException {
        return IndexPageParser.parse(body, body.length, "text/html", "/files/", "http", "127.0.0.1:8080", "bench")
                .entries().size();
    }

    private void startNginx(Path fixtures) throws Exception {
        if (!Files.isExecutable(Path.of("/usr/sbin/nginx"))) {
            notes.add("nginx not installed: the walk case is left out");
            return;
        }
        Path tree = fixtures.resolve("tree-10x100");
        if (!Files.exists(fixtures.resolve("tree-10x100.complete"))) {
            for (int d = 0; d < 10; d++) {
                Path sub = Files.createDirectories(tree.resolve("dir" + d));
                for (int f = 0; f < 100; f++) {
                    Files.writeString(sub.resolve("file" + f + ".txt"), "content " + d + "/" + f);
                }
            }
            Files.writeString(fixtures.resolve("tree-10x100.complete"), "ok");
        }
        try (Stream<Path> all = Files.walk(fixtures)) {
            for (Path p : all.toList()) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        LocalWebServers.Running server = LocalWebServers.start("nginx", tree, fixtures);
        nginx = server.process();
        Runtime.getRuntime().addShutdownHook(new Thread(nginx::destroy));
        int port = server.port();
        served = RemotePaths.get("http://127.0.0.1:" + port + "/");
        RemotePath counted = CountingFileSystem.counting(served);
        long entries;
        try (Stream<DirEntry> s = counted.walk(WalkOptions.defaults().withDetail(ListDetail.FILE_STATS))) {
            entries = s.count();
        }
        CountingFileSystem c = CountingFileSystem.of(counted);
        notes.add(String.format("walk of %d entries over nginx: %d list requests, %d HEAD (stat) requests, %d reads", entries,
                c.count(CountingFileSystem.Call.LIST), c.count(CountingFileSystem.Call.STAT),
                c.count(CountingFileSystem.Call.OPEN_READ)));
        if (c.count(CountingFileSystem.Call.STAT) != 0 || c.count(CountingFileSystem.Call.LIST) != 11) {
            throw new IllegalStateException("the walk made requests it should not: " + notes.getLast());
        }
    }

    /** The parse's figure is absolute (ms per page), so its samples span seconds: see Suite. */
    @Override
    public Duration sampleSpread() {
        return Duration.ofSeconds(4);
    }

    @Override
    public List<String> notes() {
        return notes;
    }

    @Override
    public List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < PAGES.length; i++) {
            byte[] body = pages.get(i);
            cases.add(new Case(PARSE_GROUP, PAGES[i][0], i == 0, () -> parse(body)));
        }
        if (served != null) {
            cases.add(new Case("walk-nginx-1000-files", "remotepath", true, () -> {
                try (Stream<DirEntry> s = served.walk(WalkOptions.defaults().withDetail(ListDetail.FILE_STATS))) {
                    return s.count();
                }
            }));
        }
        return cases;
    }

    @Override
    public List<Target> targets() {
        List<Target> t = new ArrayList<>();
        for (String[] p : PAGES) {
            t.add(Target.maxMedianMs(PARSE_GROUP, p[0], 0.2));
        }
        return t;
    }
}
