package dev.remotepath.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.remotepath.IsDirectoryException;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.syncer.PathSyncer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that answers as WebDAV does but lies: members outside the listed collection, names
 * that climb out, NUL in a name, answers too large, malformed or never sent, a collection
 * where a file was listed. Every case ends in an {@code IOException} naming what failed, and
 * nothing is written outside a sync's target or deleted that should not be.
 */
class WebDavHostileServerTest {

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile Function<HttpExchange, String> propfind;
    private final CountDownLatch release = new CountDownLatch(1);
    private RemotePath root;
    private static final String TRICKLE = "TRICKLE:";

    @TempDir
    Path temp;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        WebDavOptions options = WebDavOptions.builder().mtimes(WebDavOptions.Mtimes.SERVER)
                .requestTimeout(Duration.ofSeconds(2)).listingTimeout(Duration.ofSeconds(3)).idleTimeout(Duration.ofSeconds(2))
                .maxListingBytes(64 * 1024).build();
        root = RemotePaths.get(URI.create("webdav://127.0.0.1:" + server.getAddress().getPort() + "/"), options);
    }

    @AfterEach
    void stop() throws IOException {
        release.countDown();
        root.fileSystem().close();
        server.stop(0);
    }

    private void answer(HttpExchange x) throws IOException {
        try (x) {
            requests.add(x.getRequestMethod() + " " + x.getRequestURI().getRawPath());
            x.getRequestBody().readAllBytes();
            if (x.getRequestMethod().equals("GET") && x.getRequestURI().getRawPath().equals("/slow.bin")) {
                x.sendResponseHeaders(200, 100_000); // and a byte every 100 ms: never idle, never done
                try (OutputStream out = x.getResponseBody()) {
                    while (release.getCount() > 0) {
                        out.write('x');
                        out.flush();
                        Thread.sleep(100);
                    }
                } catch (IOException | InterruptedException cut) {
                    // the client gave up: what the test wants
                }
                return;
            }
            if (!x.getRequestMethod().equals("PROPFIND")) {
                x.sendResponseHeaders(204, -1);
                return;
            }
            String body = propfind.apply(x);
            if (body == null) { // silent: hold the exchange until the test ends
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            if (body.startsWith(TRICKLE)) { // a byte every 200 ms: never idle, never done
                x.sendResponseHeaders(207, 0);
                try (OutputStream out = x.getResponseBody()) {
                    byte[] b = body.substring(TRICKLE.length()).getBytes(StandardCharsets.UTF_8);
                    for (int i = 0; i < b.length && release.getCount() > 0; i++) {
                        out.write(b[i]);
                        out.flush();
                        Thread.sleep(200);
                    }
                } catch (IOException | InterruptedException cut) {
                    // the client gave up: what the test wants
                }
                return;
            }
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", "application/xml; charset=utf-8");
            x.sendResponseHeaders(207, b.length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(b);
            }
        }
    }

    private static String response(String href, boolean collection) {
        return "<D:response><D:href>" + href + "</D:href><D:propstat><D:prop>"
                + (collection ? "<D:resourcetype><D:collection/></D:resourcetype>"
                        : "<D:resourcetype/><D:getcontentlength>4</D:getcontentlength>")
                + "<D:getlastmodified>Thu, 03 Dec 2026 21:39:25 GMT</D:getlastmodified></D:prop>"
                + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>";
    }

    private static String multistatus(String... responses) {
        return "<?xml version=\"1.0\"?><D:multistatus xmlns:D=\"DAV:\">" + String.join("", responses) + "</D:multistatus>";
    }

    @Test
    void aTricklingDownloadIsCutOffAfterAnIdleTimeoutOfWaiting() {
        propfind = x -> multistatus("<D:response><D:href>/slow.bin</D:href><D:propstat><D:prop><D:resourcetype/>"
                + "<D:getcontentlength>100000</D:getcontentlength><D:getetag>\"e\"</D:getetag>"
                + "<D:getlastmodified>Thu, 03 Dec 2026 21:39:25 GMT</D:getlastmodified></D:prop>"
                + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>");
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                assertThatThrownBy(() -> root.resolve("slow.bin").readAllBytes())
                        .isInstanceOf(java.net.SocketTimeoutException.class).hasMessageContaining("/slow.bin: the body trickles")
                        .hasMessageContaining("-Dremotepath.minimumBodyRate"));
    }

    /** Lists {@code /dir/} with its own response and {@code members}; answers a depth-0 PROPFIND of {@code /dir} as a collection. */
    private void dirListing(String... members) {
        propfind = x -> {
            String path = x.getRequestURI().getRawPath();
            if ("0".equals(x.getRequestHeaders().getFirst("Depth"))) {
                return path.equals("/dir") || path.equals("/dir/") || path.equals("/")
                        ? multistatus(response(path, true)) : multistatus(response(path, false));
            }
            String[] all = new String[members.length + 1];
            all[0] = response("/dir/", true);
            System.arraycopy(members, 0, all, 1, members.length);
            return multistatus(all);
        };
    }

    @Test
    void membersThatClimbOutOrLieElsewhereAreRefused() throws Exception {
        dirListing(response("/dir/ok.txt", false), response("/dir/%2e%2e", true));
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(UnsafeNameException.class);
        dirListing(response("/dir/ok.txt", false), response("/dir/../../etc/passwd", false));
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("not a member");
        dirListing(response("/other/x.txt", false));
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("not a member");
        dirListing(response("/dir/a%00b", false));
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(UnsafeNameException.class);
        dirListing(response("/dir/sub/deeper.txt", false));
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("not a member");
        // a member the server will not describe is not left out: a sync would delete it from its target
        dirListing(response("/dir/ok.txt", false),
                "<D:response><D:href>/dir/hidden.txt</D:href><D:status>HTTP/1.1 403 Forbidden</D:status></D:response>");
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("cannot describe");
    }

    @Test
    void aSyncFromALyingServerWritesNothingOutsideItsTarget() throws Exception {
        dirListing(response("/dir/ok.txt", false), response("/dir/%2e%2e", true));
        Path target = Files.createDirectories(temp.resolve("mirror"));
        assertThatThrownBy(() -> PathSyncer.builder(root.resolve("dir"), RemotePaths.of(target)).build().run())
                .isInstanceOf(IOException.class);
        try (Stream<Path> s = Files.walk(temp)) {
            assertThat(s.filter(Files::isRegularFile).toList()).isEmpty();
        }
    }

    @Test
    void answersTooLargeOrMalformedFailNamingWhy() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            many.append(response("/dir/f" + i, false));
        }
        dirListing(many.toString());
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("maxListingBytes");
        propfind = x -> "<html><title>Login</title></html>";
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("not a DAV: multistatus");
        propfind = x -> "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>/dir/&x;</D:href></D:response></D:multistatus>";
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(FileSystemException.class);
    }

    @Test
    void aSilentServerTimesOut() {
        propfind = x -> null;
        long start = System.nanoTime();
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(SocketTimeoutException.class)
                .hasMessageContaining("requestTimeout");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aTricklingAnswerIsCutOffByTheListingTimeout() {
        propfind = x -> TRICKLE + multistatus(response("/dir/", true), response("/dir/f", false));
        long start = System.nanoTime();
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(SocketTimeoutException.class)
                .hasMessageContaining("listingTimeout");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void aDeleteIsSentOnlyForWhatTheServerSaysItIs() throws Exception {
        dirListing(response("/dir/member.txt", false));
        assertThatThrownBy(() -> root.resolve("dir").fileSystem().deleteDirectory(root.resolve("dir")))
                .isInstanceOf(DirectoryNotEmptyException.class);
        // a "file" the server now says is a collection: a DELETE would take its whole tree
        propfind = x -> multistatus(response(x.getRequestURI().getRawPath(), true));
        assertThatThrownBy(() -> root.fileSystem().deleteFile(root.resolve("was-a-file")))
                .isInstanceOf(IsDirectoryException.class);
        assertThat(requests).noneMatch(r -> r.startsWith("DELETE"));
    }
}
