package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a terminal user sees: names that hold control characters are escaped in text output,
 * and the libraries under the CLI stay silent unless asked (--verbose, --log-level). Logging is
 * configured once per JVM, so that part runs rpath as its own process, as users run it.
 */
class QuietOutputTest {

    @TempDir
    Path temp;

    @Test
    void controlCharactersInNamesAreEscapedInTextAndKeptInJson() throws Exception {
        Path dir = Files.createDirectories(temp.resolve("d"));
        Files.writeString(dir.resolve("evil\n\u001b[31mred"), "x");
        RpathTest.Result text = RpathTest.rpath("ls", dir.toString());
        assertThat(text.out().lines()).containsExactly("evil\\n\\x1b[31mred");
        RpathTest.Result json = RpathTest.rpath("ls", "--json", dir.toString());
        assertThat(json.out()).contains("evil\\n\\u001b[31mred").doesNotContain("\u001b");
        assertThat(Text.escape("plain name.txt")).isEqualTo("plain name.txt");
        assertThat(Text.escape("a\\b")).isEqualTo("a\\b");
        assertThat(Text.escape("a\\b\tc")).isEqualTo("a\\\\b\\tc");
        assertThat(Text.escape("bad\udcffbyte \uD83D\uDE00")).isEqualTo("bad\\xffbyte \uD83D\uDE00");
    }

    /** A server that greets as OpenSSH and then sends garbage: the SSH libraries log about it. */
    private static ServerSocket garbageSshServer() throws IOException {
        ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept(); OutputStream out = s.getOutputStream(); InputStream in = s.getInputStream()) {
                    out.write("SSH-2.0-OpenSSH_9.2\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.write(new byte[] {0, 0, 0, 12, 10, 20, 'g', 'a', 'r', 'b', 'a', 'g', 'e', 0, 0, 0});
                    out.flush();
                    in.readNBytes(64);
                } catch (IOException closed) {
                    // the client hung up, or the test ended
                }
            }
        });
        return server;
    }

    private static List<String> stderrOf(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Rpath.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return err.lines().toList();
    }

    @Test
    void libraryLogsReachStderrOnlyWhenAsked() throws Exception {
        try (ServerSocket server = garbageSshServer()) {
            String uri = "sftp://u@127.0.0.1:" + server.getLocalPort() + "/";
            Path kh = temp.resolve("known_hosts");
            for (String client : new String[] {"mina", "sshj"}) {
                List<String> quiet = stderrOf("ls", "--sftp-client", client, "--known-hosts", kh.toString(), uri);
                assertThat(quiet).as(client).singleElement().satisfies(l -> assertThat(l).startsWith("rpath ls: "));
            }
            List<String> verbose = stderrOf("--log-level", "info", "ls", "--sftp-client", "sshj", "--known-hosts",
                    kh.toString(), uri);
            assertThat(verbose).anySatisfy(l -> assertThat(l).contains("net.schmizz"));
        }
    }

    @Test
    void syncErrorsArePrintedOnceAsTheyHappen() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src"));
        Files.writeString(src.resolve("ok.txt"), "ok");
        Process mkfifo = new ProcessBuilder("mkfifo", src.resolve("pipe").toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        RpathTest.Result r = RpathTest.rpath("sync", src.toString(), temp.resolve("dst").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().lines()).singleElement().satisfies(l -> assertThat(l).startsWith("rpath sync: pipe:")
                .contains("special file"));
        assertThat(r.out()).startsWith("copied 1 file(s)");
    }

    @Test
    void aCopyEndedBySigtermLeavesNoTemporary() throws Exception {
        int size = 1 << 20;
        com.sun.net.httpserver.HttpServer http = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/f.bin", ex -> {
            ex.getResponseHeaders().set("Last-Modified", "Mon, 01 Jan 2024 10:00:00 GMT");
            if (ex.getRequestMethod().equals("HEAD")) {
                ex.getResponseHeaders().set("Content-Length", Integer.toString(size));
                ex.sendResponseHeaders(200, -1);
                ex.close();
                return;
            }
            ex.sendResponseHeaders(200, size);
            try (OutputStream out = ex.getResponseBody()) {
                for (int sent = 0; sent < size; sent += 1024) { // ~50 s in all: the copy is killed long before
                    out.write(new byte[1024]);
                    out.flush();
                    Thread.sleep(50);
                }
            } catch (IOException | InterruptedException gone) {
                // the client went away
            }
        });
        http.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        http.start();
        Path dst = Files.createDirectories(temp.resolve("drop"));
        try {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                    System.getProperty("java.class.path"), Rpath.class.getName(), "cp",
                    "http://127.0.0.1:" + http.getAddress().getPort() + "/f.bin", dst.resolve("f.bin").toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            long deadline = System.nanoTime() + 30_000_000_000L;
            boolean temporarySeen = false;
            while (!temporarySeen && System.nanoTime() < deadline && p.isAlive()) {
                try (var names = Files.list(dst)) {
                    temporarySeen = names.anyMatch(f -> f.getFileName().toString().endsWith(".rptmp"));
                }
                Thread.sleep(50);
            }
            assertThat(temporarySeen).as("the copy was writing its temporary").isTrue();
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            try (var left = Files.list(dst)) {
                assertThat(left).isEmpty();
            }
        } finally {
            http.stop(0);
        }
    }

    @Test
    void uriErrorsSayWhatIsWrongInUserTerms() throws Exception {
        RpathTest.Result noHost = RpathTest.rpath("ls", "sftp:///srv");
        assertThat(noHost.code()).isEqualTo(2);
        assertThat(noHost.err()).contains("names no host").contains("sftp://[user@]host[:port]/path");
        RpathTest.Result range = RpathTest.rpath("ls", "sftp://h:99999/srv");
        assertThat(range.code()).isEqualTo(2);
        assertThat(range.err()).contains("port 99999 is out of range (1-65535)");
        RpathTest.Result word = RpathTest.rpath("ls", "sftp://h:abc/srv");
        assertThat(word.code()).isEqualTo(2);
        assertThat(word.err()).contains("'abc' is not a port number");
        assertThat(RpathTest.rpath("ls", "http://h:0/x").err()).contains("port 0 is out of range");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        // An IPv6 literal reaches the client without its brackets: a connection error, not MINA's parse error.
        RpathTest.Result v6 = RpathTest.rpath("ls", "--known-hosts", temp.resolve("kh").toString(),
                "sftp://u@[::1]:" + port + "/");
        assertThat(v6.code()).isEqualTo(1);
        assertThat(v6.err()).startsWith("rpath ls: sftp u@[::1]:" + port + ": ").doesNotContain("enclosure");
    }
}
