package dev.remotepath.bench;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.WalkOptions;
import dev.remotepath.local.LocalFileSystem;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH view of the {@code local} suite: one flat directory listed by NIO and by the FFM lister
 * at each level of detail, and a tree walked both ways. Run with
 * {@code java --enable-native-access=ALL-UNNAMED -jar benchmarks/target/benchmarks.jar LocalListing -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class LocalListingBenchmark {

    @Param({"10000"})
    public int entries;

    private Path flat;
    private RemotePath flatRemote;
    private Path tree;

    @Setup
    public void setUp() throws IOException {
        Path base = Path.of(System.getProperty("java.io.tmpdir"), "remotepath-bench-fixtures", "local");
        flat = Fixtures.flat(base, entries);
        tree = Fixtures.tree(base, 10, 10, 1000);
        flatRemote = RemotePaths.of(flat);
        LocalFileSystem.instance().awaitBinding();
    }

    @Benchmark
    public void nioIsDirectory(Blackhole bh) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(flat)) {
            for (Path p : s) {
                bh.consume(Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS));
            }
        }
    }

    @Benchmark
    public void nioReadAttributes(Blackhole bh) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(flat)) {
            for (Path p : s) {
                bh.consume(Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
            }
        }
    }

    private void list(ListDetail detail, Blackhole bh) throws IOException {
        try (DirectoryListing l = flatRemote.fileSystem().list(flatRemote, detail)) {
            while (l.hasNext()) {
                bh.consume(l.next());
            }
        }
    }

    @Benchmark
    public void ffmTypes(Blackhole bh) throws IOException {
        list(ListDetail.TYPES, bh);
    }

    @Benchmark
    public void ffmFileStats(Blackhole bh) throws IOException {
        list(ListDetail.FILE_STATS, bh);
    }

    @Benchmark
    public void ffmFullStats(Blackhole bh) throws IOException {
        list(ListDetail.ALL_STATS, bh);
    }

    @Benchmark
    public long walkFileTree() throws IOException {
        long[] n = {0};
        Files.walkFileTree(tree, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                n[0]++;
                return FileVisitResult.CONTINUE;
            }
        });
        return n[0];
    }

    @Benchmark
    public long remotePathWalk() throws IOException {
        try (Stream<DirEntry> s = RemotePaths.of(tree).walk(WalkOptions.defaults())) {
            return s.count();
        }
    }
}
