package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A store that fails requests: the error says what it answered (status, S3 error code and
 * message, the request id operators ask for), and when the answer is not an S3 error document,
 * what kind of answer it was.
 */
@Timeout(60)
class S3ErrorAnswersTest {

    private HttpServer server;
    private final AtomicReference<Answer> answer = new AtomicReference<>();
    /** When set, answers in place of {@link #answer}, from the request's query. */
    private final AtomicReference<java.util.function.Function<String, Answer>> byQuery = new AtomicReference<>();
    /** When set, an object's GET is answered 100,000 bytes long and sent a byte each this often. */
    private final AtomicReference<java.time.Duration> trickle = new AtomicReference<>();

    record Answer(int status, String contentType, String body, String requestId, java.util.Map<String, String> headers) {
        Answer(int status, String contentType, String body, String requestId) {
            this(status, contentType, body, requestId, java.util.Map.of());
        }
    }

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (trickle.get() != null && exchange.getRequestMethod().equals("GET")
                    && exchange.getRequestURI().getQuery() == null) {
                exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
                exchange.getResponseHeaders().set("ETag", "\"e\"");
                exchange.getResponseHeaders().set("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT");
                exchange.sendResponseHeaders(200, 100_000);
                try (OutputStream out = exchange.getResponseBody()) {
                    while (true) {
                        out.write('x');
                        out.flush();
                        Thread.sleep(trickle.get());
                    }
                } catch (IOException | InterruptedException gone) {
                    return; // the client gave up
                }
            }
            Answer a = byQuery.get() != null ? byQuery.get().apply(String.valueOf(exchange.getRequestURI().getQuery()))
                    : answer.get();
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", a.contentType());
            a.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
            if (a.requestId() != null) {
                exchange.getResponseHeaders().set("x-amz-request-id", a.requestId());
            }
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(a.status(), head ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                if (!head) {
                    out.write(body);
                }
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private RemotePath bucket() throws IOException {
        return bucket(java.time.Duration.ofSeconds(60));
    }

    private RemotePath bucket(java.time.Duration requestTimeout) throws IOException {
        S3Options o = S3Options.builder().endpoint(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .pathStyle(true).region("us-east-1").credentials(S3Credentials.of("k", "s")).maxRetries(0)
                .requestTimeout(requestTimeout).build();
        return RemotePaths.get(URI.create("s3://failing/dir/"), o);
    }

    /** A store whose every page is truncated and hands back the same token: the listing fails, never loops. */
    @Test
    void aListingWhoseTokenComesBackFails() throws IOException {
        answer.set(new Answer(200, "application/xml", "<?xml version=\"1.0\"?><ListBucketResult><Name>failing</Name>"
                + "<Prefix>dir/</Prefix><KeyCount>1</KeyCount><IsTruncated>true</IsTruncated>"
                + "<NextContinuationToken>again</NextContinuationToken><Contents><Key>dir/a.txt</Key><Size>1</Size>"
                + "<LastModified>2024-01-01T00:00:00.000Z</LastModified><ETag>\"x\"</ETag></Contents></ListBucketResult>",
                null));
        RemotePath dir = bucket();
        assertThatThrownBy(() -> {
            var listing = dir.fileSystem().list(dir, dev.remotepath.spi.ListDetail.TYPES);
            while (listing.hasNext()) {
                listing.next();
            }
        })
                .isInstanceOf(IOException.class).hasMessageContaining("s3://failing/dir").hasMessageContaining("gave before");
    }

    /**
     * A store whose every page names 1,000 keys never named before and hands a new token: no
     * token comes back, no page is empty; only the listing's size bound ends it.
     */
    @Test
    void aListingOfNewKeysWithoutEndFailsPastTheEntryBound() throws IOException {
        java.util.concurrent.atomic.AtomicInteger pages = new java.util.concurrent.atomic.AtomicInteger();
        byQuery.set(query -> {
            int page = pages.getAndIncrement();
            StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?><ListBucketResult><Name>failing</Name>"
                    + "<Prefix>dir/</Prefix><KeyCount>1000</KeyCount><IsTruncated>true</IsTruncated>"
                    + "<NextContinuationToken>t" + page + "</NextContinuationToken>");
            for (int i = 0; i < 1000; i++) {
                xml.append("<Contents><Key>dir/p").append(page).append('-').append(i).append("</Key><Size>1</Size>"
                        + "<LastModified>2024-01-01T00:00:00.000Z</LastModified><ETag>\"x\"</ETag></Contents>");
            }
            return new Answer(200, "application/xml", xml.append("</ListBucketResult>").toString(), null);
        });
        RemotePath dir = bucket();
        System.setProperty("remotepath.maxListingEntries", "5000");
        try {
            assertThatThrownBy(dir::list).isInstanceOf(IOException.class).hasMessageContaining("s3://failing/dir")
                    .hasMessageContaining("more than 5,000 entries");
        } finally {
            System.clearProperty("remotepath.maxListingEntries");
        }
        assertThat(pages).as("pages asked: the bound's five and the one that passed it").hasValue(6);
    }

    /**
     * A store whose pages each come in time but name one new key apiece: a million entries would
     * take days. Judged on its pace once its window has passed (here 1 s and 50 names a second),
     * the listing fails naming the directory instead of reading on.
     */
    @Test
    void aListingWhosePagesTrickleFailsOnceItsWindowHasPassed() throws IOException {
        java.util.concurrent.atomic.AtomicInteger pages = new java.util.concurrent.atomic.AtomicInteger();
        byQuery.set(query -> {
            int page = pages.getAndIncrement();
            try {
                Thread.sleep(150);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Answer(200, "application/xml", "<?xml version=\"1.0\"?><ListBucketResult><Name>failing</Name>"
                    + "<Prefix>dir/</Prefix><KeyCount>1</KeyCount><IsTruncated>true</IsTruncated>"
                    + "<NextContinuationToken>t" + page + "</NextContinuationToken><Contents><Key>dir/k" + page
                    + "</Key><Size>1</Size><LastModified>2024-01-01T00:00:00.000Z</LastModified><ETag>\"x\"</ETag>"
                    + "</Contents></ListBucketResult>", null);
        });
        RemotePath dir = bucket();
        System.setProperty("remotepath.listingRateWindow", "1");
        System.setProperty("remotepath.minimumListingRate", "50");
        try {
            assertThatThrownBy(dir::list).isInstanceOf(IOException.class).hasMessageContaining("s3://failing/dir")
                    .hasMessageContaining("refused as a listing that trickles");
        } finally {
            System.clearProperty("remotepath.listingRateWindow");
            System.clearProperty("remotepath.minimumListingRate");
        }
        assertThat(pages.get()).as("pages asked: about a second's worth, not forever").isBetween(7, 30);
    }

    /**
     * An object whose body comes a byte every 50 ms, each within the read timeout: cut off after
     * a read timeout's worth of waiting, not read for the hour and a half it would take.
     */
    @Test
    void aTricklingBodyIsCutOffAfterAReadTimeoutOfWaiting() throws IOException {
        trickle.set(java.time.Duration.ofMillis(50));
        RemotePath file = bucket(java.time.Duration.ofSeconds(1)).resolve("slow.bin");
        long started = System.nanoTime();
        assertThatThrownBy(file::readAllBytes).isInstanceOf(java.net.SocketTimeoutException.class)
                .hasMessageContaining("s3://failing/dir/slow.bin: the body trickles")
                .hasMessageContaining("-Dremotepath.minimumBodyRate");
        assertThat(System.nanoTime() - started).as("cut off within a few windows").isLessThan(15_000_000_000L);
    }

    @Test
    void anInternalErrorSaysWhatTheStoreAnswered() throws IOException {
        answer.set(new Answer(500, "application/xml", "<?xml version=\"1.0\"?><Error><Code>InternalError</Code>"
                + "<Message>We encountered an internal error. Please try again.</Message>"
                + "<RequestId>4442587FB7D0A2F9</RequestId></Error>", "4442587FB7D0A2F9"));
        RemotePath dir = bucket();
        assertThatThrownBy(dir::list).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("s3://failing/dir")
                .hasMessageContaining("the store failed the request")
                .hasMessageContaining("HTTP 500 InternalError: We encountered an internal error")
                .hasMessageContaining("request id 4442587FB7D0A2F9");
        assertThatThrownBy(() -> dir.resolve("f.txt").writeString("x")).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("s3://failing/dir").hasMessageContaining("the store failed the request (HTTP 500");
        dir.fileSystem().close();
    }

    @Test
    void aPageThatIsNotAnS3ErrorIsNamedForWhatItIs() throws IOException {
        answer.set(new Answer(502, "text/html", "<html><head><title>502 Bad Gateway</title><style>h1{x}</style>"
                + "</head><body>\n<h1>Bad Gateway</h1>\n<p>The upstream\u001b[31m store is down.</p>"
                + "x".repeat(5000) + "</body></html>", null));
        RemotePath dir = bucket();
        assertThatThrownBy(dir::list).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("the store failed the request (HTTP 502: Bad Gateway (a text/html answer, "
                        + "not an S3 error: a proxy in between?))");
        dir.fileSystem().close();
    }

    @Test
    void aRangedReadAnsweredFromAnotherOffsetIsRefusedNotTakenForTheBytesAsked() throws IOException {
        RemotePath file = bucket().resolve("f.bin");
        answer.set(new Answer(206, "application/octet-stream", "0123456789", null,
                java.util.Map.of("Content-Range", "bytes 0-9/100", "ETag", "\"e1\"")));
        assertThatThrownBy(() -> file.fileSystem().openRead(file, 50, 10).close()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("s3://failing/dir/f.bin").hasMessageContaining("from 50")
                .hasMessageContaining("'bytes 0-9/100'");
        // A store that ignores Range sends the whole object: not bytes from 50 either.
        answer.set(new Answer(200, "application/octet-stream", "x".repeat(100), null, java.util.Map.of("ETag", "\"e1\"")));
        assertThatThrownBy(() -> file.newInputStream(50).close()).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("without a Content-Range");
        // From byte 0 the whole object is the bytes asked: a window reads them and stops at its end.
        try (var in = file.fileSystem().openRead(file, 0, 10)) {
            assertThat(in.readAllBytes()).hasSize(10);
        }
        // The answer asked for reads as before.
        answer.set(new Answer(206, "application/octet-stream", "0123456789", null,
                java.util.Map.of("Content-Range", "bytes 50-59/100", "ETag", "\"e1\"")));
        try (var in = file.fileSystem().openRead(file, 50, 10)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("0123456789");
        }
        file.fileSystem().close();
    }

    @Test
    void throttlingIsNamedAsSuch() throws IOException {
        answer.set(new Answer(503, "application/xml",
                "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>", null));
        RemotePath dir = bucket();
        assertThatThrownBy(dir::list).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("throttled by the store")
                .hasMessageContaining("HTTP 503 SlowDown: Please reduce your request rate.");
        dir.fileSystem().close();
    }

    /**
     * A listing that names keys outside the prefix it was asked for lies: per directory and
     * flat, it fails the listing (nothing below is compared or deleted on it) rather than
     * having the key's tail taken for a name.
     */
    @Test
    void aListingOfKeysOutsideThePrefixFailsInsteadOfBeingCutToNames() throws IOException {
        answer.set(new Answer(200, "application/xml", """
                <?xml version="1.0" encoding="UTF-8"?>
                <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>failing</Name>                <Prefix>dir/</Prefix><KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>                <Contents><Key>dir/fine.txt</Key><LastModified>2026-11-30T10:00:00.000Z</LastModified>                <ETag>&quot;2c1743a391305fbf367df8e4f069f9f9&quot;</ETag><Size>5</Size></Contents>                <Contents><Key>elsewhere/secret.txt</Key><LastModified>2026-11-30T10:00:00.000Z</LastModified>                <ETag>&quot;2c1743a391305fbf367df8e4f069f9f9&quot;</ETag><Size>5</Size></Contents>                <CommonPrefixes><Prefix>other/</Prefix></CommonPrefixes></ListBucketResult>""", null));
        RemotePath dir = bucket();
        assertThatThrownBy(dir::list).isInstanceOf(IOException.class)
                .hasMessageContaining("the store listed 'elsewhere/secret.txt', which is not below 'dir/'");
        assertThatThrownBy(() -> dir.fileSystem().listTree(dir, dev.remotepath.spi.ListDetail.FILE_STATS))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("the store listed the key 'elsewhere/secret.txt', which is not under 'dir/'");
        dir.fileSystem().close();
    }
}
