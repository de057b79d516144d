package dev.remotepath.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archives through {@code java.nio.file} (remotepath-nio): a new archive written through NIO
 * paths is published when its NIO file system closes, as the JDK's zip file system writes its
 * zip on close, and not before.
 */
class ArchiveNioTest {

    @TempDir
    Path tmp;

    @Test
    void aNewZipWrittenThroughNioIsPublishedWhenItsFileSystemCloses() throws Exception {
        Path zip = tmp.resolve("new.zip");
        Path a = Path.of(URI.create("zip:" + zip.toUri() + "!/docs/a.txt"));
        Files.createDirectories(a.getParent());
        Files.writeString(a, "alpha");
        Files.write(a.resolveSibling("b.bin"), new byte[] {1, 2, 3});
        assertThat(zip).as("nothing published while it is written").doesNotExist();

        FileSystem fs = a.getFileSystem();
        fs.close();
        assertThat(fs.isOpen()).isFalse();
        assertThat(zip).exists();
        try (ZipFile read = new ZipFile(zip.toFile())) {
            assertThat(read.stream().map(java.util.zip.ZipEntry::getName).sorted().toList())
                    .containsExactly("docs/", "docs/a.txt", "docs/b.bin");
            assertThat(new String(read.getInputStream(read.getEntry("docs/a.txt")).readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("alpha");
        }
        // the same URI now reads the published archive
        Path again = Path.of(URI.create("zip:" + zip.toUri() + "!/docs/a.txt"));
        assertThat(Files.readString(again)).isEqualTo("alpha");
        try (var s = Files.list(again.getParent())) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().toList()).isEqualTo(List.of("a.txt", "b.bin"));
        }
        again.getFileSystem().close();
    }

    @Test
    void aNewTarGzToo() throws Exception {
        Path tgz = tmp.resolve("new.tgz");
        FileSystem fs = java.nio.file.FileSystems.newFileSystem(URI.create("tar:" + tgz.toUri() + "!/"), java.util.Map.of());
        Files.writeString(fs.getPath("/x.txt"), "ex");
        assertThat(tgz).doesNotExist();
        fs.close();
        Process p = new ProcessBuilder("tar", "-xzOf", tgz.toString(), "x.txt").redirectErrorStream(true).start();
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("ex");
        assertThat(p.waitFor()).isZero();
    }
}
