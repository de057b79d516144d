package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.http.index.IndexPage;
import dev.remotepath.http.index.IndexPageParser;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.tree.Listings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated pages: the parser may only return entries or throw its declared
 * FileSystemException; it never hangs; and after the api's name check every entry it yields
 * lies directly in the listed directory.
 */
class IndexPageFuzzTest {

    private static final String[] SNIPPETS = {"<a href=\"", "\">", "</a>", "<a href=x>", "../", "%2e%2e/", "%2F", "%00",
        "%", "%zz", "&amp;", "&#x10FFFF;", "&#99999999;", "&#xD800;", "<tr>", "</tr>", "\n", "\r\n", "29-Feb-2024 13:37",
        "2024-02-29 13:37:42", "Feb 29, 2024, 1:37:42\u202fPM", "1.2K", "9999999999999999999999", "-", "<pre>", "javascript:",
        "http://127.0.0.1:1/", "//evil/", "?C=N", "#", "/", "./", "\u0000", "\u00ff", "<a", "href=", "'", "\"", "<br>",
        "{\"name\":", "[", "]", "<file size=\"", "<directory mtime=\"", "\uD83D\uDE00"};

    private static final String[] TYPES = {"text/html", "application/json", "text/xml", "", "text/html; charset=ISO-8859-1"};

    static byte[] fixture(String name) throws IOException {
        try (InputStream in = IndexPageFuzzTest.class.getResourceAsStream("/http-listings/" + name)) {
            return in.readAllBytes();
        }
    }

    @Test
    void randomAndMutatedPagesAreSafe() throws Exception {
        List<byte[]> seeds = new ArrayList<>();
        for (String f : new String[] {"nginx-html-default.html", "apache2-fancy-htmltable-namewidth.html",
            "lighttpd-default.html", "python-http-server.html", "nginx-json.json", "nginx-xml.xml", "apache2-plain-default.html"}) {
            seeds.add(fixture(f));
        }
        RemotePath dir = RemotePaths.get("mem://fuzz/d");
        Random random = new Random(20261130);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int round = 0; round < 3000; round++) {
                byte[] page = round % 5 == 0 ? randomPage(random) : mutate(seeds.get(random.nextInt(seeds.size())), random);
                String type = TYPES[random.nextInt(TYPES.length)];
                IndexPage parsed;
                try {
                    parsed = IndexPageParser.parse(page, page.length, type, "/d/", "http", "127.0.0.1:8080", "fuzz");
                } catch (FileSystemException declared) {
                    continue;
                }
                try (DirectoryListing l = DirectoryListing.of(parsed.entries())) {
                    for (DirEntry e : Listings.drain(l, dir)) {
                        assertThat(e.path().parent()).as("round %d", round).isEqualTo(dir);
                    }
                } catch (UnsafeNameException refused) {
                    // a hostile name: the whole listing is refused, as designed
                }
            }
        });
        dir.fileSystem().close();
    }

    private static byte[] randomPage(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(60);
        for (int i = 0; i < n; i++) {
            if (r.nextBoolean()) {
                sb.append(SNIPPETS[r.nextInt(SNIPPETS.length)]);
            } else {
                sb.append((char) r.nextInt(0x300));
            }
        }
        return sb.toString().getBytes(r.nextBoolean() ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    }

    private static byte[] mutate(byte[] seed, Random r) {
        byte[] b = seed.clone();
        int edits = 1 + r.nextInt(20);
        StringBuilder sb = new StringBuilder(new String(b, StandardCharsets.ISO_8859_1));
        for (int i = 0; i < edits && sb.length() > 0; i++) {
            int at = r.nextInt(sb.length());
            switch (r.nextInt(4)) {
                case 0 -> sb.setCharAt(at, (char) r.nextInt(256));
                case 1 -> sb.insert(at, SNIPPETS[r.nextInt(SNIPPETS.length)]);
                case 2 -> sb.delete(at, Math.min(sb.length(), at + r.nextInt(50)));
                default -> sb.setLength(at);
            }
        }
        return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
}
