package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.FileType;
import dev.remotepath.http.index.IndexPage;
import dev.remotepath.http.index.IndexPageParser;
import dev.remotepath.http.index.IndexTitles;
import dev.remotepath.spi.ListedEntry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Listing forms beyond the common ones: JSON objects holding their entries (npm serve), pages
 * that link directories without a slash and name themselves relative to the root (mini_httpd),
 * and Locations that are not valid URIs.
 */
class ListingFormsTest {

    private static IndexPage parse(String body, String type, String dir) throws Exception {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        return IndexPageParser.parse(b, b.length, type, dir, "http", "127.0.0.1:8080", "test");
    }

    @Test
    void aJsonObjectHoldingItsFilesIsAListing() throws Exception {
        IndexPage page = parse("""
                {"files":[{"base":"../","name":"..","type":"folder"},
                 {"base":"empty/","ext":"","name":"empty","relative":"/d/empty/","type":"folder","title":"empty/"},
                 {"base":"hash#.txt","ext":"txt","name":"hash#","relative":"/d/hash#.txt","type":"file","size":"447 B"},
                 {"base":"big.bin","name":"big","type":"file","size":"1.4 MB"},
                 {"relative":"/d/only-a-path.txt","size":12}],
                 "directory":"d/","paths":[{"name":"d/","url":""}]}""", "application/json", "/d/");
        assertThat(page.entries()).extracting(ListedEntry::name)
                .containsExactly("empty", "hash#.txt", "big.bin", "only-a-path.txt");
        assertThat(page.entries().get(0).stat().type()).isEqualTo(FileType.DIRECTORY);
        assertThat(page.entries().get(1).stat().size()).hasValue(447);
        assertThat(page.entries().get(1).stat().sizeExact()).isTrue();
        assertThat(page.entries().get(2).stat().sizeExact()).isFalse();
        assertThat(page.entries().get(2).stat().size().getAsLong()).isBetween(1_400_000L, 1_500_000L);
        assertThat(page.entries().get(3).stat().size()).hasValue(12);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> parse("{\"nothing\":1}", "application/json", "/d/"))
                .isInstanceOf(java.nio.file.FileSystemException.class).hasMessageContaining("neither an array");
    }

    @Test
    void hrefsWithARawHashOrQuestionMarkAreNamesWhenTheLinkTextSaysSo() throws Exception {
        IndexPage page = parse("""
                <title>Files within d/</title><h1>Index of /d/</h1>
                <a href="?C=N;O=D">Name</a> <a href="#top">top</a>
                <ul><li><a href="&#47;d&#47;hash#.txt" title="hash#.txt" class="file txt">hash#.txt</a></li>
                <li><a href="/d/q?.txt">q?.txt</a></li>
                <li><a href="/d/100%#.txt">100%#.txt</a></li>
                <li><a href="/d/a%20b#c.txt">a b#c.txt</a></li>
                <li><a href="/d/dir#1/">dir#1/</a></li>
                <li><a href="x#frag">something else</a></li></ul>""", "text/html", "/d/");
        assertThat(page.entries()).extracting(ListedEntry::name)
                .containsExactly("hash#.txt", "q?.txt", "100%#.txt", "a b#c.txt", "dir#1");
        assertThat(page.entries().get(4).stat().type()).isEqualTo(FileType.DIRECTORY);
    }

    @Test
    void aPageLinkingItsParentWithoutASlashHasUnmarkedDirectories() throws Exception {
        String mini = """
                <html><head><title>Index of d/</title></head><body><h4>Index of d/</h4><pre>
                <a href=".">.        </a>    01Dec2026 13:15           4096
                <a href="..">..       </a>    01Dec2026 13:15           4096
                <a href="sub%20dir">sub dir  </a>    01Dec2026 13:15           4096
                <a href="a.txt">a.txt    </a>    01Dec2026 13:15              3
                </pre></body></html>""";
        IndexPage page = parse(mini, "text/html", "/d/");
        assertThat(page.directoriesUnmarked()).isTrue();
        assertThat(page.entries()).extracting(ListedEntry::name).containsExactly("sub dir", "a.txt");
        IndexPage nginx = parse("<title>Index of /d/</title><a href=\"../\">../</a><a href=\"x/\">x/</a>", "text/html", "/d/");
        assertThat(nginx.directoriesUnmarked()).isFalse();
        byte[] b = mini.getBytes(StandardCharsets.UTF_8);
        assertThat(IndexTitles.namesDirectory(b, b.length, "/d/")).isTrue();
    }

    @Test
    void titlesRelativeToTheRootNameTheirDirectoryAsAWholeWord() {
        for (String title : new String[] {"Index of sub dir/", "Index of ./sub dir/", "sub dir/"}) {
            byte[] b = ("<title>" + title + "</title>").getBytes(StandardCharsets.UTF_8);
            assertThat(IndexTitles.namesDirectory(b, b.length, "/sub dir/")).as(title).isTrue();
        }
        for (String title : new String[] {"Index of xsub dir/", "Index of sub dir", "Index of sub dir/x/", "Maintenance"}) {
            byte[] b = ("<title>" + title + "</title>").getBytes(StandardCharsets.UTF_8);
            assertThat(IndexTitles.namesDirectory(b, b.length, "/sub dir/")).as(title).isFalse();
        }
    }

    @Test
    void locationsThatAreNotUrisAreReadAsBrowsersReadThem() {
        URI base = URI.create("http://127.0.0.1:8080/sub%20dir");
        assertThat(HttpFileSystem.resolveLocation(base, "/sub dir/").toString()).isEqualTo("http://127.0.0.1:8080/sub%20dir/");
        assertThat(HttpFileSystem.resolveLocation(base, "/caf\u00e9/").getRawPath()).isEqualTo("/caf%C3%A9/");
        assertThat(HttpFileSystem.resolveLocation(base, "/100%/").getRawPath()).isEqualTo("/100%25/");
        assertThat(HttpFileSystem.resolveLocation(base, "/a%20b/").getRawPath()).isEqualTo("/a%20b/");
        assertThat(HttpFileSystem.resolveLocation(base, " x/y ").getRawPath()).isEqualTo("/x/y");
        assertThat(HttpFileSystem.resolveLocation(base, "http://[::1")).isNull();
    }
}
