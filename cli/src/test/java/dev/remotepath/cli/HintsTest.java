package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Error hints name what a command-line user can do: the library's option references become
 * rpath's flags, and the flags they name exist and do what the hint says.
 */
class HintsTest {

    /** The library modules whose messages the CLI prints. */
    private static final List<String> LIBRARY = List.of("api", "mem", "local", "http", "sftp", "s3", "syncer", "azure",
            "webdav", "ftp", "archive");

    @TempDir
    Path temp;

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void everyOptionTheLibraryNamesInAMessageHasACliTranslation() throws IOException {
        Set<String> named = new TreeSet<>();
        for (String module : LIBRARY) {
            Path sources = Path.of("..", module, "src", "main", "java");
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = Hints.REFERENCE.matcher(Files.readString(f));
                    while (m.find()) {
                        named.add(m.group());
                    }
                }
            }
        }
        // The scan sees the hints written today (a source tree without them would prove nothing).
        assertThat(named).contains("HttpOptions.lenientIndexPages", "SftpOptions.readTimeout",
                "S3Options.requestTimeout", "PathSyncer.Builder.allowEmptySource", "-Dremotepath.maxDepth");
        // Option references in code (builder calls, Javadoc) match too; only message hints need a
        // translation, but a translation for every reference is cheap and keeps the rule simple.
        Set<String> untranslated = new TreeSet<>(named);
        untranslated.removeAll(Hints.CLI.keySet());
        untranslated.removeIf(HintsTest::onlyInCode);
        assertThat(untranslated).as("library option references with no CLI translation in Hints.CLI").isEmpty();
    }

    /** References that appear in code, never inside a message literal (checked below by the scan). */
    private static boolean onlyInCode(String reference) {
        try {
            for (String module : LIBRARY) {
                try (Stream<Path> files = Files.walk(Path.of("..", module, "src", "main", "java"))) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                        for (String line : Files.readAllLines(f)) {
                            int at = line.indexOf(reference);
                            if (at >= 0 && insideStringLiteral(line, at)) {
                                return false;
                            }
                        }
                    }
                }
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean insideStringLiteral(String line, int at) {
        String code = line.strip();
        if (code.startsWith("*") || code.startsWith("/**") || code.startsWith("//")) {
            return false;
        }
        int quotes = 0;
        for (int i = 0; i < at; i++) {
            if (line.charAt(i) == '"' && (i == 0 || line.charAt(i - 1) != '\\')) {
                quotes++;
            }
        }
        return quotes % 2 == 1;
    }

    @Test
    void everyTranslationNamesAFlagTheCliHas() {
        String help = RpathTest.rpath("--help").out() + RpathTest.rpath("sync", "--help").out();
        for (String cli : Hints.CLI.values()) {
            if (cli.startsWith("--")) {
                assertThat(help).as(cli).contains(cli);
            }
        }
        assertThat(Hints.forCli("x (HttpOptions.lenientIndexPages accepts such pages)"))
                .isEqualTo("x (--http-lenient-index accepts such pages)");
        assertThat(Hints.forCli("accept new keys (SftpOptions.hostKeyPolicy(ACCEPT_NEW))"))
                .isEqualTo("accept new keys (--accept-new-host-keys)");
        // Jetty's idle bound can fire before requestTimeout's wait: both are --timeout in the CLI
        assertThat(Hints.forCli("GET u: timed out: silent for 1 s (HttpOptions.idleTimeout)"))
                .isEqualTo("GET u: timed out: silent for 1 s (--timeout)");
        // WebDAV and FTP name theirs too; two options one flag sets read as that flag once
        assertThat(Hints.forCli("PROPFIND u: no response in time (WebDavOptions.requestTimeout, "
                + "WebDavOptions.idleTimeout, WebDavOptions.listingTimeout)"))
                .isEqualTo("PROPFIND u: no response in time (--timeout, --webdav-listing-timeout)");
        assertThat(Hints.forCli("the answer is larger than WebDavOptions.maxListingBytes (67108864)"))
                .isEqualTo("the answer is larger than --webdav-max-listing-bytes (67108864)");
        assertThat(Hints.forCli("f: the server stopped reading for 1 s (FtpOptions.readTimeout)"))
                .isEqualTo("f: the server stopped reading for 1 s (--timeout)");
        assertThat(Hints.forCli("(--timeout, --timeout-x)")).isEqualTo("(--timeout, --timeout-x)");
        assertThat(Hints.forCli("no dots here")).isEqualTo("no dots here");
        assertThat(Hints.forCli("MyOptions.x and a.b")).isEqualTo("MyOptions.x and a.b");
    }

    private String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void serve(String path, int status, String contentType, String body, Duration delay) throws IOException {
        if (server == null) {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            server.start();
        }
        // Registered without its slash, as servers send "/dir" on to "/dir/".
        String context = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        server.createContext(context, exchange -> {
            if (path.endsWith("/") && !exchange.getRequestURI().getPath().endsWith("/")) {
                exchange.getResponseHeaders().set("Location", path);
                exchange.sendResponseHeaders(301, -1);
                exchange.close();
                return;
            }
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                if (!head) {
                    out.write(bytes);
                }
            }
        });
    }

    @Test
    void aPageThatIsNotAnIndexNamesTheFlagThatAcceptsIt() throws IOException {
        serve("/dir/", 200, "text/html", "<html><head><title>Down for maintenance</title></head><body>"
                + "<a href=\"status.html\">status</a></body></html>", Duration.ZERO);
        RpathTest.Result refused = RpathTest.rpath("ls", base() + "/dir/");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("not a directory index", "(--http-lenient-index accepts such pages)")
                .doesNotContain("HttpOptions");
        RpathTest.Result lenient = RpathTest.rpath("ls", "--http-lenient-index", base() + "/dir/");
        assertThat(lenient.code()).as(lenient.err()).isZero();
        assertThat(lenient.out().lines()).containsExactly("status.html");
    }

    @Test
    void timeoutFlagBoundsAServerThatDoesNotAnswerAndTheErrorNamesIt() throws IOException {
        serve("/slow.bin", 200, "application/octet-stream", "late", Duration.ofSeconds(30));
        long t0 = System.nanoTime();
        RpathTest.Result slow = RpathTest.rpath("cat", "--timeout", "1s", base() + "/slow.bin");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
        assertThat(slow.code()).isEqualTo(1);
        assertThat(slow.err()).contains("(--timeout)").doesNotContain("Options");
        assertThat(RpathTest.rpath("cat", "--timeout", "soon", base() + "/slow.bin").err())
                .contains("'soon' is not a duration");
    }

    @Test
    void emptySourceRefusalNamesTheFlagThatAllowsIt() throws IOException {
        Path source = Files.createDirectories(temp.resolve("empty"));
        Path target = Files.createDirectories(temp.resolve("mirror"));
        Files.writeString(target.resolve("keep.txt"), "kept");
        RpathTest.Result refused = RpathTest.rpath("sync", "--delete", source.toString(), target.toString());
        assertThat(refused.code()).isEqualTo(Failures.REFUSED);
        assertThat(refused.err()).contains("(--allow-empty-source overrides)").doesNotContain("PathSyncer");
        assertThat(target.resolve("keep.txt")).exists();
        RpathTest.Result allowed = RpathTest.rpath("sync", "--delete", "--allow-empty-source", source.toString(),
                target.toString());
        assertThat(allowed.code()).as(allowed.err()).isZero();
        assertThat(target.resolve("keep.txt")).doesNotExist();
    }

    @Test
    void durationsAndSizesReadAsPeopleWriteThem() {
        assertThat(Syntax.toDuration("90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Syntax.toDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Syntax.toDuration("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(Syntax.toDuration("2m5s")).isEqualTo(Duration.ofSeconds(125));
        for (String bad : List.of("", "0", "0s", "s", "1x", "1s2", "-1s", "99999999999s")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Syntax.toDuration(bad))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a duration");
        }
        // every duration flag is a timeout, bounded as the backends' options bound them (spi.Timeouts)
        assertThat(Syntax.toDuration("576h")).isEqualTo(Duration.ofDays(24));
        for (String tooLong : List.of("577h", "576h1ms", "999999999h")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Syntax.toDuration(tooLong))
                    .as(tooLong).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("'" + tooLong + "' is longer than the 24 days a timeout may be");
        }
        assertThat(Syntax.toSize("4096")).isEqualTo(4096);
        assertThat(Syntax.toSize("64K")).isEqualTo(65536);
        assertThat(Syntax.toSize("8MiB")).isEqualTo(8L << 20);
        assertThat(Syntax.toSize("1g")).isEqualTo(1L << 30);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Syntax.toSize("lots"))
                .hasMessageContaining("not a size");
        // 15 digits of gigabytes would wrap to a negative bound
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Syntax.toSize("999999999999999G"))
                .hasMessage("'999999999999999G' is larger than any size a bound takes");
        assertThat(Syntax.toBufferSize("16M", 5L << 20, Integer.MAX_VALUE - 8, "x")).isEqualTo(16 << 20);
        for (String outside : List.of("4M", "2G")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> Syntax.toBufferSize(outside, 5L << 20, Integer.MAX_VALUE - 8, "the sizes of an S3 part"))
                    .as(outside).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("'" + outside + "' is outside the sizes of an S3 part (");
        }
    }

    @Test
    void partAndBlockSizesAreFlagsAndTheirLimitsNameThem() {
        RpathTest.Result r = RpathTest.rpath("--s3-part-size", "1M", "ls", "s3://bucket/");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--s3-part-size").contains("outside the sizes of an S3 part");
        assertThat(Hints.forCli("f: larger than S3's 10000 parts hold (536000 MiB in parts growing from 8388608 to "
                + "268435456 bytes); raise S3Options.partSize"))
                .endsWith("raise --s3-part-size");
        assertThat(Hints.forCli("f: larger than Azure's 50,000 blocks of 4194304 bytes; raise AzureOptions.blockSize"))
                .endsWith("raise --az-block-size");
    }
}
