package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.nio.RemoteNio;
import dev.remotepath.spi.Capability;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The contract's behaviour through {@code java.nio.file} ({@link RemoteNio}): the same tree seen
 * through {@code Files.*} as through RemotePath, on every backend, read-only ones included.
 */
public interface NioFacadeContract {

    /** A directory holding the contract's standard tree (a.txt "alpha", b.bin 0..3, sub/c.txt "charlie", sub/deeper/, empty/). */
    RemotePath nioTree() throws Exception;

    @Test
    default void theTreeReadsTheSameThroughFiles() throws Exception {
        RemotePath tree = nioTree();
        Path root = RemoteNio.of(tree);
        assertThat(Files.isDirectory(root)).isTrue();
        assertThat(Files.readString(root.resolve("a.txt"))).isEqualTo("alpha");
        assertThat(Files.readAllBytes(root.resolve("b.bin"))).containsExactly(0, 1, 2, 3);
        try (Stream<Path> list = Files.list(root)) {
            assertThat(list.map(p -> p.getFileName().toString()).sorted())
                    .containsExactlyElementsOf(tree.list().stream().map(DirEntry::name).sorted().toList());
        }
        try (Stream<Path> walk = Files.walk(root)) {
            assertThat(walk.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted())
                    .containsExactly("a.txt", "b.bin", "sub/c.txt", "sub/deeper/d.txt", "sub/deeper/e.md");
        }
        BasicFileAttributes c = Files.readAttributes(root.resolve("sub/c.txt"), BasicFileAttributes.class);
        assertThat(c.isRegularFile()).isTrue();
        assertThat(c.size()).isEqualTo(7);
        try (SeekableByteChannel ch = Files.newByteChannel(root.resolve("sub/c.txt"))) {
            ch.position(4);
            ByteBuffer rest = ByteBuffer.allocate(3);
            while (rest.hasRemaining() && ch.read(rest) > 0) {
                // a ranged read from offset 4
            }
            assertThat(new String(rest.array(), StandardCharsets.UTF_8)).isEqualTo("lie");
        }
        assertThatThrownBy(() -> Files.readString(root.resolve("missing.txt"))).isInstanceOf(NoSuchFileException.class);
        assertThat(Files.exists(root.resolve("missing.txt"))).isFalse();
    }

    @Test
    default void writesCopiesMovesAndDeletesThroughFiles() throws Exception {
        RemotePath tree = nioTree();
        Path root = RemoteNio.of(tree);
        if (!tree.fileSystem().capabilities().contains(Capability.WRITE)) {
            assertThat(root.getFileSystem().isReadOnly()).isTrue();
            assertThatThrownBy(() -> Files.writeString(root.resolve("new.txt"), "x")).isInstanceOf(java.io.IOException.class);
            return;
        }
        Path n = Files.writeString(root.resolve("new.txt"), "november");
        assertThat(tree.resolve("new.txt").readString()).isEqualTo("november");
        assertThatThrownBy(() -> Files.copy(root.resolve("a.txt"), n)).isInstanceOf(FileAlreadyExistsException.class);
        Files.copy(root.resolve("a.txt"), n, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.readString(n)).isEqualTo("alpha");
        Path moved = Files.move(n, root.resolve("sub/moved.txt"));
        assertThat(Files.exists(n)).isFalse();
        assertThat(Files.readString(moved)).isEqualTo("alpha");
        Files.createDirectory(root.resolve("made"));
        assertThat(tree.resolve("made").isDirectory()).isTrue();
        Files.delete(moved);
        Files.delete(root.resolve("made"));
        assertThat(tree.resolve("sub").list().stream().map(DirEntry::name).toList()).isEqualTo(List.of("c.txt", "deeper"));
    }
}
