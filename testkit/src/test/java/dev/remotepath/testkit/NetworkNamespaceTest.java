package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A program that binds every interface, run in a namespace: reachable through its forward only. */
class NetworkNamespaceTest {

    @TempDir
    Path dir;

    @Test
    void servesThroughTheForwardAndNowhereElse() throws Exception {
        assumeTrue(NetworkNamespace.available() || "true".equals(System.getenv("CI")),
                "no network namespaces here");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "python3 is missing");
        Files.writeString(dir.resolve("hello.txt"), "hello from inside");
        int inside = ServerProcesses.freePort(); // free outside; inside, everything is free
        Path log = dir.resolve("server.log");
        try (NetworkNamespace ns = NetworkNamespace.start(List.of("python3", "-m", "http.server", "--bind", "0.0.0.0",
                "--directory", dir.toString(), String.valueOf(inside)), List.of(inside), log, Duration.ofSeconds(30))) {
            HttpClient client = HttpClient.newHttpClient();
            for (int i = 0; i < 3; i++) { // more than one connection through the bridge
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + ns.localPort(inside) + "/hello.txt")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.body()).isEqualTo("hello from inside");
            }
            assertThatThrownBy(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", inside), 500);
                }
            }).as("the program's own port, outside its namespace").isInstanceOf(IOException.class);
            assertThatThrownBy(() -> ns.localPort(inside + 1)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(Files.readString(log)).contains("GET /hello.txt");
    }

    @Test
    void aProgramThatNeverListensFailsWithItsLog() throws Exception {
        assumeTrue(NetworkNamespace.available() || "true".equals(System.getenv("CI")),
                "no network namespaces here");
        Path log = dir.resolve("fail.log");
        assertThatThrownBy(() -> NetworkNamespace.start(List.of("sh", "-c", "echo cannot start; exit 3"),
                List.of(8080), log, Duration.ofSeconds(20)))
                .isInstanceOf(IOException.class).hasMessageContaining("did not listen on port 8080")
                .hasMessageContaining("cannot start");
    }
}
