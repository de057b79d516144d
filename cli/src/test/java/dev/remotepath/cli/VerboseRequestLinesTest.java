package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code --verbose} prints a line per request of a remote backend, from the file system's events; without it, none. */
class VerboseRequestLinesTest {

    private HttpServer server;

    @BeforeEach
    void serve() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/pub/a.txt", exchange -> {
            byte[] body = "alpha".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.getResponseHeaders().set("Last-Modified", "Tue, 01 Dec 2026 10:00:00 GMT");
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
            exchange.close();
        });
        server.createContext("/pub/gone.txt", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Test
    void eachRequestOfARemoteBackendIsOneLineOnStderrOnlyWhenAsked() {
        RpathTest.Result cat = RpathTest.rpath("--verbose", "cat", url("/pub/a.txt"));
        assertThat(cat.code()).as(cat.err()).isZero();
        assertThat(cat.out()).isEqualTo("alpha");
        assertThat(cat.err().lines().filter(l -> l.startsWith("rpath: http ")))
                .anyMatch(l -> l.matches("rpath: http read /pub/a\\.txt 5 bytes [0-9.]+ ms"));

        RpathTest.Result missing = RpathTest.rpath("--verbose", "cat", url("/pub/gone.txt"));
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err().lines()).anyMatch(l -> l.startsWith("rpath: http read /pub/gone.txt failed: ")
                || l.startsWith("rpath: http stat /pub/gone.txt failed: "));

        RpathTest.Result quiet = RpathTest.rpath("cat", url("/pub/a.txt"));
        assertThat(quiet.out()).isEqualTo("alpha");
        assertThat(quiet.err()).doesNotContain("rpath: http");
    }
}
