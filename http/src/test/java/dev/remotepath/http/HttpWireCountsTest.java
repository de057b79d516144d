package dev.remotepath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What a walk, a first sync and a no-op resync from an HTTP index cost on the wire, counted by
 * the server by method ({@link TestWebServer#requests}): one GET per directory page, one GET per
 * copied file, and no HEAD per entry where the page gives size and time (Jetty's does). A
 * hidden HEAD per file, or a page fetched twice, fails here whatever the SPI counts say.
 * Tree: 4 directories (the root, d1, d1/d11, d2), 5 files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpWireCountsTest {

    private static final int DIRS = 4;
    private static final int FILES = 5;

    private Path served;
    private TestWebServer server;

    @BeforeAll
    void start() throws Exception {
        served = Files.createTempDirectory("rp-http-wire-");
        Instant t = Instant.parse("2024-02-29T13:37:00Z");
        for (String f : new String[] {"a.txt", "b.txt", "d1/c.txt", "d1/d11/e.txt", "d2/f.txt"}) {
            Path p = served.resolve("tree").resolve(f);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "content of " + f);
            Files.setLastModifiedTime(p, FileTime.from(t));
        }
        server = new TestWebServer(served);
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
        LocalTrees.delete(served);
    }

    private Map<String, Long> wire() {
        return new TreeMap<>(server.requests);
    }

    @Test
    void walkFirstSyncAndNoOpResyncCostOneGetPerPageAndPerCopiedFile() throws Exception {
        RemotePath tree = RemotePaths.get(server.base() + "/tree/");
        server.resetRequests();
        try (Stream<DirEntry> walk = tree.walk()) {
            assertThat(walk.count()).isEqualTo(DIRS - 1 + FILES);
        }
        // Jetty shows times without a zone: the file system's first page costs one HEAD to calibrate
        // them (ZoneCalibration), once, not per file.
        assertThat(wire()).as("walk").isEqualTo(Map.of("GET", (long) DIRS, "HEAD", 1L));

        Path mirror = Files.createTempDirectory("rp-http-mirror-");
        try {
            server.resetRequests();
            SyncReport first = PathSyncer.builder(tree, RemotePaths.of(mirror)).build().run();
            assertThat(first.errors()).isEmpty();
            assertThat(first.filesCopied()).isEqualTo(FILES);
            assertThat(wire()).as("first sync").isEqualTo(Map.of("GET", (long) DIRS + FILES));

            server.resetRequests();
            SyncReport again = PathSyncer.builder(tree, RemotePaths.of(mirror)).build().run();
            assertThat(again.filesCopied()).isZero();
            assertThat(again.contentBytesRead()).isZero();
            assertThat(wire()).as("no-op resync").isEqualTo(Map.of("GET", (long) DIRS));
        } finally {
            LocalTrees.delete(mirror);
        }
    }
}
