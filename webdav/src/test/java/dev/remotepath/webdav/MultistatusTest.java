package dev.remotepath.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The PROPFIND answer parser on what real servers sent (Apache mod_dav_fs, lighttpd mod_webdav,
 * rclone serve webdav: the same tree, captured with this library's property request and with
 * {@code allprop}) and on answers written to break it.
 */
class MultistatusTest {

    private static final URI ROOT = URI.create("http://127.0.0.1:8080/");

    private static byte[] fixture(String name) throws IOException {
        try (InputStream in = MultistatusTest.class.getResourceAsStream("/multistatus/" + name)) {
            return in.readAllBytes();
        }
    }

    private static List<Multistatus.Response> parse(String xml) throws Multistatus.MalformedException {
        byte[] b = xml.getBytes(StandardCharsets.UTF_8);
        return Multistatus.parse(b, b.length);
    }

    /** name -> "dir" or the size, for the members of the captured root. */
    private static Map<String, String> members(byte[] body) throws Exception {
        Map<String, String> out = new TreeMap<>();
        var context = RemotePaths.get("mem://multistatus/");
        for (Multistatus.Response r : Multistatus.parse(body, body.length)) {
            String path = Hrefs.path(r.href(), ROOT, context);
            if (!path.equals("/")) {
                out.put(path.substring(1), r.collection() ? "dir" : String.valueOf(r.contentLength().orElse(-1)));
            }
        }
        return out;
    }

    @Test
    void whatTheThreeServersSentReadsAlike() throws Exception {
        Map<String, String> expected = new TreeMap<>(Map.of("a.txt", "1", "ch.txt", "6", "f18801.txt", "10",
                "f18802.txt", "10", "f18803.txt", "10", "m18801.txt", "2", "m18802.txt", "2", "m18803.txt", "2",
                "sp ace é.txt", "4", "sub", "dir"));
        for (String server : List.of("apache2", "lighttpd", "rclone")) {
            for (String request : List.of("root", "allprop")) {
                Map<String, String> got = members(fixture(server + "-" + request + ".xml"));
                got.remove(".DAV"); // Apache's property store, which the other two servers list
                assertThat(got).as(server + " " + request).isEqualTo(expected);
            }
        }
    }

    @Test
    void timesEtagsAndTheMtimePropertyAreRead() throws Exception {
        for (String server : List.of("apache2", "lighttpd")) {
            byte[] body = fixture(server + "-root.xml");
            Multistatus.Response a = Multistatus.parse(body, body.length).stream()
                    .filter(r -> r.href().equals("/a.txt")).findFirst().orElseThrow();
            assertThat(a.mtime()).as(server).contains("2001-09-09T01:46:40.123456789Z 1796333978");
            assertThat(a.etag()).as(server).isPresent();
            assertThat(a.lastModified()).as(server).isPresent();
            Multistatus.Response ch = Multistatus.parse(body, body.length).stream()
                    .filter(r -> r.href().equals("/ch.txt")).findFirst().orElseThrow();
            assertThat(ch.mtime()).as(server + ": a property in a 404 propstat is absent").isEmpty();
        }
    }

    @Test
    void theServersOwnTimeWinsOverAPropertyWrittenBeforeIt() {
        Instant mtime = Instant.parse("2001-09-09T01:46:40.123456789Z");
        String value = mtime + " 1000";
        assertThat(WebDavMtimes.honoured(value, Optional.of(Instant.ofEpochSecond(999)))).contains(mtime);
        assertThat(WebDavMtimes.honoured(value, Optional.of(Instant.ofEpochSecond(1000 + WebDavMtimes.SLACK_SECONDS))))
                .contains(mtime);
        assertThat(WebDavMtimes.honoured(value, Optional.of(Instant.ofEpochSecond(1003))))
                .as("rewritten by another client after the property").isEmpty();
        assertThat(WebDavMtimes.honoured("2001-09-09T01:46:40Z", Optional.empty())).as("no write time").isEmpty();
        assertThat(WebDavMtimes.honoured("yesterday 1000", Optional.empty())).isEmpty();
    }

    @Test
    void namespacesAreToldByUriNotPrefix() throws Exception {
        List<Multistatus.Response> rs = parse("""
                <?xml version="1.0"?>
                <multistatus xmlns="DAV:"><response><href>/x</href>
                <propstat><prop><getcontentlength>12</getcontentlength>
                <x:getcontentlength xmlns:x="urn:not-dav">999</x:getcontentlength>
                <resourcetype><collection xmlns="urn:not-dav"/></resourcetype></prop>
                <status>HTTP/1.1 200 OK</status></propstat></response></multistatus>""");
        assertThat(rs).hasSize(1);
        assertThat(rs.getFirst().contentLength()).isEqualTo(OptionalLong.of(12));
        assertThat(rs.getFirst().collection()).as("a collection element of another namespace").isFalse();
    }

    @Test
    void hostileAnswersAreRefused() {
        String xxe = """
                <?xml version="1.0"?>
                <!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>
                <D:multistatus xmlns:D="DAV:"><D:response><D:href>/&x;</D:href></D:response></D:multistatus>""";
        assertThatThrownBy(() -> parse(xxe)).isInstanceOf(Multistatus.MalformedException.class);
        String bomb = """
                <?xml version="1.0"?>
                <!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
                <D:multistatus xmlns:D="DAV:"><D:response><D:href>/&b;</D:href></D:response></D:multistatus>""";
        assertThatThrownBy(() -> parse(bomb)).isInstanceOf(Multistatus.MalformedException.class);
        assertThatThrownBy(() -> parse("<html><body>login</body></html>"))
                .isInstanceOf(Multistatus.MalformedException.class).hasMessageContaining("not a DAV: multistatus");
        assertThatThrownBy(() -> parse("")).isInstanceOf(Multistatus.MalformedException.class);
        assertThatThrownBy(() -> parse("<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>/a"))
                .isInstanceOf(Multistatus.MalformedException.class);
        assertThatThrownBy(() -> parse("<D:multistatus xmlns:D=\"DAV:\"><D:response></D:response></D:multistatus>"))
                .hasMessageContaining("without an href");
        assertThatThrownBy(() -> parse("""
                <D:multistatus xmlns:D="DAV:"><D:response><D:href>/a</D:href><D:propstat><D:prop>
                <D:getcontentlength>-5</D:getcontentlength></D:prop><D:status>HTTP/1.1 200 OK</D:status>
                </D:propstat></D:response></D:multistatus>""")).hasMessageContaining("negative");
        assertThatThrownBy(() -> parse("""
                <D:multistatus xmlns:D="DAV:"><D:response><D:href>/a</D:href><D:href>/b</D:href>
                </D:response></D:multistatus>""")).hasMessageContaining("two hrefs");
    }

    @Test
    void hrefsAreDecodedAndChecked() throws Exception {
        var ctx = RemotePaths.get("mem://multistatus/");
        assertThat(Hrefs.path("/dir/sp%20ace%20%c3%a9.txt", ROOT, ctx)).isEqualTo("/dir/sp ace é.txt");
        assertThat(Hrefs.path("http://proxy.example/dir/x/", ROOT, ctx)).isEqualTo("/dir/x");
        assertThat(Hrefs.path("/dir/raw space", ROOT, ctx)).isEqualTo("/dir/raw space");
        assertThat(Hrefs.path("x.txt", URI.create("http://h/dir/"), ctx)).isEqualTo("/dir/x.txt");
        assertThat(Hrefs.path("/dir/a%00b", ROOT, ctx)).isEqualTo("/dir/a\0b"); // refused by the listing
        assertThatThrownBy(() -> Hrefs.path("/dir/%zz", ROOT, ctx))
                .isInstanceOf(java.nio.file.FileSystemException.class);
    }

    @Test
    void mutatedAnswersEndInAResultOrAMalformedException() throws Exception {
        byte[] base = fixture("apache2-root.xml");
        Random random = new Random(5);
        for (int i = 0; i < 3000; i++) {
            byte[] b = base.clone();
            int edits = 1 + random.nextInt(4);
            for (int e = 0; e < edits; e++) {
                b[random.nextInt(b.length)] = (byte) "<>/&;\"'x0-9 \n".charAt(random.nextInt(13));
            }
            int length = random.nextInt(4) == 0 ? random.nextInt(b.length) : b.length;
            try {
                Multistatus.parse(b, length);
            } catch (Multistatus.MalformedException expected) {
                // a refusal is a result
            }
        }
    }

    @Test
    void collectedNamesOfEveryFixtureAreDistinct() throws Exception {
        for (String f : List.of("apache2-root.xml", "lighttpd-root.xml", "rclone-root.xml")) {
            byte[] body = fixture(f);
            List<String> hrefs = Multistatus.parse(body, body.length).stream().map(Multistatus.Response::href).toList();
            assertThat(hrefs.stream().collect(Collectors.toSet())).hasSameSizeAs(hrefs);
        }
    }

    @Test
    void fieldsAreWhatTheRegexSplitGave() {
        Random random = new Random(7);
        String alphabet = "ab \t\n\u000B\f\r\u2003\u00A0/1";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder b = new StringBuilder();
            for (int i = random.nextInt(12); i > 0; i--) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String text = b.toString();
            assertThat(Multistatus.fields(text)).as("'%s'", text).containsExactly(text.strip().split("\\s+"));
        }
    }
}
