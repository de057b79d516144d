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
import java.nio.channels.NonWritableChannelException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
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

    /** {@code RemotePath.toNioPath()} answers on every scheme: the NIO path behind it, or one of RemotePath's provider. */
    @Test
    default void toNioPathGivesAPathOnEveryScheme() throws Exception {
        RemotePath tree = nioTree();
        Path a = tree.resolve("a.txt").toNioPath().orElseThrow();
        assertThat(Files.readString(a)).isEqualTo("alpha");
        assertThat(a.getFileName().toString()).isEqualTo("a.txt");
        assertThat(RemotePath.of(tree.fileSystem(), "relative/a.txt").toNioPath()).as("a relative path names no file").isEmpty();
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

    @Test
    default void directoryStreamsFilterAndTheirPathsCarryTheListedAttributes() throws Exception {
        RemotePath tree = nioTree();
        Path root = RemoteNio.of(tree);
        List<String> txt = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root, "*.txt")) {
            s.forEach(p -> txt.add(p.getFileName().toString()));
        }
        assertThat(txt).containsExactly("a.txt");
        List<String> dirs = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root, Files::isDirectory)) {
            s.forEach(p -> dirs.add(p.getFileName().toString()));
        }
        assertThat(dirs).containsExactlyInAnyOrder("sub", "empty");
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root.resolve("sub"))) {
            for (Path p : s) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                RemotePath same = tree.resolve("sub").resolve(p.getFileName().toString());
                assertThat(a.isDirectory()).as(p.toString()).isEqualTo(same.isDirectory());
                if (a.isRegularFile()) {
                    assertThat(a.size()).as(p.toString()).isEqualTo(same.stat().size().orElseThrow());
                }
            }
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(root.resolve("empty"))) {
            assertThat(s.iterator().hasNext()).isFalse();
        }
    }

    @Test
    default void badCallsFailWithNiosOwnExceptions() throws Exception {
        RemotePath tree = nioTree();
        Path root = RemoteNio.of(tree);
        assertThatThrownBy(() -> Files.newDirectoryStream(root.resolve("a.txt")).close())
                .isInstanceOf(NotDirectoryException.class);
        assertThatThrownBy(() -> Files.newDirectoryStream(root.resolve("nothing-here")).close())
                .isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.readAttributes(root.resolve("nothing-here"), BasicFileAttributes.class))
                .isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> Files.size(root.resolve("sub/nothing/deeper"))).isInstanceOf(NoSuchFileException.class);
        if (!tree.fileSystem().capabilities().contains(Capability.WRITE)) {
            return;
        }
        assertThatThrownBy(() -> Files.createDirectory(root.resolve("sub"))).isInstanceOf(FileAlreadyExistsException.class);
        assertThatThrownBy(() -> Files.delete(root.resolve("sub"))).isInstanceOf(DirectoryNotEmptyException.class);
        assertThatThrownBy(() -> Files.delete(root.resolve("nothing-here"))).isInstanceOf(NoSuchFileException.class);
        assertThat(Files.deleteIfExists(root.resolve("nothing-here"))).isFalse();
        assertThatThrownBy(() -> Files.writeString(root.resolve("a.txt"), "x", StandardOpenOption.CREATE_NEW))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(tree.resolve("a.txt").readString()).isEqualTo("alpha");
        assertThat(tree.resolve("sub/c.txt").readString()).isEqualTo("charlie");
    }

    @Test
    default void aChannelReadsAnyRangeKnowsItsSizeAndWritesOnlyWhenOpenedToWrite() throws Exception {
        RemotePath tree = nioTree();
        Path root = RemoteNio.of(tree);
        try (SeekableByteChannel ch = Files.newByteChannel(root.resolve("b.bin"))) {
            assertThat(ch.size()).isEqualTo(4);
            ch.position(2);
            ByteBuffer two = ByteBuffer.allocate(8);
            while (ch.read(two) > 0) {
                // the rest of the file from offset 2
            }
            two.flip();
            assertThat(two.remaining()).isEqualTo(2);
            assertThat(two.get()).isEqualTo((byte) 2);
            assertThat(two.get()).isEqualTo((byte) 3);
            ch.position(0);
            assertThat(ch.read(ByteBuffer.allocate(1))).isEqualTo(1);
            ch.position(10);
            assertThat(ch.read(ByteBuffer.allocate(1))).isEqualTo(-1);
            assertThatThrownBy(() -> ch.write(ByteBuffer.wrap(new byte[] {9}))).isInstanceOf(NonWritableChannelException.class);
        }
        if (!tree.fileSystem().capabilities().contains(Capability.WRITE)) {
            return;
        }
        Path n = root.resolve("sub/channel.bin");
        try (SeekableByteChannel ch = Files.newByteChannel(n, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap("written ".getBytes(StandardCharsets.UTF_8)));
            ch.write(ByteBuffer.wrap("whole".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(tree.resolve("sub/channel.bin").readString()).isEqualTo("written whole");
        try (var out = Files.newOutputStream(n)) { // CREATE, TRUNCATE_EXISTING, WRITE
            out.write("short".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(Files.readString(n)).isEqualTo("short");
        assertThat(Files.size(n)).isEqualTo(5);
        Files.delete(n);
        assertThat(tree.resolve("sub/channel.bin").exists()).isFalse();
    }
}
