package dev.remotepath.mem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.IsDirectoryException;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What mem's own tree promises beyond the contract suite: links resolved as the kernel does, a
 * capacity that fills like a disk, POSIX rename rules, blocks that hold any size, streams that
 * outlive their names, and changes that are whole to every other thread.
 */
class MemSemanticsTest {

    private RemotePath root;

    @BeforeEach
    void volume() throws IOException {
        root = RemotePaths.get("mem://semantics-" + UUID.randomUUID() + "/");
    }

    @AfterEach
    void close() throws IOException {
        root.fileSystem().close();
    }

    private static RemotePath real(RemotePath p) throws IOException {
        return p.fileSystem().realPath(p);
    }

    @Test
    void linksResolveAsTheKernelDoes() throws IOException {
        RemotePath b = root.resolve("a/b").createDirectories();
        b.resolve("f").writeString("found");
        root.resolve("a/b/up").createSymbolicLink("..");
        root.resolve("abs").createSymbolicLink("/a/b");
        root.resolve("a/b/rel").createSymbolicLink("up/b/f");

        assertThat(root.resolve("a/b/up/b/f").readString()).as(".. from where the link led").isEqualTo("found");
        assertThat(root.resolve("abs/rel").readString()).as("a relative link inside an absolute one").isEqualTo("found");
        assertThat(real(root.resolve("abs/up/b/up/b/rel"))).isEqualTo(root.resolve("a/b/f"));
        assertThat(real(root.resolve("abs"))).isEqualTo(root.resolve("a/b"));
        assertThat(root.resolve("a/b/up").stat(java.nio.file.LinkOption.NOFOLLOW_LINKS).isSymbolicLink()).isTrue();
        assertThat(root.resolve("a/b/up").stat().isDirectory()).isTrue();
        assertThat(root.resolve("a/b/up").stat().fileKey()).isEqualTo(root.resolve("a").stat().fileKey());
        root.resolve("a/b/top").createSymbolicLink("../../../..");
        assertThat(root.resolve("a/b/top/a/b/f").readString()).as(".. above the root stays at the root").isEqualTo("found");
    }

    @Test
    void fortyLinksInALookupAreFollowedAndOneMoreIsALoop() throws IOException {
        root.resolve("target").writeString("end");
        root.resolve("l0").createSymbolicLink("target");
        for (int i = 1; i <= 40; i++) {
            root.resolve("l" + i).createSymbolicLink("l" + (i - 1));
        }
        assertThat(root.resolve("l39").readString()).isEqualTo("end");
        assertThatThrownBy(() -> root.resolve("l40").readString()).isInstanceOf(FileSystemLoopException.class)
                .hasMessageContaining(root.resolve("l40").toString());
        root.resolve("x").createSymbolicLink("y");
        root.resolve("y").createSymbolicLink("x");
        assertThatThrownBy(() -> root.resolve("x/below").stat()).isInstanceOf(FileSystemLoopException.class);
        assertThat(root.resolve("x").stat(java.nio.file.LinkOption.NOFOLLOW_LINKS).isSymbolicLink()).isTrue();
    }

    @Test
    void writingThroughADanglingLinkCreatesItsTargetUnlessTheFileMustBeNew() throws IOException {
        RemoteFileSystem fs = root.fileSystem();
        root.resolve("dangling").createSymbolicLink("made");
        assertThatThrownBy(() -> fs.openWrite(root.resolve("dangling"), WriteMode.CREATE_NEW).close())
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
        try (OutputStream out = fs.openWrite(root.resolve("dangling"), WriteMode.CREATE_OR_TRUNCATE)) {
            out.write("through".getBytes());
        }
        assertThat(root.resolve("made").readString()).isEqualTo("through");
        assertThat(root.resolve("dangling").readSymbolicLink()).isEqualTo("made");
    }

    @Test
    void aFullVolumeFailsTheWriteNamingThePathAndKeepsNothingHalfWritten() throws IOException {
        MemFileSystem small = new MemFileSystem("small-" + UUID.randomUUID(), new MemFileSystemProvider(), 1 << 20);
        try {
            RemotePath first = small.path("/first").write(new byte[600_000]);
            assertThat(small.storeSpace(first).orElseThrow().usable()).isEqualTo((1 << 20) - 600_000);
            RemotePath source = root.resolve("big").write(new byte[600_000]);
            RemotePath target = small.path("/second");
            assertThatThrownBy(() -> source.copyTo(target)).isInstanceOf(FileSystemException.class)
                    .hasMessageContaining("no space left").hasMessageContaining("mem://small-");
            assertThat(small.path("/").list()).extracting(DirEntry::name).containsExactly("first");
            assertThatThrownBy(() -> first.copyTo(target)).as("a copy within the volume counts too")
                    .isInstanceOf(FileSystemException.class).hasMessageContaining("no space left");
            assertThat(target.exists()).isFalse();

            first.delete();
            source.copyTo(target);
            assertThat(target.readAllBytes()).hasSize(600_000);
            assertThat(small.storeSpace(target).orElseThrow().usable()).isEqualTo((1 << 20) - 600_000);
        } finally {
            small.close();
        }
    }

    @Test
    void renameFollowsPosixRules() throws IOException {
        RemotePath dir = root.resolve("dir").createDirectory();
        dir.resolve("inner").writeString("in");
        RemotePath full = root.resolve("full").createDirectory();
        full.resolve("x").writeString("x");
        RemotePath empty = root.resolve("empty").createDirectory();
        RemotePath file = root.resolve("file").writeString("f");
        RemoteFileSystem fs = root.fileSystem();

        assertThatThrownBy(() -> fs.rename(dir, dir.resolve("inner2"), true)).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("into itself");
        assertThatThrownBy(() -> fs.rename(dir, full, true)).isInstanceOf(DirectoryNotEmptyException.class);
        assertThatThrownBy(() -> fs.rename(file, empty, true)).isInstanceOf(IsDirectoryException.class);
        assertThatThrownBy(() -> fs.rename(dir, file, true)).isInstanceOf(NotDirectoryException.class);
        assertThatThrownBy(() -> fs.rename(root.resolve("nope"), file, true)).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> fs.rename(file, root.resolve("no/parent"), true)).isInstanceOf(NoSuchFileException.class);

        fs.rename(dir, empty, true);
        assertThat(empty.resolve("inner").readString()).isEqualTo("in");
        assertThat(real(empty)).isEqualTo(empty);
        assertThat(dir.exists()).isFalse();

        root.resolve("link").createSymbolicLink("file");
        fs.rename(root.resolve("link"), root.resolve("moved-link"), false);
        assertThat(root.resolve("moved-link").readSymbolicLink()).as("the link moved, not what it points to").isEqualTo("file");
        assertThat(file.readString()).isEqualTo("f");
        fs.rename(file, file, true);
        assertThat(file.readString()).as("a rename onto itself does nothing").isEqualTo("f");
        assertThat(fs.storeSpace(root).orElseThrow().usable()).as("moved files still counted, once: in, x, f")
                .isEqualTo(MemFileSystem.CAPACITY - 4);
    }

    @Test
    void contentSpansBlocksAtAnySizeAndOffset() throws IOException {
        Random random = new Random(7);
        for (int size : new int[] {0, 1, MemNode.File.BLOCK - 1, MemNode.File.BLOCK, MemNode.File.BLOCK + 1, 3 * MemNode.File.BLOCK + 17}) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            RemotePath f = root.resolve("f" + size);
            try (OutputStream out = root.fileSystem().openWrite(f, WriteMode.CREATE_NEW)) {
                for (int at = 0; at < size; ) { // odd-sized writes, across block ends
                    int n = Math.min(size - at, 1 + random.nextInt(20_000));
                    out.write(content, at, n);
                    at += n;
                }
            }
            assertThat(f.readAllBytes()).isEqualTo(content);
            for (int offset : new int[] {0, size / 2, Math.max(0, size - 1), size, size + 5}) {
                try (InputStream in = f.newInputStream(offset)) {
                    assertThat(in.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, Math.min(offset, size), size));
                }
            }
            f.copyTo(root.resolve("copy" + size));
            assertThat(root.resolve("copy" + size).readAllBytes()).isEqualTo(content);
            try (OutputStream out = root.fileSystem().openWrite(f, WriteMode.CREATE_OR_APPEND)) {
                out.write(new byte[] {1, 2, 3});
            }
            assertThat(f.stat().size()).hasValue(size + 3L);
            assertThat(root.resolve("copy" + size).readAllBytes()).as("a copy shares no block").isEqualTo(content);
        }
    }

    @Test
    void streamsOutliveTheirName() throws IOException {
        RemotePath f = root.resolve("f").writeString("still here");
        try (InputStream in = f.newInputStream()) {
            f.delete();
            assertThat(new String(in.readAllBytes())).isEqualTo("still here");
        }
        RemotePath g = root.resolve("g");
        try (OutputStream out = root.fileSystem().openWrite(g, WriteMode.CREATE_NEW)) {
            out.write("one ".getBytes());
            root.fileSystem().rename(g, root.resolve("h"), false);
            out.write("two".getBytes());
        }
        assertThat(root.resolve("h").readString()).isEqualTo("one two");

        long free = root.fileSystem().storeSpace(root).orElseThrow().usable();
        try (OutputStream out = root.fileSystem().openWrite(root.resolve("doomed"), WriteMode.CREATE_NEW)) {
            root.resolve("doomed").delete();
            out.write(new byte[100_000]);
        }
        assertThat(root.fileSystem().storeSpace(root).orElseThrow().usable())
                .as("bytes written after the file was deleted are not the volume's").isEqualTo(free);
    }

    @Test
    void writingWithATimeGivesTheFileThatTimeOnClose() throws IOException {
        Instant then = Instant.parse("2001-02-03T04:05:06.123456789Z");
        RemotePath f = root.resolve("f");
        try (OutputStream out = root.fileSystem().openWrite(f, WriteMode.CREATE_NEW, then)) {
            out.write("x".getBytes());
        }
        FileStat stat = f.stat();
        assertThat(stat.lastModified()).hasValue(then);
        assertThat(stat.lastModifiedPrecision()).isEqualTo(FileStat.EXACT);
    }

    @Test
    void checkNoOpenFilesNamesEveryStreamLeftOpen() throws IOException {
        MemFileSystem fs = (MemFileSystem) root.fileSystem();
        RemotePath f = root.resolve("f").writeString("x");
        fs.checkNoOpenFiles();
        InputStream in = f.newInputStream();
        OutputStream out = fs.openWrite(root.resolve("g"), WriteMode.CREATE_NEW);
        assertThatThrownBy(fs::checkNoOpenFiles).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("2 stream(s) left open")
                .hasMessageContaining(f + " (reading)").hasMessageContaining(root.resolve("g") + " (writing)");
        in.close();
        f.delete(); // a stream counts until it is closed, whatever happened to its file
        assertThatThrownBy(fs::checkNoOpenFiles).hasMessageContaining("1 stream(s)").hasMessageContaining("(writing)");
        out.close();
        out.close();
        fs.checkNoOpenFiles();
    }

    @Test
    void aClosedVolumeFailsItsOpenStreams() throws IOException {
        RemotePath f = root.resolve("f").writeString("x");
        InputStream in = f.newInputStream();
        OutputStream out = root.fileSystem().openWrite(root.resolve("g"), WriteMode.CREATE_NEW);
        root.fileSystem().close();
        assertThatThrownBy(in::read).isInstanceOf(ClosedFileSystemException.class);
        assertThatThrownBy(() -> out.write(1)).isInstanceOf(ClosedFileSystemException.class);
        in.close();
        out.close();
    }

    @Test
    void changesAreWholeToEveryOtherThread() throws Exception {
        int writers = 4;
        int files = 500;
        byte[] content = new byte[3000];
        new Random(1).nextBytes(content);
        AtomicBoolean done = new AtomicBoolean();
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
        try {
            Future<?> lister = pool.submit(() -> {
                while (!done.get()) {
                    for (DirEntry d : root.list()) {
                        for (DirEntry e : d.path().list(dev.remotepath.spi.ListDetail.FILE_STATS)) {
                            long size = e.stat().size().orElseThrow();
                            if (size != 0 && size != content.length) {
                                seen.add(e.path() + " listed at " + size + " bytes");
                            }
                        }
                    }
                }
                return null;
            });
            List<Future<?>> work = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                RemotePath dir = root.resolve("w" + w).createDirectory();
                work.add(pool.submit(() -> {
                    for (int i = 0; i < files; i++) {
                        RemotePath tmp = dir.resolve("f" + i + ".tmp").write(content);
                        tmp.moveTo(dir.resolve("f" + i), StandardCopyOption.ATOMIC_MOVE);
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
            done.set(true);
            lister.get();
        } finally {
            pool.shutdownNow();
        }
        assertThat(seen).as("a listing saw a file half-written").isEmpty();
        Set<String> keys = new HashSet<>();
        for (int w = 0; w < writers; w++) {
            List<DirEntry> entries = root.resolve("w" + w).list(dev.remotepath.spi.ListDetail.ALL_STATS);
            assertThat(entries).hasSize(files);
            for (DirEntry e : entries) {
                assertThat(e.stat().size()).hasValue(content.length);
                keys.add(e.stat().fileKey().orElseThrow());
            }
        }
        assertThat(keys).as("every file its own key").hasSize(writers * files);
        assertThat(root.resolve("w3/f499").readAllBytes()).isEqualTo(content);
    }
}
