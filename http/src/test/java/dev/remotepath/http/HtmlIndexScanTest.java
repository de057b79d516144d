package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.FileType;
import dev.remotepath.http.index.IndexPageParser;
import dev.remotepath.spi.ListedEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The HTML reader scans the page's bytes eight at a time and takes plain hrefs without decoding:
 * links, rows and names must come out the same wherever they fall against those eight-byte
 * words, however an href is spelled, and nothing past the page's length may be read.
 */
class HtmlIndexScanTest {

    private static List<ListedEntry> parse(byte[] body, int length) throws Exception {
        return IndexPageParser.parse(body, length, "text/html", "/d/", "http", "127.0.0.1:8080", "test").entries();
    }

    private static List<ListedEntry> parse(String page) throws Exception {
        byte[] b = page.getBytes(StandardCharsets.UTF_8);
        return parse(b, b.length);
    }

    @Test
    void linksAndRowsAreFoundAtEveryOffsetAgainstTheWords() throws Exception {
        for (int pad = 0; pad < 24; pad++) {
            String page = " ".repeat(pad) + "<a href=\"x\">x</a>\n" + "\t".repeat(pad % 9)
                    + "<A\thref=\"y.txt\">y.txt</A>" + " ".repeat(pad) + "2024-02-29 13:37" + " ".repeat(pad % 5 + 1)
                    + "1.2K\n<abbr>not a link</abbr><a\nhref=z/>z</a>" + " ".repeat(pad % 3);
            List<ListedEntry> entries = parse(page);
            assertThat(entries).as("padding %d", pad).extracting(ListedEntry::name).containsExactly("x", "y.txt", "z");
            assertThat(entries.get(0).stat().lastModified()).as("x's row ends at its newline").isEmpty();
            assertThat(entries.get(1).stat().lastModified()).contains(Instant.parse("2024-02-29T13:37:00Z"));
            assertThat(entries.get(1).stat().size()).hasValue(1228);
            assertThat(entries.get(1).stat().sizeExact()).isFalse();
            assertThat(entries.get(2).stat().type()).isEqualTo(FileType.DIRECTORY);
        }
    }

    @Test
    void plainAndEncodedSpellingsOfAChildGiveTheSameName() throws Exception {
        List<ListedEntry> entries = parse("""
                <a href="a.txt">a</a>
                <a href="./b.txt">b</a>
                <a href="%63.txt">c</a>
                <a href="/d/e.txt">e</a>
                <a HREF='f.txt'>f</a>
                <A href=g/>g</A>
                <a href="h&amp;i.txt">h</a>
                <a href="caf%C3%A9.txt">j</a>
                <a href="../up.txt">no</a>
                <a href="deeper/x.txt">no</a>
                <a href=".">no</a>
                <a href="?C=N;O=D">no</a>
                """);
        assertThat(entries).extracting(ListedEntry::name)
                .containsExactly("a.txt", "b.txt", "c.txt", "e.txt", "f.txt", "g", "h&i.txt", "café.txt");
        assertThat(entries.get(5).stat().type()).isEqualTo(FileType.DIRECTORY);
    }

    @Test
    void nothingPastThePageLengthIsRead() throws Exception {
        byte[] page = "<pre><a href=\"kept.txt\">kept.txt</a>   29-Feb-2024 13:37   12\n".getBytes(StandardCharsets.US_ASCII);
        byte[] tail = "<a href=\"stale.txt\">stale.txt</a>   01-Mar-2024 00:00   99\n".getBytes(StandardCharsets.US_ASCII);
        byte[] buffer = Arrays.copyOf(page, page.length + tail.length);
        System.arraycopy(tail, 0, buffer, page.length, tail.length);
        List<ListedEntry> entries = parse(buffer, page.length);
        assertThat(entries).extracting(ListedEntry::name).containsExactly("kept.txt");
        assertThat(entries.getFirst().stat().size()).hasValue(12);
        // A page cut inside a link's tag or its text gives what it fully holds.
        assertThat(parse(buffer, page.length - 40)).isEmpty();
    }
}
