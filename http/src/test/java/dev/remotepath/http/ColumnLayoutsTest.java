package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.FileStat;
import dev.remotepath.http.index.IndexPage;
import dev.remotepath.http.index.IndexPageParser;
import dev.remotepath.spi.ListedEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Index pages of servers no fixture names: a size ({@code 1024} or {@code 1.0K}) and a date
 * beside the link, in whatever column order and markup, must give that size and date.
 */
class ColumnLayoutsTest {

    private static final String PAGE = "<html><head><title>Index of /d/</title></head><body><h1>Index of /d/</h1>%s</body></html>";

    @ParameterizedTest
    @ValueSource(strings = {
        "<table><tr><td><a href=\"f.txt\">f.txt</a></td><td>1024</td><td>2024-02-29 13:37</td></tr></table>",
        "<table><tr><td><a href=\"f.txt\">f.txt</a></td><td>2024-02-29 13:37</td><td>1024</td></tr></table>",
        "<table><tr><td>2024-02-29 13:37</td><td>1024</td><td><a href=\"f.txt\">f.txt</a></td></tr></table>",
        "<table><tr><td>1024</td><td>2024-02-29 13:37</td><td><a href=\"f.txt\">f.txt</a></td></tr></table>",
        "<ul><li><a href=\"f.txt\">f.txt</a> 1024 bytes, 2024-02-29 13:37</li></ul>",
        "<pre><a href=\"f.txt\">f.txt</a>      29-Feb-2024 13:37    1024\n</pre>",
        "<pre>2024-02-29 13:37      1024 <a href=\"f.txt\">f.txt</a>\n</pre>",
        "<div class=\"row\"><span class=\"name\"><a href=\"f.txt\">f.txt</a></span><span class=\"size\">1024</span><span class=\"date\">2024-02-29 13:37</span></div>",
        "<table><tr><td><a href=\"f.txt\">f.txt</a></td><td align=\"right\">1.0K</td><td>2024-02-29 13:37</td></tr></table>",
        "<table><tr><td><a href=\"f.txt\">f.txt</a></td><td>2024-02-29 13:37</td><td>1.0 KiB</td></tr></table>"})
    void sizeAndDateBesideTheLinkAreRead(String rows) throws Exception {
        byte[] body = String.format(PAGE, rows).getBytes(StandardCharsets.UTF_8);
        IndexPage page = IndexPageParser.parse(body, body.length, "text/html", "/d/", "http", "127.0.0.1:1", "http://127.0.0.1:1/d/");
        assertThat(page.entries()).extracting(ListedEntry::name).containsExactly("f.txt");
        FileStat s = page.entries().get(0).stat();
        assertThat(s.size()).as("size of %s", rows).hasValue(1024);
        assertThat(s.lastModified()).as("date of %s", rows).hasValue(Instant.parse("2024-02-29T13:37:00Z"));
    }

    /** A minified page (one line): each row's size and date stay with that row's link. */
    @ParameterizedTest
    @ValueSource(strings = {
        "<table><tr><td>1</td><td>2024-01-01 00:01</td><td><a href=\"a\">a</a></td></tr><tr><td>2</td><td>2024-01-01 00:02</td><td><a href=\"b\">b</a></td></tr></table>",
        "<table><tr><td><a href=\"a\">a</a></td><td>1</td><td>2024-01-01 00:01</td></tr><tr><td><a href=\"b\">b</a></td><td>2</td><td>2024-01-01 00:02</td></tr></table>",
        "<ul><li>2024-01-01 00:01 1 <a href=\"a\">a</a></li><li>2024-01-01 00:02 2 <a href=\"b\">b</a></li></ul>"})
    void onOneLineEachRowKeepsItsOwn(String rows) throws Exception {
        byte[] body = String.format(PAGE, rows).getBytes(StandardCharsets.UTF_8);
        IndexPage page = IndexPageParser.parse(body, body.length, "text/html", "/d/", "http", "127.0.0.1:1", "http://127.0.0.1:1/d/");
        assertThat(page.entries()).extracting(ListedEntry::name).containsExactly("a", "b");
        for (int n = 0; n < 2; n++) {
            FileStat s = page.entries().get(n).stat();
            assertThat(s.size()).as("size of row %d in %s", n + 1, rows).hasValue(n + 1);
            assertThat(s.lastModified()).as("date of row %d", n + 1).hasValue(Instant.parse("2024-01-01T00:0" + (n + 1) + ":00Z"));
        }
    }
}
