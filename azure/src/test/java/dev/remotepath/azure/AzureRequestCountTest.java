package dev.remotepath.azure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.NioFacadeFileSystem;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the Azure backend asks the service, counted at its HTTP pipeline: a first sync is one
 * Put Blob per file and one marker per directory, a no-op resync lists only (no request per
 * blob), a recursive delete batches, a ranged read asks for the range.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AzureRequestCountTest {

    private Azurite azurite;
    private RemotePath container;
    private AzureRequests requests;
    private Path work;

    @BeforeAll
    void start() throws Exception {
        azurite = Azurite.start();
        azurite.createContainer("counted");
        container = RemotePaths.get(URI.create("az://counted/"), azurite.options());
        requests = ((AzureFileSystem) NioFacadeFileSystem.backendOf(container.fileSystem())).requests;
        work = Files.createTempDirectory("az-counted");
    }

    @AfterAll
    void stop() throws Exception {
        container.fileSystem().close();
        azurite.close();
        LocalTrees.delete(work);
    }

    private Path tree(int dirs, int files) throws Exception {
        Path root = work.resolve("tree-" + dirs + "x" + files);
        for (int d = 0; d < dirs; d++) {
            Path dir = Files.createDirectories(root.resolve("d" + d));
            for (int f = 0; f < files; f++) {
                Path file = Files.writeString(dir.resolve("f" + f + ".txt"), "file " + d + "/" + f);
                Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2024-05-06T07:08:09.123456789Z")));
            }
        }
        return root;
    }

    @Test
    void aFirstSyncPutsEachFileOnceAndANoOpResyncOnlyLists() throws Exception {
        Path source = tree(4, 30);
        RemotePath target = container.resolve("sync");
        requests.reset();
        SyncReport first = PathSyncer.builder(RemotePaths.get(source.toUri()), target).build().run();
        assertThat(first.filesCopied()).isEqualTo(120);
        assertThat(requests.count("PUT")).as(requests.snapshot().toString())
                .as("a Put Blob per file, a marker per directory (the target and its 4)").isEqualTo(120 + 5);
        assertThat(requests.count("PUT block") + requests.count("PUT blocklist")).isZero();
        assertThat(requests.count("HEAD") + requests.count("GET list")).as("a few per directory, none per file: "
                + requests.snapshot()).isLessThanOrEqualTo(4 * 5);

        requests.reset();
        SyncReport again = PathSyncer.builder(RemotePaths.get(source.toUri()), target).build().run();
        assertThat(again.filesCopied()).isZero();
        assertThat(again.contentBytesRead()).isZero();
        assertThat(requests.snapshot()).as("a no-op resync lists, and asks nothing per blob")
                .containsOnlyKeys("GET list");
        assertThat(requests.count("GET list")).as(requests.snapshot().toString()).isLessThanOrEqualTo(2);
    }

    @Test
    void aRecursiveDeleteBatchesAndARangedReadAsksForTheRange() throws Exception {
        Path source = tree(2, 200);
        RemotePath target = container.resolve("removed");
        PathSyncer.builder(RemotePaths.get(source.toUri()), target).build().run();
        byte[] big = new byte[3 * 1024 * 1024];
        new java.util.Random(7).nextBytes(big);
        target.resolve("big.bin").write(big);

        requests.reset();
        byte[] window;
        try (var in = target.fileSystem().openRead(target.resolve("big.bin"), 2_000_000, 100)) {
            window = in.readAllBytes();
        }
        assertThat(window).isEqualTo(java.util.Arrays.copyOfRange(big, 2_000_000, 2_000_100));
        assertThat(requests.count("GET")).as(requests.snapshot().toString()).isLessThanOrEqualTo(2);

        requests.reset();
        target.deleteRecursively();
        assertThat(target.exists()).isFalse();
        long deletes = requests.count("DELETE");
        long batches = requests.count("POST batch");
        assertThat(batches * 256 + deletes).as(requests.snapshot().toString()).isGreaterThanOrEqualTo(401);
        assertThat(batches).as("401 blobs in batches of 256: " + requests.snapshot()).isEqualTo(2);
    }
}
