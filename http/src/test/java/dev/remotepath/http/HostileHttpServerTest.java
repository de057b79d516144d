package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.eclipse.jetty.io.Content;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Servers written to make a mirror lose data or hang: pages that are not indexes, encoded
 * bodies, lying lengths, trickles, redirect loops. Every case fails or refuses, clearly and in
 * bounded time, and a sync with deletion deletes nothing.
 */
class HostileHttpServerTest {

    private ScriptedServer server;

    @TempDir
    Path temp;

    @BeforeEach
    void start() throws Exception {
        server = new ScriptedServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private RemotePath path(String p, HttpOptions.Builder options) throws IOException {
        return RemotePaths.get(URI.create(server.base() + p), options.build());
    }

    private RemotePath path(String p) throws IOException {
        return path(p, HttpOptions.builder());
    }

    private Path mirrorOfTenFiles() throws IOException {
        Path dst = Files.createDirectories(temp.resolve("mirror"));
        for (int i = 0; i < 10; i++) {
            Files.writeString(dst.resolve("f" + i + ".txt"), "kept");
        }
        return dst;
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<html><head><title>Down for maintenance</title></head><body><p>Back soon. <a href=\"status.html\">status</a></p></body></html>",
        "<html><head><title>Sign in</title></head><body><form><a href=\"forgot\">Forgot?</a> <a href=\"help.html\">help</a></form></body></html>",
        "<html><body><h1>Error</h1><p>Something went wrong. <a href=\"retry\">retry</a></p></body></html>",
        "<html><head><title>Index of /pub/other/</title></head><body><a href=\"f0.txt\">f0.txt</a></body></html>",
    })
    void aPageThatIsNotAnIndexOfItsDirectoryIsAnErrorAndDeletesNothing(String page) throws Exception {
        server.on("GET /pub/", (req, resp, cb) -> ScriptedServer.html(resp, cb, page));
        assertThatThrownBy(() -> path("/pub/").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("not a directory index");

        Path dst = mirrorOfTenFiles();
        assertThatThrownBy(() -> PathSyncer.builder(path("/pub/"), RemotePaths.of(dst)).deleteExtraneous(true).build().run())
                .isInstanceOf(FileSystemException.class).hasMessageContaining("not a directory index");
        try (var files = Files.list(dst)) {
            assertThat(files.count()).isEqualTo(10);
        }
        // Opting in reads such a page by its links.
        assertThat(path("/pub/", HttpOptions.builder().lenientIndexPages(true)).list()).isNotEmpty();
    }

    @Test
    void aNonIndexPageBelowTheRootFailsThatDirectoryAndTheSyncDeletesNothing() throws Exception {
        server.on("GET /pub/", (req, resp, cb) -> ScriptedServer.index(req, resp, cb,
                "<a href=\"sub/\">sub/</a>\n<a href=\"a.txt\">a.txt</a>"));
        server.on("* /pub/a.txt", (req, resp, cb) -> ScriptedServer.text(resp, cb, "kept"));
        server.on("GET /pub/sub/", (req, resp, cb) -> ScriptedServer.html(resp, cb,
                "<html><head><title>Maintenance</title></head><body><a href=\"x\">x</a></body></html>"));
        Path dst = Files.createDirectories(temp.resolve("mirror/sub"));
        Files.writeString(dst.resolve("keep.txt"), "keep");
        SyncReport r = PathSyncer.builder(path("/pub/"), RemotePaths.of(temp.resolve("mirror")))
                .deleteExtraneous(true).build().run();
        assertThat(r.errors()).singleElement().satisfies(e -> assertThat(e.message()).contains("not a directory index"));
        assertThat(r.filesDeleted()).isZero();
        assertThat(r.filesCopied()).isEqualTo(1);
        assertThat(Files.readString(dst.resolve("keep.txt"))).isEqualTo("keep");
    }

    @Test
    void recognisedIndexTitlesOfEveryCommonServer() throws Exception {
        String[] titles = {"Index of /pub/x/", "Index of /pub/x", "Directory listing for /pub/x/", "Directory: /pub/x/",
            "127.0.0.1 - /pub/x/", "/pub/x/", "Files within site/pub/x/", "Index of /pub/x/ - served by test"};
        for (String title : titles) {
            server.on("GET /pub/x/", (req, resp, cb) -> ScriptedServer.html(resp, cb,
                    "<html><head><title>" + title + "</title></head><body><a href=\"f.txt\">f.txt</a></body></html>"));
            assertThat(path("/pub/x/").list()).as(title).hasSize(1);
        }
        // Caddy's breadcrumb heading (links inside the h1) and an encoded path.
        server.on("GET /pub/x/", (req, resp, cb) -> ScriptedServer.html(resp, cb, "<h1><a href=\"/\">/</a><a href=\"/pub/\">pub</a>/"
                + "<a href=\"/pub/x/\">x</a>/</h1><a href=\"f.txt\">f.txt</a>"));
        assertThat(path("/pub/x/").list()).hasSize(1);
        server.on("GET /pub/x/", (req, resp, cb) -> ScriptedServer.html(resp, cb,
                "<title>Index of /pub/xyz/</title><a href=\"f.txt\">f.txt</a>"));
        assertThatThrownBy(() -> path("/pub/x/").list()).hasMessageContaining("not a directory index");
    }

    private static byte[] gzip(byte[] plain) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(plain);
        }
        return out.toByteArray();
    }

    @Test
    void encodedBodiesAreCopiedAsSentAndIndexPagesDecodeWithinTheirLimit() throws Exception {
        byte[] tarGz = gzip("the archive's own bytes".getBytes(StandardCharsets.UTF_8));
        server.on("GET /a.tar.gz", (req, resp, cb) -> ScriptedServer.send(resp, cb, 200, "application/gzip", tarGz,
                Map.of("Content-Encoding", "gzip")));
        assertThat(path("/a.tar.gz").readAllBytes()).isEqualTo(tarGz);
        assertThat(server.seen("GET", "/a.tar.gz").getFirst().headers().get("Accept-Encoding")).isEqualTo("identity");

        byte[] page = gzip("<title>Index of /z/</title><a href=\"f.txt\">f.txt</a>".getBytes(StandardCharsets.UTF_8));
        server.on("GET /z/", (req, resp, cb) -> ScriptedServer.send(resp, cb, 200, "text/html", page,
                Map.of("Content-Encoding", "gzip")));
        assertThat(path("/z/").list()).singleElement().satisfies(e -> assertThat(e.name()).isEqualTo("f.txt"));

        byte[] bomb = gzip(new byte[64 * 1024 * 1024]); // 64 MiB of zeros in ~64 KiB
        server.on("GET /bomb/", (req, resp, cb) -> ScriptedServer.send(resp, cb, 200, "text/html", bomb,
                Map.of("Content-Encoding", "gzip")));
        assertThatThrownBy(() -> path("/bomb/").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("decodes to more than");
    }

    @Test
    void aBodyThatDisagreesWithItsListedSizeIsNotCopied() throws Exception {
        server.on("GET /d/", (req, resp, cb) -> ScriptedServer.index(req, resp, cb,
                "<a href=\"f.bin\">f.bin</a>  01-Jan-2024 10:00  100\n"));
        server.on("GET /d/f.bin", (req, resp, cb) -> ScriptedServer.send(resp, cb, 200, "application/octet-stream",
                new byte[120], Map.of()));
        Path dst = temp.resolve("out");
        SyncReport r = PathSyncer.builder(path("/d/"), RemotePaths.of(dst)).build().run();
        assertThat(r.filesCopied()).isZero();
        assertThat(r.errors()).singleElement().satisfies(e -> assertThat(e.message()).contains("sizes differ")
                .contains("100").contains("120"));
        assertThat(dst.resolve("f.bin")).doesNotExist();
        try (var left = Files.list(dst)) {
            assertThat(left).isEmpty(); // no temporary left either
        }
    }

    @Test
    void oneEntrysFailureFailsThatEntryOnly() throws Exception {
        server.on("GET /e/", (req, resp, cb) -> ScriptedServer.index(req, resp, cb,
                "<a href=\"gone.txt\">gone.txt</a>\n<a href=\"ok.txt\">ok.txt</a>"));
        server.on("* /e/ok.txt", (req, resp, cb) -> ScriptedServer.text(resp, cb, "ok"));
        Path dst = temp.resolve("e");
        SyncReport r = PathSyncer.builder(path("/e/"), RemotePaths.of(dst)).build().run();
        assertThat(r.errors()).singleElement().satisfies(e -> assertThat(e.relativePath()).isEqualTo("gone.txt"));
        assertThat(r.filesCopied()).isEqualTo(1);
        assertThat(Files.readString(dst.resolve("ok.txt"))).isEqualTo("ok");
    }

    @Test
    void anEndlessTreeIsStoppedAtItsFirstRepetition() throws Exception {
        // Every directory, however deep, lists a/ and b/: 2^depth directories without a defence.
        ScriptedServer.Answer endless = (req, resp, cb) -> {
            String p = req.getHttpURI().getPath();
            if (p.endsWith("/")) {
                ScriptedServer.index(req, resp, cb, "<a href=\"a/\">a/</a>  01-Jan-2024 10:00  -\n"
                        + "<a href=\"b/\">b/</a>  01-Jan-2024 10:00  -\n");
            } else {
                ScriptedServer.send(resp, cb, 301, null, new byte[0], Map.of("Location", p + "/"));
            }
        };
        server.fallback(endless);
        Path dst = temp.resolve("endless");
        SyncReport r = PathSyncer.builder(path("/e/"), RemotePaths.of(dst)).build().run();
        assertThat(r.errors()).isNotEmpty().allSatisfy(e -> assertThat(e.message()).contains("endless tree"));
        try (var made = Files.walk(dst)) {
            assertThat(made.count()).isLessThan(10);
        }
        try (var walk = path("/e/").walk()) {
            assertThatThrownBy(walk::count).hasRootCauseInstanceOf(FileSystemLoopException.class);
        }
        assertThatThrownBy(() -> path("/e/").copyTo(RemotePaths.of(temp.resolve("copy"))))
                .isInstanceOf(FileSystemLoopException.class).hasMessageContaining("endless tree");
    }

    @Test
    void aRedirectToAnAncestorIsALoop() throws Exception {
        server.on("GET /t/", (req, resp, cb) -> ScriptedServer.index(req, resp, cb, "<a href=\"sub/\">sub/</a>"));
        server.on("GET /t/sub/", (req, resp, cb) -> ScriptedServer.send(resp, cb, 302, null, new byte[0],
                Map.of("Location", "/t/")));
        assertThatThrownBy(() -> path("/t/sub/").list()).isInstanceOf(FileSystemLoopException.class)
                .hasMessageContaining("above it");
    }

    /** Answers with {@code declared} bytes, one byte every {@code gap}, on a thread of its own. */
    private ScriptedServer.Answer trickle(String contentType, byte[] body, Duration gap) {
        return (req, resp, cb) -> {
            resp.setStatus(200);
            resp.getHeaders().put("Content-Type", contentType);
            resp.getHeaders().put("Content-Length", String.valueOf(body.length));
            Thread.ofVirtual().start(() -> {
                try (OutputStream out = Content.Sink.asOutputStream(resp)) {
                    for (byte b : body) {
                        out.write(b);
                        out.flush();
                        Thread.sleep(gap);
                    }
                    cb.succeeded();
                } catch (Exception e) {
                    cb.failed(e);
                }
            });
        };
    }

    @Test
    void tricklingPagesAndBodiesAreCutOffInBoundedTime() throws Exception {
        byte[] page = ("<title>Index of /slow/</title>" + "<a href=\"x\">x</a>\n".repeat(200)).getBytes(StandardCharsets.UTF_8);
        server.on("GET /slow/", trickle("text/html", page, Duration.ofMillis(50)));
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> path("/slow/", HttpOptions.builder().listingTimeout(Duration.ofSeconds(1))).list())
                .isInstanceOf(SocketTimeoutException.class).hasMessageContaining("did not arrive within 1 s")
                .hasMessageContaining("HttpOptions.listingTimeout");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));

        server.on("GET /slow.bin", trickle("application/octet-stream", new byte[4000], Duration.ofMillis(20)));
        t0 = System.nanoTime();
        RemotePath slow = path("/slow.bin", HttpOptions.builder().idleTimeout(Duration.ofSeconds(1)).minimumBodyRate(1024));
        assertThatThrownBy(slow::readAllBytes).isInstanceOf(SocketTimeoutException.class).hasMessageContaining("trickles");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    }
}
