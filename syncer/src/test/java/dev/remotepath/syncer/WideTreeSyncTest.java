package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.FaultInjectingFileSystem;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A directory with more subdirectories than a {@link java.util.concurrent.Phaser} has parties
 * (65,535), on a source whose listings take a round trip: the traversal must neither fail nor
 * keep a thread or task per directory found.
 */
class WideTreeSyncTest {

    @Test
    void seventyThousandSubdirectoriesOfARemoteSourceAreSynced() throws Exception {
        RemotePath mem = RemotePaths.get("mem://wide-" + UUID.randomUUID() + "/");
        try {
            RemotePath wide = mem.resolve("src/wide").createDirectories();
            int n = 70_000;
            for (int i = 0; i < n; i++) {
                wide.resolve("d" + i).createDirectory();
            }
            wide.resolve("d69999/last.txt").writeString("last");
            // Each listing a 1 ms round trip: subdirectories are found far faster than they are listed.
            RemotePath src = new FaultInjectingFileSystem(mem.fileSystem()).listingLatency(Duration.ofMillis(1))
                    .wrap(mem.resolve("src"));
            RemotePath dst = mem.resolve("dst");

            SyncReport r = PathSyncer.builder(src, dst).build().run();

            assertThat(r.errors()).isEmpty();
            assertThat(r.directoriesCreated()).isEqualTo(n + 2); // dst, wide and its 70,000
            assertThat(r.filesCopied()).isEqualTo(1);
            assertThat(dst.resolve("wide/d69999/last.txt").readString()).isEqualTo("last");
            assertThat(dst.resolve("wide").list()).hasSize(n);
        } finally {
            mem.fileSystem().close();
        }
    }
}
