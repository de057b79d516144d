package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.FaultInjectingFileSystem;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a report says matches what reached the target. */
class HonestReportTest {

    @Test
    void aCopyThatFailsHalfWayCountsNoBytesCopied() throws Exception {
        RemotePath mem = RemotePaths.get("mem://full-" + UUID.randomUUID() + "/");
        try {
            mem.resolve("src").createDirectories().resolve("big.bin").write(new byte[15_000_000]);
            mem.resolve("src/small.txt").writeString("small");
            // A disk that fills up 10 MB into the big file.
            FaultInjectingFileSystem full = new FaultInjectingFileSystem(mem.fileSystem());
            RemotePath dst = full.wrap(mem.resolve("dst"));
            mem.resolve("dst").createDirectory();
            full.failWritesAfter(10_000_000);

            SyncReport r = PathSyncer.builder(mem.resolve("src"), dst).transfers(1).build().run();

            assertThat(r.errors()).extracting(SyncError::relativePath).containsExactly("big.bin");
            assertThat(r.filesCopied()).isEqualTo(1);
            assertThat(r.bytesCopied()).isEqualTo(5); // small.txt only
            assertThat(r.contentBytesRead()).isGreaterThan(5_000_000); // what crossed the wire before it failed
            assertThat(mem.resolve("dst/big.bin").exists()).isFalse();
        } finally {
            mem.fileSystem().close();
        }
    }
}
