package dev.remotepath.http;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract suite's read-only cases against an in-process Jetty serving a temporary tree;
 * fixtures are written into that tree by the seed hooks. Write cases are skipped by
 * capability (the backend declares none).
 */
class HttpContractTest extends RemoteFileSystemContract {

    private static Path served;
    private static TestWebServer server;
    private static final AtomicInteger CASES = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        served = Files.createTempDirectory("rp-http-");
        server = new TestWebServer(served);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        LocalTrees.delete(served);
    }

    private Path local(RemotePath p) {
        return served.resolve(p.pathString().substring(1));
    }

    /** Options of its own (another request timeout): a file system, and Jetty client, of its own. */
    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        String name = "closing-" + CASES.incrementAndGet();
        Files.createDirectories(served.resolve(name));
        Files.writeString(served.resolve(name).resolve("f"), "x");
        return RemotePaths.get(java.net.URI.create(server.base() + "/" + name + "/"),
                HttpOptions.builder().requestTimeout(java.time.Duration.ofSeconds(29)).build());
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        String name = "case-" + CASES.incrementAndGet();
        Files.createDirectories(served.resolve(name));
        return RemotePaths.get(server.base() + "/" + name);
    }

    /**
     * Jetty 12.1's file server answers 404 for paths holding 4-byte UTF-8 (emoji) although it
     * lists them; Python's http.server and nginx serve them to this client (see
     * {@code RealServersTest}), so the limitation is the test server's.
     */
    @Override
    protected boolean serverCanServe(String name) {
        return name.codePoints().allMatch(Character::isBmpCodePoint);
    }

    /**
     * No exchange outlives its case: the file system's Jetty client has no connection lent out.
     * (Jetty's file server closes a file between writes, so the open-files check would not see
     * a stream held open here; the client's pool does.)
     */
    @org.junit.jupiter.api.AfterEach
    void noConnectionLeftActive() throws InterruptedException {
        HttpFileSystem fs = (HttpFileSystem) dev.remotepath.testkit.NioFacadeFileSystem.backendOf(dir.fileSystem());
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (fs.activeConnections() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        org.assertj.core.api.Assertions.assertThat(fs.activeConnections()).as("HTTP connections still lent out").isZero();
    }

    /** The check above can fail: a response stream held open holds its connection. */
    @org.junit.jupiter.api.Test
    void leakCheckSeesAStreamHeldOpen() throws Exception {
        Files.write(local(dir).resolve("big.bin"), new byte[8 << 20]);
        try (InputStream in = dir.resolve("big.bin").newInputStream()) {
            org.assertj.core.api.Assertions.assertThat(in.read()).isZero();
            org.assertj.core.api.Assertions.assertThat(((HttpFileSystem) dev.remotepath.testkit.NioFacadeFileSystem.backendOf(dir.fileSystem())).activeConnections()).isEqualTo(1);
        }
    }

    @Override
    protected void seedFile(RemotePath file, byte[] content) throws IOException {
        Path p = local(file);
        Files.createDirectories(p.getParent());
        Files.write(p, content);
    }

    @Override
    protected void seedLargeFile(RemotePath file, InputStream content) throws IOException {
        try (OutputStream out = Files.newOutputStream(local(file))) {
            content.transferTo(out);
        }
    }

    @Override
    protected void seedDirectory(RemotePath directory) throws IOException {
        Files.createDirectories(local(directory));
    }

    @Override
    protected void seedSymlink(RemotePath link, String target) throws IOException {
        Files.createSymbolicLink(local(link), Path.of(target));
    }
}
