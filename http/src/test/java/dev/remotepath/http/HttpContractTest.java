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
