package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.EntryNames;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.http.index.IndexPage;
import dev.remotepath.http.index.IndexPageParser;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every recorded page of real servers (nginx html/json/xml, Apache plain and FancyIndexing
 * tables, lighttpd, Python http.server), parsed and checked against the tree's ground truth:
 * every entry exists with its type (links followed), size (exact, or within the rounding of a
 * "1.2K" column) and mtime (within the page's precision); nothing is missing but what the
 * server hides (dot files, broken links).
 */
class IndexPageFixturesTest {

    record Truth(String type, String targetType, long size, Instant mtime) {
    }

    static final Map<String, String> SLUGS = new LinkedHashMap<>();

    static {
        SLUGS.put("", "");
        SLUGS.put("subdir", "subdir");
        SLUGS.put("subdir-nested", "subdir/nested");
        SLUGS.put("hidden-dir", ".hidden-dir");
        SLUGS.put("dir-space", "dir with space");
        SLUGS.put("dir-hash", "dir#");
        SLUGS.put("dir-percent", "dir%");
        SLUGS.put("dir-amp", "dir&");
        SLUGS.put("dir-question", "dir?");
        SLUGS.put("dir-trailing-space", "dir-trailing-space ");
        SLUGS.put("dir-dot", "dir.");
        SLUGS.put("dir-unicode", "dír-ünïcödé-日本");
        SLUGS.put("empty-dir", "empty-dir");
        SLUGS.put("symlink-to-dir", "symlink-to-dir");
    }

    static final List<String> VARIANTS = List.of("nginx-html-default", "nginx-json", "nginx-xml", "apache2-plain-default",
            "apache2-fancy-htmltable-namewidth", "lighttpd-default", "python-http-server");

    static Map<String, Truth> truth() throws IOException {
        Map<String, Truth> t = new HashMap<>();
        List<String> lines = new String(resource("ground-truth.tsv"), StandardCharsets.UTF_8).lines().skip(1).toList();
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            BigDecimal secs = new BigDecimal(f[4]);
            Instant mtime = Instant.ofEpochSecond(secs.longValue(), secs.remainder(BigDecimal.ONE).movePointRight(9).longValue());
            t.put(f[0], new Truth(f[1], f[2], Long.parseLong(f[3]), mtime));
        }
        return t;
    }

    static byte[] resource(String name) throws IOException {
        try (InputStream in = IndexPageFixturesTest.class.getResourceAsStream("/http-listings/" + name)) {
            if (in == null) {
                throw new IOException("missing fixture " + name);
            }
            return in.readAllBytes();
        }
    }

    static Stream<Arguments> pages() {
        List<Arguments> out = new ArrayList<>();
        for (String v : VARIANTS) {
            for (String slug : SLUGS.keySet()) {
                out.add(Arguments.of(v, slug));
            }
        }
        return out.stream();
    }

    static String contentType(String variant, String slug) throws IOException {
        String headers = new String(resource(variant + (slug.isEmpty() ? "" : "--" + slug) + ".headers"), StandardCharsets.ISO_8859_1);
        return headers.lines().filter(l -> l.toLowerCase(Locale.ROOT).startsWith("content-type:"))
                .map(l -> l.substring(13).strip()).findFirst().orElse("");
    }

    static String extension(String variant) {
        return variant.endsWith("json") ? ".json" : variant.endsWith("xml") ? ".xml" : ".html";
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("pages")
    void pageMatchesGroundTruth(String variant, String slug) throws Exception {
        String file = variant + (slug.isEmpty() ? "" : "--" + slug) + extension(variant);
        byte[] body = resource(file);
        String dir = SLUGS.get(slug);
        String dirPath = dir.isEmpty() ? "/" : "/" + dir + "/";
        IndexPage page = IndexPageParser.parse(body, body.length, contentType(variant, slug), dirPath, "http",
                "127.0.0.1:8080", "http://127.0.0.1:8080" + dirPath);
        Map<String, Truth> truth = truth();
        String base = dir.equals("symlink-to-dir") ? "subdir" : dir;
        Set<String> expected = new TreeSet<>();
        for (var e : truth.entrySet()) {
            String path = e.getKey();
            String parent = path.contains("/") ? path.substring(0, path.lastIndexOf('/')) : "";
            if (parent.equals(base)) {
                expected.add(path.substring(path.lastIndexOf('/') + 1));
            }
        }
        Set<String> parsed = new TreeSet<>();
        for (ListedEntry e : page.entries()) {
            assertThat(EntryNames.isSafe(e.name())).as(e.name()).isTrue();
            assertThat(parsed.add(e.name())).as("duplicate " + e.name()).isTrue();
            Truth t = truth.get(base.isEmpty() ? e.name() : base + "/" + e.name());
            assertThat(t).as("parsed entry %s is in the tree", e.name()).isNotNull();
            String followed = t.type().equals("l") ? t.targetType() : t.type();
            FileStat s = e.stat();
            if (followed.equals("d")) {
                assertThat(s.type()).as(e.name()).isEqualTo(FileType.DIRECTORY);
            } else if (!followed.equals("N")) {
                assertThat(s.type()).as(e.name()).isIn(FileType.FILE, FileType.OTHER);
            }
            long size = t.type().equals("l") && followed.equals("f") ? 1024 : t.size(); // the link points at size-1024.bin
            boolean showsSizes = !variant.startsWith("python") && !variant.equals("apache2-plain-default");
            if (showsSizes && followed.equals("f") && !e.name().equals("broken-symlink")) {
                assertThat(s.size()).as("size of %s on %s", e.name(), variant).isPresent();
            }
            if (showsSizes && !t.type().equals("l")) {
                assertThat(s.lastModified()).as("mtime of %s on %s", e.name(), variant).isPresent();
            }
            if (s.size().isPresent() && followed.equals("f")) {
                if (s.sizeExact()) {
                    assertThat(s.size().getAsLong()).as("size of " + e.name()).isEqualTo(size);
                } else {
                    // Rounded columns: within 5% or 1 KiB of the truth.
                    assertThat(Math.abs(s.size().getAsLong() - size)).as("approximate size of " + e.name())
                            .isLessThanOrEqualTo(Math.max(1024, size / 20));
                }
            }
            if (s.lastModified().isPresent() && !t.type().equals("l")) {
                Duration off = Duration.between(t.mtime(), s.lastModified().get()).abs();
                assertThat(off).as("mtime of " + e.name() + " on " + variant)
                        .isLessThan(s.lastModifiedPrecision().plusSeconds(1));
            }
        }
        assertThat((long) parsed.size()).as("entries parsed from " + file).isGreaterThanOrEqualTo(
                expected.stream().filter(n -> !n.startsWith(".") && !n.equals("broken-symlink")).count());
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(parsed);
        missing.removeIf(n -> n.startsWith(".") || n.equals("broken-symlink"));
        assertThat(missing).as("entries missing from " + file).isEmpty();
    }

    private static Map<String, FileStat> root(String variant) throws IOException {
        byte[] body = resource(variant + extension(variant));
        Map<String, FileStat> m = new HashMap<>();
        for (ListedEntry e : IndexPageParser.parse(body, body.length, contentType(variant, ""), "/", "http",
                "127.0.0.1:8080", "page").entries()) {
            m.put(e.name(), e.stat());
        }
        return m;
    }

    @org.junit.jupiter.api.Test
    void pinnedFactsOfEachFormat() throws Exception {
        Map<String, FileStat> nginx = root("nginx-html-default");
        assertThat(nginx.get("size-1048576.bin").size()).hasValue(1048576);
        assertThat(nginx.get("size-1048576.bin").sizeExact()).isTrue();
        assertThat(nginx.get("size-1048576.bin").lastModified()).hasValue(Instant.parse("2023-07-04T23:59:00Z"));
        assertThat(nginx.get("size-1048576.bin").lastModifiedPrecision()).isEqualTo(Duration.ofMinutes(1));
        assertThat(nginx.get("long-" + "n".repeat(191) + ".txt")).as("name from the href, not the cut text").isNotNull();

        Map<String, FileStat> fancy = root("apache2-fancy-htmltable-namewidth");
        assertThat(fancy.get("size-1048576.bin").sizeExact()).isFalse();
        assertThat(fancy.get("size-1048576.bin").size()).hasValue(1048576);
        assertThat(fancy.get("sparse-5GiB.img").size()).hasValue(5L << 30);
        assertThat(fancy.get("plus+sign.txt")).as("'+' is not a space").isNotNull();
        assertThat(fancy.get("dir with space").type()).isEqualTo(FileType.DIRECTORY);

        Map<String, FileStat> lighttpd = root("lighttpd-default");
        assertThat(lighttpd.get("upper.txt").lastModified()).hasValue(Instant.parse("2040-06-15T08:09:10Z"));
        assertThat(lighttpd.get("upper.txt").lastModifiedPrecision()).isEqualTo(Duration.ofSeconds(1));
        assertThat(lighttpd.get("one-byte.bin").lastModified()).hasValue(Instant.EPOCH);

        Map<String, FileStat> json = root("nginx-json");
        assertThat(json.get("sparse-5GiB.img").size()).hasValue(5368709120L);
        assertThat(json.get("noext").lastModified()).hasValue(Instant.parse("1999-12-31T23:59:59Z"));
        assertThat(json.get("dir?").type()).isEqualTo(FileType.DIRECTORY);

        Map<String, FileStat> xml = root("nginx-xml");
        assertThat(xml.get("a&b.txt").size()).hasValue(11);
        assertThat(xml.get("日本語.txt")).isNotNull();

        Map<String, FileStat> python = root("python-http-server");
        assertThat(python.get("cafe\u0301-nfd.txt")).as("NFD kept as NFD").isNotNull();
        assertThat(python.get("café.txt")).isNotNull();
        assertThat(python.get("emoji-😀.txt").lastModified()).isEmpty();
        assertThat(python.get("100%.txt")).isNotNull();
        assertThat(python.get("percent%20literal.txt")).as("a literal %20 in a name").isNotNull();
    }
}
