package dev.remotepath.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that answers as Azure does but lies in its listings: names outside the listed
 * prefix, names that climb out with {@code ..}, one name twice. Each listing fails with an
 * {@code IOException}; a sync from it writes nothing, inside or outside its target.
 */
class AzureHostileServerTest {

    private HttpServer server;
    private final AtomicReference<String> blobs = new AtomicReference<>("");
    private final AtomicReference<String> nextMarker = new AtomicReference<>("");
    /** When set, every page names 1,000 blobs never named before and points to another. */
    private final java.util.concurrent.atomic.AtomicBoolean endless = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicInteger pages = new java.util.concurrent.atomic.AtomicInteger();
    private RemotePath root;

    @TempDir
    Path temp;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.start();
        AzureOptions options = AzureOptions.builder()
                .endpoint(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/acct"))
                .credentials(AzureCredentials.sharedKey("acct", Azurite.KEY)).maxRetries(0).build();
        root = RemotePaths.get(URI.create("az://hostile/"), options);
    }

    @AfterEach
    void stop() throws IOException {
        root.fileSystem().close();
        server.stop(0);
    }

    private void answer(HttpExchange x) throws IOException {
        try (x) {
            x.getResponseHeaders().add("x-ms-version", "2021-10-04");
            String query = x.getRequestURI().getRawQuery() == null ? "" : x.getRequestURI().getRawQuery();
            if (query.contains("comp=list") && endless.get()) {
                int page = pages.getAndIncrement();
                StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults><Blobs>");
                for (int i = 0; i < 1000; i++) {
                    xml.append(blob("dir/p" + page + "-" + i));
                }
                byte[] body = xml.append("</Blobs><NextMarker>m").append(page).append("</NextMarker></EnumerationResults>")
                        .toString().getBytes(StandardCharsets.UTF_8);
                x.getResponseHeaders().add("Content-Type", "application/xml");
                x.sendResponseHeaders(200, body.length);
                try (OutputStream out = x.getResponseBody()) {
                    out.write(body);
                }
            } else if (query.contains("comp=list")) {
                byte[] body = ("<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults><Blobs>"
                        + (query.contains("marker=") ? "" : blobs.get())
                        + "</Blobs>" + (nextMarker.get().isEmpty() ? "<NextMarker />" : "<NextMarker>" + nextMarker.get()
                        + "</NextMarker>") + "</EnumerationResults>").getBytes(StandardCharsets.UTF_8);
                x.getResponseHeaders().add("Content-Type", "application/xml");
                x.sendResponseHeaders(200, body.length);
                try (OutputStream out = x.getResponseBody()) {
                    out.write(body);
                }
            } else if (x.getRequestURI().getPath().endsWith("/shifted.bin")) {
                // whatever range is asked, the first ten bytes of a 100-byte blob
                byte[] body = "0123456789".getBytes(StandardCharsets.UTF_8);
                x.getResponseHeaders().add("Content-Range", "bytes 0-9/100");
                x.getResponseHeaders().add("ETag", "\"0x3\"");
                x.getResponseHeaders().add("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT");
                x.getResponseHeaders().add("x-ms-blob-type", "BlockBlob");
                x.sendResponseHeaders(206, body.length);
                try (OutputStream out = x.getResponseBody()) {
                    out.write(body);
                }
            } else if (x.getRequestURI().getPath().endsWith("/slow.bin")) {
                x.getResponseHeaders().add("Content-Range", "bytes 0-99999/100000");
                x.getResponseHeaders().add("ETag", "\"0x2\"");
                x.getResponseHeaders().add("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT");
                x.getResponseHeaders().add("x-ms-blob-type", "BlockBlob");
                x.sendResponseHeaders(x.getRequestMethod().equals("HEAD") ? 200 : 206,
                        x.getRequestMethod().equals("HEAD") ? -1 : 100_000);
                try (OutputStream out = x.getResponseBody()) {
                    while (!x.getRequestMethod().equals("HEAD")) { // a byte every 50 ms, never done
                        out.write('x');
                        out.flush();
                        Thread.sleep(50);
                    }
                } catch (IOException | InterruptedException gone) {
                    // the client gave up
                }
            } else if (query.contains("restype=container")) {
                x.getResponseHeaders().add("ETag", "\"0x1\"");
                x.sendResponseHeaders(200, -1);
            } else {
                x.getResponseHeaders().add("x-ms-error-code", "BlobNotFound");
                x.sendResponseHeaders(404, -1);
            }
        }
    }

    private static String blob(String name) {
        return "<Blob><Name>" + name + "</Name><Properties><Last-Modified>Mon, 01 Jan 2024 00:00:00 GMT</Last-Modified>"
                + "<Etag>0x1</Etag><Content-Length>5</Content-Length><BlobType>BlockBlob</BlobType></Properties>"
                + "<Metadata /></Blob>";
    }

    private void assertNothingWritten(Path target) throws IOException {
        try (Stream<Path> all = Files.walk(temp)) {
            assertThat(all.filter(Files::isRegularFile)).as("files written under " + temp).isEmpty();
        }
        assertThat(Files.exists(target) ? Files.list(target).count() : 0L).isZero();
    }

    @Test
    void aListingNamingABlobOutsideItsPrefixFails() throws Exception {
        blobs.set(blob("dir/a.txt") + blob("elsewhere/b.txt"));
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(IOException.class)
                .hasMessageContaining("not below");
        assertThatThrownBy(() -> root.fileSystem().listTree(root.resolve("dir"), dev.remotepath.spi.ListDetail.FILE_STATS)
                .hasNext()).isInstanceOf(IOException.class).hasMessageContaining("not below");
    }

    @Test
    void namesThatClimbOutAreRefusedAndASyncWritesNothing() throws Exception {
        blobs.set(blob("dir/../../escape.txt") + blob("dir/ok.txt"));
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(IOException.class);
        Path target = temp.resolve("target");
        // The source's own listing refused: the run stops before acting, as for a missing source (docs/archives.md).
        assertThatThrownBy(() -> PathSyncer.builder(root.resolve("dir"), RemotePaths.get(target.toUri())).build().run())
                .isInstanceOf(dev.remotepath.UnsafeNameException.class).hasMessageContaining("az://hostile/dir");
        assertNothingWritten(target);
        assertThat(Files.exists(temp.resolve("escape.txt"))).isFalse();
    }

    /** A server that hands back the same continuation marker forever must not hold a listing forever. */
    @Test
    void aListingThatNeverEndsFails() {
        // the first page lists a file, then every page is empty and points to the next
        blobs.set(blob("dir/a.txt"));
        nextMarker.set("again");
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> {
            assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(IOException.class)
                    .hasMessageContaining("az://hostile/dir");
            assertThatThrownBy(() -> {
                var tree = root.fileSystem().listTree(root.resolve("dir"), dev.remotepath.spi.ListDetail.FILE_STATS);
                while (tree.hasNext()) {
                    tree.next();
                }
            }).isInstanceOf(IOException.class).hasMessageContaining("az://hostile/dir");
        });
    }

    /** Pages of new names, each pointing to another: only the listing's size bound ends it. */
    @Test
    void aListingOfNewNamesWithoutEndFailsPastTheEntryBound() {
        endless.set(true);
        System.setProperty("remotepath.maxListingEntries", "5000");
        try {
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () ->
                    assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(IOException.class)
                            .hasMessageContaining("az://hostile/dir").hasMessageContaining("more than 5,000 entries"));
        } finally {
            System.clearProperty("remotepath.maxListingEntries");
        }
        assertThat(pages).as("pages asked: the bound's five and the one that passed it").hasValue(6);
    }

    /**
     * A blob whose body comes a byte every 50 ms is cut off after a request timeout of waiting,
     * not read for the hour and more it would take (the SDK's own stream read a chunk whole, with
     * no bound on its body: this read ran until the test's timeout).
     */
    @Test
    void aTricklingBlobIsCutOffAfterARequestTimeoutOfWaiting() throws IOException {
        AzureOptions quick = AzureOptions.builder()
                .endpoint(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/acct"))
                .credentials(AzureCredentials.sharedKey("acct", Azurite.KEY)).maxRetries(0)
                .requestTimeout(java.time.Duration.ofMillis(500)).build();
        RemotePath slow = RemotePaths.get(URI.create("az://hostile/slow.bin"), quick);
        try {
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () ->
                    assertThatThrownBy(slow::readAllBytes).isInstanceOf(java.net.SocketTimeoutException.class)
                            .hasMessageContaining("az://hostile/slow.bin: the body trickles")
                            .hasMessageContaining("-Dremotepath.minimumBodyRate"));
        } finally {
            slow.fileSystem().close();
        }
    }

    /** A range answered from another first byte is not taken for the bytes asked for. */
    @Test
    void aRangeAnsweredFromAnotherOffsetFailsTheRead() throws IOException {
        RemotePath shifted = root.resolve("shifted.bin");
        try (var in = shifted.fileSystem().openRead(shifted, 5)) {
            org.junit.jupiter.api.Assertions.fail("opened: " + in);
        } catch (java.nio.file.FileSystemException e) {
            assertThat(e).hasMessageContaining("az://hostile/shifted.bin").hasMessageContaining("asked for bytes from 5")
                    .hasMessageContaining("bytes 0-9/100");
        }
        try (var in = shifted.fileSystem().openRead(shifted, 0)) {
            assertThat(in.readNBytes(10)).asString(StandardCharsets.UTF_8).isEqualTo("0123456789");
            assertThatThrownBy(in::read).as("the next chunk, from 10, is answered from 0 again")
                    .isInstanceOf(java.nio.file.FileSystemException.class).hasMessageContaining("asked for bytes from 10");
        }
    }

    @Test
    void aNameListedTwiceIsRefused() throws Exception {
        blobs.set(blob("dir/twice.txt") + blob("dir/twice.txt"));
        assertThatThrownBy(() -> root.resolve("dir").list()).isInstanceOf(IOException.class);
    }
}
