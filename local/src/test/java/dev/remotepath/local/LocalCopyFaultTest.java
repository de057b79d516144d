package dev.remotepath.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local backend's own copy (the kernel's copy_file_range, through FileChannel.transferTo)
 * failing midway: onto a 1 MiB tmpfs the test mounts, a 4 MiB file runs out of space. The old
 * target is left as it was and no temporary is left beside it. Needs root to mount (CI runs
 * as root); skipped elsewhere.
 */
class LocalCopyFaultTest {

    @TempDir
    Path work;

    @Test
    void aCopyRunningOutOfSpaceLeavesTheOldTargetAndNoTemporary() throws Exception {
        try (dev.remotepath.testkit.Tmpfs disk = dev.remotepath.testkit.Tmpfs.mountOrSkip(work.resolve("full"), "1m")) {
            Path full = disk.path();
            Files.write(work.resolve("big.bin"), new byte[4 << 20]);
            Files.writeString(full.resolve("t.bin"), "the old target");
            RemotePath source = RemotePaths.of(work.resolve("big.bin"));
            RemotePath target = RemotePaths.of(full.resolve("t.bin"));
            assertThat(source.fileSystem()).isSameAs(target.fileSystem()); // the backend's own copy, not a stream
            assertThatThrownBy(() -> source.copyTo(target, StandardCopyOption.REPLACE_EXISTING))
                    .isInstanceOf(IOException.class);
            assertThat(Files.readString(full.resolve("t.bin"))).isEqualTo("the old target");
            try (Stream<Path> left = Files.list(full)) {
                assertThat(left.map(p -> p.getFileName().toString())).containsExactly("t.bin");
            }
        }
    }
}
