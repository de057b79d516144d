package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.ReadOnlyRemoteFileSystemException;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a real server can do to a client, scripted: each answer tested on its own. */
class HttpBehaviourTest {

    private ScriptedServer server;
    private static final byte[] CONTENT = new byte[100_000];

    static {
        for (int i = 0; i < CONTENT.length; i++) {
            CONTENT[i] = (byte) (i * 31 + 7);
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = new ScriptedServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    private RemotePath path(String p) throws IOException {
        return RemotePaths.get(URI.create(server.base() + p), HttpOptions.builder()
                .requestTimeout(Duration.ofSeconds(5)).idleTimeout(Duration.ofSeconds(5)).build());
    }

    private static int rangeStart(org.eclipse.jetty.server.Request r) {
        String range = r.getHeaders().get("Range");
        return range == null ? 0 : Integer.parseInt(range.substring(6, range.indexOf('-')));
    }

    @Test
    void brokenReadResumesWithIfRangeAndNeverMixesVersions() throws Exception {
        server.on("GET /f.bin", (req, resp, cb) -> {
            int from = rangeStart(req);
            if (from == 0) {
                resp.setStatus(200);
                resp.getHeaders().put("ETag", "\"v1\"");
                resp.getHeaders().put("Content-Length", String.valueOf(CONTENT.length));
                // Half the body, then the connection dies.
                resp.write(false, ByteBuffer.wrap(CONTENT, 0, 40_000), Callback.from(
                        () -> cb.failed(new IOException("dropped by the test")), cb::failed));
                return;
            }
            assertThat(req.getHeaders().get("If-Range")).isEqualTo("\"v1\"");
            ScriptedServer.send(resp, cb, 206, "application/octet-stream",
                    Arrays.copyOfRange(CONTENT, from, CONTENT.length),
                    Map.of("ETag", "\"v1\"", "Content-Range", "bytes " + from + "-" + (CONTENT.length - 1) + "/" + CONTENT.length));
        });
        assertThat(path("/f.bin").readAllBytes()).isEqualTo(CONTENT);
        assertThat(server.seen("GET", "/f.bin")).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void aFileChangedMidReadFailsInsteadOfMixing() throws Exception {
        server.on("GET /f.bin", (req, resp, cb) -> {
            if (rangeStart(req) == 0) {
                resp.setStatus(200);
                resp.getHeaders().put("ETag", "\"v1\"");
                resp.getHeaders().put("Content-Length", String.valueOf(CONTENT.length));
                resp.write(false, ByteBuffer.wrap(CONTENT, 0, 40_000), Callback.from(
                        () -> cb.failed(new IOException("dropped by the test")), cb::failed));
                return;
            }
            // If-Range no longer matches: the server sends the whole new version.
            ScriptedServer.send(resp, cb, 200, "application/octet-stream", new byte[CONTENT.length], Map.of("ETag", "\"v2\""));
        });
        assertThatThrownBy(() -> path("/f.bin").readAllBytes()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("changed while it was being read");
    }

    @Test
    void offsetsUseRangeAndServersIgnoringRangeAreHandled() throws Exception {
        server.on("GET /ranged", (req, resp, cb) -> {
            int from = rangeStart(req);
            ScriptedServer.send(resp, cb, 206, null, Arrays.copyOfRange(CONTENT, from, CONTENT.length),
                    Map.of("Content-Range", "bytes " + from + "-" + (CONTENT.length - 1) + "/" + CONTENT.length));
        });
        server.on("GET /ignores", (req, resp, cb) -> ScriptedServer.send(resp, cb, 200, null, CONTENT, Map.of()));
        server.on("GET /past-end", (req, resp, cb) -> ScriptedServer.send(resp, cb, 416, null, new byte[0], Map.of()));
        try (InputStream in = path("/ranged").newInputStream(99_990)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(CONTENT, 99_990, CONTENT.length));
        }
        assertThat(server.seen("GET", "/ranged").getFirst().headers().get("Range")).isEqualTo("bytes=99990-");
        try (InputStream in = path("/ignores").newInputStream(99_990)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(CONTENT, 99_990, CONTENT.length));
        }
        try (InputStream in = path("/past-end").newInputStream(5_000_000)) {
            assertThat(in.readAllBytes()).isEmpty();
        }
    }

    /** The last byte a Range asks for (inclusive), or the content's last byte for an open-ended one. */
    private static int rangeLast(org.eclipse.jetty.server.Request r) {
        String range = r.getHeaders().get("Range");
        String last = range == null ? "" : range.substring(range.indexOf('-') + 1);
        return last.isEmpty() ? CONTENT.length - 1 : Math.min(CONTENT.length - 1, Integer.parseInt(last));
    }

    @Test
    void aWindowAsksABoundedRangeKeepsItWhenResumedAndStopsAtItsEnd() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean dropOnce = new java.util.concurrent.atomic.AtomicBoolean(true);
        server.on("GET /ranged", (req, resp, cb) -> {
            int from = rangeStart(req);
            int last = rangeLast(req);
            byte[] body = Arrays.copyOfRange(CONTENT, from, last + 1);
            if (dropOnce.getAndSet(false)) {
                resp.setStatus(206);
                resp.getHeaders().put("ETag", "\"v1\"");
                resp.getHeaders().put("Content-Length", String.valueOf(body.length));
                resp.getHeaders().put("Content-Range", "bytes " + from + "-" + last + "/" + CONTENT.length);
                resp.write(false, ByteBuffer.wrap(body, 0, 1_000), Callback.from(
                        () -> cb.failed(new IOException("dropped by the test")), cb::failed));
                return;
            }
            ScriptedServer.send(resp, cb, 206, null, body,
                    Map.of("ETag", "\"v1\"", "Content-Range", "bytes " + from + "-" + last + "/" + CONTENT.length));
        });
        server.on("GET /ignores", (req, resp, cb) -> ScriptedServer.send(resp, cb, 200, null, CONTENT, Map.of()));
        RemotePath ranged = path("/ranged");
        try (InputStream in = ranged.fileSystem().openRead(ranged, 50_000, 4_096)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(CONTENT, 50_000, 54_096));
        }
        var seen = server.seen("GET", "/ranged");
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).headers().get("Range")).isEqualTo("bytes=50000-54095");
        assertThat(seen.get(1).headers().get("Range")).isEqualTo("bytes=51000-54095"); // the resume keeps the end
        assertThat(seen.get(1).headers().get("If-Range")).isEqualTo("\"v1\"");
        try (InputStream in = ranged.fileSystem().openRead(ranged, 0, 10)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(CONTENT, 0, 10));
        }
        assertThat(server.seen("GET", "/ranged").get(2).headers().get("Range")).isEqualTo("bytes=0-9");
        // A server that ignores Range sends everything; the window still ends where it was asked to.
        RemotePath ignores = path("/ignores");
        try (InputStream in = ignores.fileSystem().openRead(ignores, 99_990, 5)) {
            assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(CONTENT, 99_990, 99_995));
        }
        try (InputStream in = ignores.fileSystem().openRead(ignores, 10, 0)) {
            assertThat(in.readAllBytes()).isEmpty();
        }
        assertThat(server.seen("GET", "/ignores")).hasSize(1); // an empty window asks nothing
        assertThatThrownBy(() -> ignores.fileSystem().openRead(ignores, 0, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRangeAnsweredFromAnotherOffsetIsRefusedNotTakenForTheBytesAsked() throws Exception {
        server.on("GET /shifted", (req, resp, cb) -> ScriptedServer.send(resp, cb, 206, null,
                Arrays.copyOfRange(CONTENT, 0, 100), Map.of("Content-Range", "bytes 0-99/" + CONTENT.length)));
        server.on("GET /unnamed", (req, resp, cb) -> ScriptedServer.send(resp, cb, 206, null,
                Arrays.copyOfRange(CONTENT, 0, 100), Map.of()));
        RemotePath shifted = path("/shifted");
        assertThatThrownBy(() -> shifted.fileSystem().openRead(shifted, 500, 100).close())
                .isInstanceOf(FileSystemException.class).hasMessageContaining("from 500").hasMessageContaining("from 0");
        assertThatThrownBy(() -> path("/shifted").newInputStream(500).close()).isInstanceOf(FileSystemException.class);
        assertThatThrownBy(() -> path("/unnamed").newInputStream(500).close()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("nowhere it said");
    }

    @Test
    void aCopyTakesTheMtimeFromTheGetInsteadOfAHead() throws Exception {
        java.util.concurrent.atomic.AtomicInteger heads = new java.util.concurrent.atomic.AtomicInteger();
        server.on("HEAD /doc.txt", (req, resp, cb) -> {
            heads.incrementAndGet();
            ScriptedServer.send(resp, cb, 500, null, new byte[0], Map.of());
        });
        server.on("GET /doc.txt", (req, resp, cb) -> ScriptedServer.send(resp, cb, 200, null, CONTENT,
                Map.of("Last-Modified", "Thu, 29 Feb 2024 13:37:42 GMT")));
        RemotePath target = RemotePaths.get("mem://http-get-mtime-" + java.util.UUID.randomUUID() + "/doc.txt");
        // A stat known only by type: the copy needs the mtime, and the GET's response has it.
        dev.remotepath.tree.FileTransfer.copyFile(path("/doc.txt"), dev.remotepath.FileStat.ofType(dev.remotepath.FileType.FILE),
                target, false, n -> { });
        assertThat(target.readAllBytes()).isEqualTo(CONTENT);
        assertThat(target.stat().lastModified()).hasValue(java.time.Instant.parse("2024-02-29T13:37:42Z"));
        assertThat(heads.get()).as("no HEAD for the mtime").isZero();
        try (var in = path("/doc.txt").newInputStream()) {
            assertThat(dev.remotepath.spi.StatReportingStream.of(in)).hasValueSatisfying(
                    st -> assertThat(st.size()).hasValue(CONTENT.length));
        }
        target.fileSystem().close();
    }

    @Test
    void statFromHeadersWithChecksumsAndFallbackWhenHeadIsRefused() throws Exception {
        server.on("HEAD /f", (req, resp, cb) -> {
            resp.setStatus(200);
            resp.getHeaders().put("Content-Length", "5");
            resp.getHeaders().put("Last-Modified", "Thu, 29 Feb 2024 13:37:42 GMT");
            resp.getHeaders().put("ETag", "\"abc\"");
            resp.getHeaders().put("Content-MD5", "XUFAKrxLKna5cZ2REBfFkg==");
            resp.getHeaders().put("Repr-Digest", "sha-256=:LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=:");
            cb.succeeded();
        });
        server.on("HEAD /nohead", (req, resp, cb) -> ScriptedServer.send(resp, cb, 405, null, new byte[0], Map.of()));
        server.on("GET /nohead", (req, resp, cb) -> ScriptedServer.send(resp, cb, 206, null, new byte[] {1},
                Map.of("Content-Range", "bytes 0-0/1234")));
        FileStat s = path("/f").stat();
        assertThat(s.type()).isEqualTo(FileType.FILE);
        assertThat(s.size()).hasValue(5);
        assertThat(s.lastModified()).hasValue(Instant.parse("2024-02-29T13:37:42Z"));
        assertThat(s.lastModifiedPrecision()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.etag()).hasValue("\"abc\"");
        assertThat(s.checksums()).containsEntry(ChecksumAlgorithm.MD5, "5d41402abc4b2a76b9719d911017c592")
                .containsEntry(ChecksumAlgorithm.SHA256, "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
        var md5 = path("/f").checksum(ChecksumAlgorithm.MD5);
        assertThat(md5.origin()).isEqualTo(dev.remotepath.Checksum.Origin.METADATA);
        assertThat(server.seen("GET", "/f")).as("no content read for a header checksum").isEmpty();
        assertThat(path("/nohead").stat().size()).hasValue(1234);
    }

    @Test
    void directoriesAreRecognizedByTheirSlashRedirect() throws Exception {
        server.on("HEAD /d", (req, resp, cb) -> ScriptedServer.send(resp, cb, 301, null, new byte[0], Map.of("Location", "/d/")));
        server.on("GET /d/", (req, resp, cb) -> ScriptedServer.index(req, resp, cb, "<a href=\"a.txt\">a.txt</a>\n<a href=\"s/\">s/</a>\n"));
        server.on("GET /f/", (req, resp, cb) -> ScriptedServer.send(resp, cb, 302, null, new byte[0], Map.of("Location", "/f")));
        assertThat(path("/d").stat().type()).isEqualTo(FileType.DIRECTORY);
        assertThat(path("/d").list()).extracting(DirEntry::name, DirEntry::type).containsExactly(
                org.assertj.core.groups.Tuple.tuple("a.txt", FileType.FILE), org.assertj.core.groups.Tuple.tuple("s", FileType.DIRECTORY));
        assertThatThrownBy(() -> path("/f").list()).isInstanceOf(NotDirectoryException.class);
    }

    @Test
    void redirectsStayOnTheOriginUnlessAllowed() throws Exception {
        try (ScriptedServer other = new ScriptedServer()) {
            other.on("HEAD /x", (req, resp, cb) -> ScriptedServer.send(resp, cb, 200, null, new byte[0], Map.of("Content-Length", "7")));
            server.on("HEAD /away", (req, resp, cb) -> ScriptedServer.send(resp, cb, 302, null, new byte[0],
                    Map.of("Location", other.base() + "/x")));
            assertThatThrownBy(() -> path("/away").stat()).isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("another origin");
            assertThat(other.requests).isEmpty();
            RemotePath allowed = RemotePaths.get(URI.create(server.base() + "/away"),
                    HttpOptions.builder().crossOriginRedirects(true).build());
            assertThat(allowed.stat().size()).hasValue(0);
        }
        server.on("HEAD /loop", (req, resp, cb) -> ScriptedServer.send(resp, cb, 302, null, new byte[0], Map.of("Location", "/loop")));
        assertThatThrownBy(() -> path("/loop").stat()).isInstanceOf(FileSystemException.class).hasMessageContaining("redirects");
    }

    @Test
    void credentialsAreSentAndNeverShown() throws Exception {
        server.on("HEAD /secret", (req, resp, cb) -> {
            String auth = req.getHeaders().get("Authorization");
            int status = "Basic dXNlcjpodW50ZXIy".equals(auth) ? 200 : 401;
            ScriptedServer.send(resp, cb, status, null, new byte[0], Map.of());
        });
        HttpOptions opts = HttpOptions.builder().basicAuth("user", "hunter2").build();
        RemotePath withAuth = RemotePaths.get(URI.create(server.base() + "/secret"), opts);
        assertThat(withAuth.stat().type()).isEqualTo(FileType.FILE);
        assertThat(withAuth.toString()).doesNotContain("hunter2").doesNotContain("user");
        assertThat(opts.toString()).doesNotContain("hunter2");
        assertThatThrownBy(() -> path("/secret").stat()).isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("401").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> RemotePaths.get("http://user:pw@127.0.0.1:" + server.port() + "/x"))
                .hasMessageContaining("credentials in the URI");
    }

    @Test
    void hostilePagesCannotLeadOutsideTheDirectory() throws Exception {
        server.on("GET /d/", (req, resp, cb) -> ScriptedServer.index(req, resp, cb, String.join("\n",
                "<a href=\"../etc/passwd\">up</a>", "<a href=\"/etc/passwd\">abs</a>", "<a href=\"http://evil.example/x\">host</a>",
                "<a href=\"//evil.example/x\">proto-relative</a>", "<a href=\"javascript:alert(1)\">js</a>",
                "<a href=\"?C=N;O=D\">sort</a>", "<a href=\"#top\">frag</a>", "<a href=\"sub/deeper.txt\">deep</a>",
                "<a href=\"mailto:x@y\">mail</a>", "<a href=\"ok.txt\">ok</a>", "<a href=\"/d/also-ok.txt\">abs child</a>",
                "<a href=\"./dotted.txt\">dot</a>")));
        server.on("GET /evil/", (req, resp, cb) -> ScriptedServer.index(req, resp, cb, "<a href=\"%2e%2e/\">x</a>\n<a href=\"a%2Fb\">y</a>"));
        server.on("GET /nul/", (req, resp, cb) -> ScriptedServer.index(req, resp, cb, "<a href=\"a%00b\">x</a>"));
        assertThat(path("/d").list()).extracting(DirEntry::name).containsExactly("also-ok.txt", "dotted.txt", "ok.txt");
        assertThatThrownBy(() -> path("/evil").list()).isInstanceOf(UnsafeNameException.class);
        assertThatThrownBy(() -> path("/nul").list()).isInstanceOf(UnsafeNameException.class);
    }

    @Test
    void oversizedAndTruncatedPagesAreErrors() throws Exception {
        server.on("GET /big/", (req, resp, cb) -> ScriptedServer.index(req, resp, cb, "<a href=\"x\">x</a>\n".repeat(10_000)));
        server.on("GET /cut/", (req, resp, cb) -> {
            resp.setStatus(200);
            resp.getHeaders().put("Content-Type", "text/html");
            resp.getHeaders().put("Content-Length", "10000");
            resp.write(false, ByteBuffer.wrap("<a href=\"x\">x</a>\n".getBytes(StandardCharsets.UTF_8)),
                    Callback.from(() -> cb.failed(new IOException("dropped by the test")), cb::failed));
        });
        RemotePath small = RemotePaths.get(URI.create(server.base() + "/big"), HttpOptions.builder().maxIndexPageBytes(50_000).build());
        assertThatThrownBy(small::list).isInstanceOf(FileSystemException.class).hasMessageContaining("larger than 50000");
        assertThat(path("/big").list()).hasSize(1);
        assertThatThrownBy(() -> path("/cut").list()).isInstanceOf(IOException.class).hasMessageContaining("/cut/");
    }

    @Test
    void statusCodesMapToNioExceptions() throws Exception {
        server.on("HEAD /forbidden", (req, resp, cb) -> ScriptedServer.send(resp, cb, 403, null, new byte[0], Map.of()));
        server.on("HEAD /broken", (req, resp, cb) -> ScriptedServer.send(resp, cb, 500, null, new byte[0], Map.of()));
        assertThatThrownBy(() -> path("/forbidden").stat()).isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> path("/missing").stat()).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> path("/missing").list()).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> path("/broken").stat()).isInstanceOf(FileSystemException.class).hasMessageContaining("500");
        assertThatThrownBy(() -> path("/x").writeString("no")).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
    }

    @Test
    void deadServersAreClearErrorsNotHangs() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RemotePath dead = RemotePaths.get(URI.create("http://127.0.0.1:" + port + "/x"),
                HttpOptions.builder().connectTimeout(Duration.ofSeconds(2)).build());
        assertThatThrownBy(dead::stat).isInstanceOf(ConnectException.class).hasMessageContaining("127.0.0.1:" + port);
        try (ServerSocket silent = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            RemotePath mute = RemotePaths.get(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/x"),
                    HttpOptions.builder().requestTimeout(Duration.ofMillis(500)).build());
            long t0 = System.nanoTime();
            assertThatThrownBy(mute::stat).isInstanceOf(java.net.SocketTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        }
    }
}
