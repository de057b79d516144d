package dev.remotepath.mem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.FileSystemCall;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.nio.RemoteNioProvider;
import dev.remotepath.testkit.ZipFixtures;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The provider over a real backend (mem), through {@code java.nio.file} only: {@code Path.of(URI)},
 * {@code Files.*}, seekable channels, the JDK's zip file system on top, and the requests a walk
 * makes counted through the file system's events.
 */
class NioProviderTest {

    /** Counts calls by operation, and the bytes reads moved. */
    static final class Counter implements FileSystemEvents {
        final Map<FileSystemCall.Operation, AtomicLong> calls = new EnumMap<>(FileSystemCall.Operation.class);
        final AtomicLong bytesRead = new AtomicLong();

        @Override
        public synchronized void started(FileSystemCall call) {
            calls.computeIfAbsent(call.operation(), o -> new AtomicLong()).incrementAndGet();
        }

        @Override
        public void finished(FileSystemCall call, long amount, Duration took) {
            if (call.operation() == FileSystemCall.Operation.READ) {
                bytesRead.addAndGet(amount);
            }
        }

        synchronized long count(FileSystemCall.Operation op) {
            AtomicLong n = calls.get(op);
            return n == null ? 0 : n.get();
        }

        synchronized void reset() {
            calls.clear();
            bytesRead.set(0);
        }
    }

    private static String volume() {
        return "mem://nio-" + UUID.randomUUID();
    }

    @Test
    void pathOfAUriAndFilesWorkOnARemotePathScheme() throws IOException {
        Path dir = Path.of(URI.create(volume() + "/docs"));
        assertThat(dir.getFileSystem().provider().getScheme()).isEqualTo("mem");
        Files.createDirectories(dir.resolve("sub"));
        Path a = Files.writeString(dir.resolve("a.txt"), "alpha");
        Files.write(dir.resolve("sub/b.bin"), new byte[] {1, 2, 3});
        assertThat(Files.readString(a)).isEqualTo("alpha");
        assertThat(Files.size(a)).isEqualTo(5);
        assertThat(Files.isDirectory(dir.resolve("sub"))).isTrue();
        assertThat(Files.exists(dir.resolve("nope"))).isFalse();
        try (Stream<Path> list = Files.list(dir)) {
            assertThat(list.map(p -> p.getFileName().toString()).sorted()).containsExactly("a.txt", "sub");
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            assertThat(walk.map(p -> dir.relativize(p).toString()).sorted()).containsExactly("", "a.txt", "sub", "sub/b.bin");
        }
        Instant t = Instant.parse("2020-02-02T02:02:02Z");
        Files.setLastModifiedTime(a, FileTime.from(t));
        assertThat(Files.getLastModifiedTime(a).toInstant()).isEqualTo(t);
        assertThat(a.toUri().toString()).endsWith("/docs/a.txt").startsWith("mem://");
        assertThat(Path.of(a.toUri())).isEqualTo(a);
        assertThatThrownBy(() -> Files.delete(dir.resolve("sub"))).isInstanceOf(DirectoryNotEmptyException.class);
        Files.delete(dir.resolve("sub/b.bin"));
        assertThatThrownBy(() -> Files.readString(dir.resolve("sub/b.bin"))).isInstanceOf(NoSuchFileException.class);
        assertThat(dir.resolve("x/../y").normalize()).isEqualTo(dir.resolve("y"));
        assertThat(dir.resolve("x/../y").getNameCount()).isEqualTo(4); // kept as given until normalize()
    }

    @Test
    void aWalkReadsEachDirectoryOnceAndStatsNoEntry() throws IOException {
        Counter counter = new Counter();
        URI root = URI.create(volume() + "/");
        try (FileSystem fs = FileSystems.newFileSystem(root, Map.of(RemoteNioProvider.EVENTS, counter))) {
            Path top = fs.getPath("/tree");
            for (int d = 0; d < 5; d++) {
                Path sub = Files.createDirectories(top.resolve("d" + d));
                for (int f = 0; f < 20; f++) {
                    Files.writeString(sub.resolve("f" + f + ".txt"), "x".repeat(f));
                }
            }
            counter.reset();
            long[] bytes = {0};
            long files;
            try (Stream<Path> walk = Files.walk(top)) {
                files = walk.filter(Files::isRegularFile).peek(p -> {
                    try {
                        bytes[0] += Files.size(p);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }).count();
            }
            assertThat(files).isEqualTo(100);
            assertThat(bytes[0]).isEqualTo(5 * (19 * 20 / 2));
            assertThat(counter.count(FileSystemCall.Operation.LIST)).isEqualTo(6); // the top and five directories
            // The start path comes from no listing: the walk reads its attributes once, and the
            // filter's isRegularFile once more. Every entry below is answered from its listing.
            assertThat(counter.count(FileSystemCall.Operation.STAT)).as("only the start of the walk").isEqualTo(2);

            counter.reset();
            int[] visited = {0};
            Files.walkFileTree(top, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    visited[0]++;
                    return FileVisitResult.CONTINUE;
                }
            });
            assertThat(visited[0]).isEqualTo(100);
            assertThat(counter.count(FileSystemCall.Operation.STAT)).isEqualTo(1);
            assertThat(counter.count(FileSystemCall.Operation.LIST)).isEqualTo(6);
        }
        assertThatThrownBy(() -> FileSystems.getFileSystem(root)).isInstanceOf(FileSystemNotFoundException.class);
    }

    @Test
    void aSeekableChannelReadsFromAnyPositionWithoutTheBytesBefore() throws IOException {
        Counter counter = new Counter();
        try (FileSystem fs = FileSystems.newFileSystem(URI.create(volume() + "/"), Map.of(RemoteNioProvider.EVENTS, counter))) {
            byte[] content = new byte[1 << 20];
            new Random(5).nextBytes(content);
            Path big = Files.write(fs.getPath("/big.bin"), content);
            counter.reset();
            try (SeekableByteChannel ch = Files.newByteChannel(big)) {
                assertThat(ch.size()).isEqualTo(content.length);
                ch.position(content.length - 100);
                ByteBuffer tail = ByteBuffer.allocate(100);
                while (tail.hasRemaining() && ch.read(tail) > 0) {
                    // fill
                }
                assertThat(tail.array()).isEqualTo(java.util.Arrays.copyOfRange(content, content.length - 100, content.length));
                assertThat(ch.read(ByteBuffer.allocate(10))).isEqualTo(-1);
                ch.position(10);
                ByteBuffer head = ByteBuffer.allocateDirect(4);
                ch.read(head);
                head.flip();
                assertThat(head.get()).isEqualTo(content[10]);
            }
            assertThat(counter.bytesRead.get()).as("bytes read for 104 asked").isLessThan(64 * 1024);
            try (SeekableByteChannel w = Files.newByteChannel(fs.getPath("/w.txt"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                w.write(ByteBuffer.wrap("hello".getBytes(StandardCharsets.UTF_8)));
                assertThat(w.position()).isEqualTo(5);
                assertThatThrownBy(() -> w.position(0)).isInstanceOf(UnsupportedOperationException.class);
            }
            assertThat(Files.readString(fs.getPath("/w.txt"))).isEqualTo("hello");
            assertThatThrownBy(() -> Files.newByteChannel(big, StandardOpenOption.READ, StandardOpenOption.WRITE))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void theJdksZipFileSystemOpensAZipOnTheBackendReadingOnlyWhatItNeeds() throws IOException {
        Counter counter = new Counter();
        try (FileSystem fs = FileSystems.newFileSystem(URI.create(volume() + "/"), Map.of(RemoteNioProvider.EVENTS, counter))) {
            byte[] bulk = new byte[4 << 20];
            new Random(7).nextBytes(bulk);
            byte[] zipped = ZipFixtures.bulkThenReadme(bulk, "read me");
            assertThatThrownBy(() -> Files.write(fs.getPath("/backups/x.zip"), new byte[1]))
                    .isInstanceOf(NoSuchFileException.class); // no parent directory, as on any file system
            Files.createDirectory(fs.getPath("/backups"));
            Path archive = Files.write(fs.getPath("/backups/x.zip"), zipped, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            assertThatThrownBy(() -> Files.write(archive, new byte[1], StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))
                    .isInstanceOf(FileAlreadyExistsException.class);
            counter.reset();
            try (FileSystem zip = FileSystems.newFileSystem(archive)) {
                assertThat(Files.readString(zip.getPath("/docs/readme.txt"))).isEqualTo("read me");
                try (Stream<Path> names = Files.list(zip.getPath("/"))) {
                    assertThat(names.map(Path::toString).sorted()).containsExactly("/bulk.bin", "/docs");
                }
            }
            assertThat(counter.bytesRead.get()).as("of a %d-byte zip", zipped.length).isLessThan(256 * 1024);
        }
    }

    @Test
    void copyMoveAndATreeCopiedByWalkFileTreeToAnotherBackendVolume() throws IOException {
        Path src = Path.of(URI.create(volume() + "/src"));
        Path dst = Path.of(URI.create(volume() + "/dst"));
        Files.createDirectories(src.resolve("a/b"));
        Files.writeString(src.resolve("a/one.txt"), "one");
        Files.writeString(src.resolve("a/b/two.txt"), "two");
        Files.walkFileTree(src, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(dst.resolve(src.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, dst.resolve(src.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
        assertThat(Files.readString(dst.resolve("a/b/two.txt"))).isEqualTo("two");
        assertThat(Files.getLastModifiedTime(dst.resolve("a/one.txt"))).isEqualTo(Files.getLastModifiedTime(src.resolve("a/one.txt")));

        Path one = src.resolve("a/one.txt");
        Path two = src.resolve("a/b/two.txt");
        assertThatThrownBy(() -> Files.copy(one, two)).isInstanceOf(FileAlreadyExistsException.class);
        Files.copy(one, two, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.readString(two)).isEqualTo("one");
        Files.copy(src.resolve("a"), src.resolve("a-copy")); // a directory copies as an empty one
        try (Stream<Path> list = Files.list(src.resolve("a-copy"))) {
            assertThat(list).isEmpty();
        }
        Files.move(one, src.resolve("moved.txt"));
        assertThat(Files.exists(one)).isFalse();
        assertThat(Files.readString(src.resolve("moved.txt"))).isEqualTo("one");
        Files.move(src.resolve("moved.txt"), src.resolve("final.txt"), StandardCopyOption.ATOMIC_MOVE);
        assertThat(Files.readString(src.resolve("final.txt"))).isEqualTo("one");
    }

    @Test
    void attributesByNameIncludingRemotePathsOwnView() throws IOException {
        Path f = Files.writeString(Path.of(URI.create(volume() + "/f.txt")), "abc");
        Map<String, Object> basic = Files.readAttributes(f, "*");
        assertThat(basic).containsEntry("size", 3L).containsEntry("isRegularFile", true);
        assertThat(Files.readAttributes(f, "basic:size,isDirectory")).containsOnlyKeys("size", "isDirectory");
        assertThat(Files.readAttributes(f, "remotepath:*")).containsKeys("sizeExact", "lastModifiedPrecision");
        assertThatThrownBy(() -> Files.readAttributes(f, "basic:nosuch")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Files.readAttributes(f, "acl:*")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(f.getFileSystem().supportedFileAttributeViews()).contains("basic", "remotepath");
    }

    @Test
    void badInputIsRefusedWithTheStandardExceptions() throws IOException {
        URI root = URI.create(volume() + "/");
        assertThatThrownBy(() -> Path.of(URI.create(volume() + "/")).resolve("a\0b")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> FileSystems.newFileSystem(root, Map.of("colour", "blue")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown env key 'colour'");
        assertThatThrownBy(() -> FileSystems.newFileSystem(root, Map.of(RemoteNioProvider.OPTIONS, "fast")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FileSystemOptions");
        try (FileSystem fs = FileSystems.newFileSystem(root, Map.of())) {
            assertThatThrownBy(() -> FileSystems.newFileSystem(root, Map.of())).isInstanceOf(FileSystemAlreadyExistsException.class);
            assertThatThrownBy(fs::newWatchService).isInstanceOf(UnsupportedOperationException.class);
            assertThat(FileSystems.getFileSystem(root)).isSameAs(fs);
            assertThat(fs.getPathMatcher("glob:**/*.txt").matches(fs.getPath("/a/b.txt"))).isTrue();
            assertThat(fs.getPathMatcher("glob:*.txt").matches(fs.getPath("/a/b.txt"))).isFalse();
            assertThat(List.copyOf((java.util.Collection<Path>) fs.getRootDirectories())).containsExactly(fs.getPath("/"));
            assertThatThrownBy(() -> fs.getPath("/a").relativize(Path.of("/tmp")))
                    .isInstanceOf(java.nio.file.ProviderMismatchException.class);
        }
    }
}
