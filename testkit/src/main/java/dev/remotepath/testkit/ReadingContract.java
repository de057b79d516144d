package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.WalkOptions;
import dev.remotepath.spi.ListDetail;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract's cases that only read: pure path operations, stat and existence, listings,
 * reading (whole, ranged, streamed), edge names, walks and globs, checksums. Part of
 * {@link RemoteFileSystemContract}, which a backend's test extends.
 */
public abstract class ReadingContract extends ContractFixture {

    // ------------------------------------------------------------------ pure operations on this backend

    @Test
    void pathIsAbsoluteAndNormalized() {
        RemotePath p = dir.resolve("a//b/./c/../d/");
        assertThat(p.isAbsolute()).isTrue();
        assertThat(p).isEqualTo(dir.resolve("a/b/d"));
        assertThat(p.pathString()).endsWith("/a/b/d");
    }

    @Test
    void toStringRoundTripsThroughRemotePaths() throws IOException {
        RemotePath p = dir.resolve("x y/z%.txt");
        assertThat(RemotePaths.get(p.toString()).pathString()).isEqualTo(p.pathString());
        assertThat(p.toString()).doesNotContain(" ");
    }

    @Test
    void equalityIsByValue() {
        assertThat(dir.resolve("a")).isEqualTo(dir.resolve("a")).hasSameHashCodeAs(dir.resolve("a"));
        assertThat(dir.resolve("a")).isNotEqualTo(dir.resolve("b"));
    }

    @Test
    void rootIsItsOwnParent() {
        assertThat(dir.root().parent()).isEqualTo(dir.root());
        assertThat(dir.root().name()).isEmpty();
    }

    @Test
    void childRejectsUnsafeNames() {
        assertThatThrownBy(() -> dir.child("..")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> dir.child("a/b")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> dir.resolve("a\0b")).isInstanceOf(InvalidPathException.class);
    }

    // ------------------------------------------------------------------ stat and existence

    @Test
    void statOfFileHasTypeSizeAndTime() throws IOException {
        RemotePath f = file("f.txt", "hello");
        FileStat s = f.stat();
        assertThat(s.type()).isEqualTo(FileType.FILE);
        assertThat(s.size()).hasValue(5);
        assertThat(s.lastModified()).isPresent();
    }

    @Test
    void statOfDirectory() throws IOException {
        seedDirectory(dir.resolve("d"));
        assertThat(dir.resolve("d").stat().type()).isEqualTo(FileType.DIRECTORY);
        assertThat(dir.stat().isDirectory()).isTrue();
    }

    @Test
    void statOfMissingIsNoSuchFile() {
        assertThatThrownBy(() -> dir.resolve("missing").stat())
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("missing");
    }

    @Test
    void statBelowAFileIsNoSuchFile() throws IOException {
        RemotePath f = file("plain", "x");
        assertThatThrownBy(() -> f.resolve("child").stat()).isInstanceOf(NoSuchFileException.class);
        assertThat(f.resolve("child").exists()).isFalse();
    }

    @Test
    void existsAndTypePredicates() throws IOException {
        RemotePath f = file("f", "x");
        seedDirectory(dir.resolve("d"));
        assertThat(f.exists()).isTrue();
        assertThat(f.isRegularFile()).isTrue();
        assertThat(f.isDirectory()).isFalse();
        assertThat(dir.resolve("d").isDirectory()).isTrue();
        assertThat(dir.resolve("d").isRegularFile()).isFalse();
        assertThat(dir.resolve("nope").exists()).isFalse();
        assertThat(dir.resolve("nope").isSymbolicLink()).isFalse();
    }

    @Test
    void errorMessagesNameTheUri() {
        assertThatThrownBy(() -> dir.resolve("gone.txt").readAllBytes())
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(dir.resolve("gone.txt").toString());
    }

    // ------------------------------------------------------------------ listing

    @Test
    void listOfEmptyDirectoryIsEmpty() throws IOException {
        assertThat(dir.list()).isEmpty();
    }

    @Test
    void listIsSortedWithTypes() throws IOException {
        file("b", "1");
        file("a", "1");
        seedDirectory(dir.resolve("c"));
        List<DirEntry> entries = dir.list();
        assertThat(entries).extracting(DirEntry::name).containsExactly("a", "b", "c");
        assertThat(entries).extracting(DirEntry::type).containsExactly(FileType.FILE, FileType.FILE, FileType.DIRECTORY);
        assertThat(entries.get(0).path()).isEqualTo(dir.resolve("a"));
    }

    @Test
    void listWithFileStatsCarriesSizeAndTime() throws IOException {
        file("five", "12345");
        DirEntry e = dir.list(ListDetail.FILE_STATS).getFirst();
        assertThat(e.stat().size()).hasValue(5);
        // The file's own mtime, or (S3) the time its content was stored, which quick-check can use.
        assertThat(e.stat().lastModified().or(() -> e.stat().storedAt())).isPresent();
    }

    @Test
    void listedMetadataAgreesWithStat() throws IOException {
        file("x", "some content");
        DirEntry e = dir.list(ListDetail.FILE_STATS).getFirst();
        FileStat s = e.path().stat();
        assertThat(e.stat().size()).isEqualTo(s.size());
        if (e.stat().lastModified().isEmpty()) {
            assertThat(e.stat().storedAt()).as("a listing without mtimes carries the storage time").isPresent();
            assertThat(s.storedAt()).isEqualTo(e.stat().storedAt());
            return;
        }
        Duration tolerance = e.stat().lastModifiedPrecision().compareTo(s.lastModifiedPrecision()) > 0
                ? e.stat().lastModifiedPrecision() : s.lastModifiedPrecision();
        assertThat(Duration.between(e.stat().lastModified().orElseThrow(), s.lastModified().orElseThrow()).abs())
                .isLessThan(tolerance.plusNanos(1));
    }

    @Test
    void listOfFileIsNotDirectory() throws IOException {
        RemotePath f = file("f", "x");
        assertThatThrownBy(f::list).isInstanceOf(NotDirectoryException.class);
    }

    @Test
    void listOfMissingIsNoSuchFile() {
        assertThatThrownBy(() -> dir.resolve("nope").list()).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void listShowsHiddenFiles() throws IOException {
        file(".hidden", "x");
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly(".hidden");
    }

    // ------------------------------------------------------------------ reading

    @Test
    void readAllBytesReturnsContent() throws IOException {
        RemotePath f = dir.resolve("bin");
        seedFile(f, new byte[] {0, (byte) 0xff, 10, 13});
        assertThat(f.readAllBytes()).containsExactly(0, 0xff, 10, 13);
    }

    @Test
    void readStringIsUtf8() throws IOException {
        RemotePath f = file("u.txt", "café 日本語 😀");
        assertThat(f.readString()).isEqualTo("café 日本語 😀");
    }

    @Test
    void readEmptyFile() throws IOException {
        RemotePath f = dir.resolve("empty");
        seedFile(f, new byte[0]);
        assertThat(f.readAllBytes()).isEmpty();
        assertThat(f.stat().size()).hasValue(0);
    }

    @Test
    void readFromOffset() throws IOException {
        RemotePath f = file("digits", "0123456789");
        try (InputStream in = f.newInputStream(4)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("456789");
        }
    }

    @Test
    void readFromOffsetAtAndPastEndIsEmpty() throws IOException {
        RemotePath f = file("digits", "0123456789");
        try (InputStream in = f.newInputStream(10)) {
            assertThat(in.readAllBytes()).isEmpty();
        }
        try (InputStream in = f.newInputStream(1000)) {
            assertThat(in.readAllBytes()).isEmpty();
        }
    }

    @Test
    void negativeOffsetIsRejected() throws IOException {
        RemotePath f = file("digits", "0123456789");
        assertThatThrownBy(() -> f.newInputStream(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readMissingIsNoSuchFile() {
        assertThatThrownBy(() -> dir.resolve("nope").readAllBytes()).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void readDirectoryFails() throws IOException {
        seedDirectory(dir.resolve("d"));
        assertThatThrownBy(() -> dir.resolve("d").readAllBytes()).isInstanceOf(dev.remotepath.IsDirectoryException.class)
                .hasMessageContaining("is a directory");
    }

    @Test
    void largeFileIsStreamedBothWays() throws Exception {
        assumeTrue(runLargeFileCases(), "large-file cases disabled for this backend");
        long size = 64L * 1024 * 1024 + 12345;
        RemotePath f = dir.resolve("large.bin");
        MessageDigest expected = MessageDigest.getInstance("SHA-256");
        seedLargeFile(f, new PatternStream(size, expected));
        assertThat(f.stat().size()).hasValue(size);
        Checksum actual = f.checksum(ChecksumAlgorithm.SHA256);
        assertThat(actual.hex()).isEqualTo(HexFormat.of().formatHex(expected.digest()));
        try (InputStream in = f.newInputStream(size - 5)) {
            assertThat(in.readAllBytes()).hasSize(5);
        }
    }

    // ------------------------------------------------------------------ edge names

    static Stream<String> edgeNames() {
        return Stream.of("with space", "café", "日本語", "emoji 😀", "percent%20sign", "percent%", "hash#tag",
                "question?mark", "semi;colon", "plus+sign", "amp&ersand", "quote'd", "brackets[1]", "braces{a,b}",
                "back\\slash", "trailing space ", "tilde~", "=equals", "a".repeat(200), "-dash", "x.tar.gz");
    }

    @ParameterizedTest
    @MethodSource("edgeNames")
    void edgeNamesAreListedVerbatim(String name) throws IOException {
        if (!serverCanStore(name)) {
            assertThatThrownBy(() -> seedFile(dir.child(name), bytes("content of " + name)))
                    .isInstanceOf(IOException.class).hasMessageContaining(dir.child(name).toString());
            assertThat(dir.list()).as("nothing stored under another name").isEmpty();
            return;
        }
        seedFile(dir.child(name), bytes("content of " + name));
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly(name);
    }

    @ParameterizedTest
    @MethodSource("edgeNames")
    void edgeNamesRoundTripThroughTheirUri(String name) throws IOException {
        assumeTrue(serverCanServe(name) && serverCanStore(name), "the test server cannot serve " + name);
        RemotePath p = dir.child(name);
        seedFile(p, bytes("content of " + name));
        RemotePath again = RemotePaths.get(p.toString());
        assertThat(again.name()).isEqualTo(name);
        assertThat(again.readString()).isEqualTo("content of " + name);
    }

    @ParameterizedTest
    @MethodSource("edgeNames")
    void edgeNamedDirectoriesHoldFiles(String name) throws IOException {
        assumeTrue(serverCanServe(name) && serverCanStore(name), "the test server cannot serve " + name);
        seedFile(dir.child(name).resolve("inner.txt"), bytes("inner"));
        assertThat(dir.child(name).resolve("inner.txt").readString()).isEqualTo("inner");
        assertThat(relativeNames(dir, dir.walk())).containsExactly(name, name + "/inner.txt");
    }

    // ------------------------------------------------------------------ walk and glob

    @Test
    void walkIsDepthFirstAndSorted() throws IOException {
        tree(dir);
        assertThat(relativeNames(dir, dir.walk())).containsExactly(
                "a.txt", "b.bin", "empty", "sub", "sub/c.txt", "sub/deeper", "sub/deeper/d.txt", "sub/deeper/e.md");
    }

    @Test
    void walkHonoursMaxDepth() throws IOException {
        tree(dir);
        assertThat(relativeNames(dir, dir.walk(WalkOptions.defaults().withMaxDepth(1))))
                .containsExactly("a.txt", "b.bin", "empty", "sub");
        assertThat(relativeNames(dir, dir.walk(WalkOptions.defaults().withMaxDepth(2))))
                .contains("sub/deeper").doesNotContain("sub/deeper/d.txt");
    }

    @Test
    void walkOfMissingFailsAtOnce() {
        assertThatThrownBy(() -> dir.resolve("nope").walk()).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void walkOfFileIsNotDirectory() throws IOException {
        RemotePath f = file("f", "x");
        assertThatThrownBy(f::walk).isInstanceOf(NotDirectoryException.class);
    }

    @Test
    void walkEntriesCarryListingTypes() throws IOException {
        tree(dir);
        try (Stream<DirEntry> s = dir.walk()) {
            assertThat(s.filter(DirEntry::isDirectory).map(DirEntry::name)).containsExactly("empty", "sub", "deeper");
        }
    }

    @Test
    void walkErrorHandlerCanSkipAFailingDirectory() throws IOException {
        tree(dir);
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(dir.fileSystem());
        faulty.failListing(dir.resolve("sub").pathString());
        RemotePath root = faulty.wrap(dir);
        List<RemotePath> failed = new ArrayList<>();
        List<String> names = relativeNames(root, root.walk(WalkOptions.defaults()
                .withErrorHandler((d, e) -> failed.add(d))));
        assertThat(names).containsExactly("a.txt", "b.bin", "empty", "sub");
        assertThat(failed).containsExactly(root.resolve("sub"));
    }

    @Test
    void walkErrorRethrownSurfacesFromTheStream() throws IOException {
        tree(dir);
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(dir.fileSystem());
        faulty.failListing(dir.resolve("sub").pathString());
        RemotePath root = faulty.wrap(dir);
        assertThatThrownBy(() -> relativeNames(root, root.walk()))
                .isInstanceOf(UncheckedIOException.class)
                .hasRootCauseMessage("injected: listing " + root.resolve("sub") + " failed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"*.txt", "**/*.txt", "sub/*", "sub/**", "{a,b}.*", "[ab].*", "?.bin", "**/deeper/[!d]*",
            "nothing*", "sub/deeper/e.md"})
    void globMatchesLikeTheSameWalkFiltered(String pattern) throws IOException {
        tree(dir);
        List<String> all = relativeNames(dir, dir.walk());
        List<String> expected = all.stream().filter(rel -> dev.remotepath.tree.Glob.compile(pattern)
                .matches(List.of(rel.split("/")))).toList();
        assertThat(relativeNames(dir, dir.glob(pattern))).containsExactlyElementsOf(expected);
    }

    @Test
    void globFindsExpectedFiles() throws IOException {
        tree(dir);
        assertThat(relativeNames(dir, dir.glob("**/*.txt"))).containsExactly("a.txt", "sub/c.txt", "sub/deeper/d.txt");
        assertThat(relativeNames(dir, dir.glob("*.txt"))).containsExactly("a.txt");
        assertThat(relativeNames(dir, dir.glob("sub/{c,deeper}*"))).containsExactly("sub/c.txt", "sub/deeper");
    }

    // ------------------------------------------------------------------ checksums

    static Stream<Arguments> helloChecksums() {
        return Stream.of(
                Arguments.of(ChecksumAlgorithm.MD5, "5d41402abc4b2a76b9719d911017c592"),
                Arguments.of(ChecksumAlgorithm.SHA1, "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d"),
                Arguments.of(ChecksumAlgorithm.SHA256, "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"),
                Arguments.of(ChecksumAlgorithm.SHA512, "9b71d224bd62f3785d96d46ad3ea3d73319bfbc2890caadae2dff72519673ca7"
                        + "2323c3d99ba5c11d7c7acc6e14b8c5da0c4663475c2e5c3adef46f73bcdec043"),
                Arguments.of(ChecksumAlgorithm.CRC32, "3610a686"),
                Arguments.of(ChecksumAlgorithm.CRC32C, "9a71bb4c"),
                Arguments.of(ChecksumAlgorithm.CRC64NVME, "3377857006524257"));
    }

    @ParameterizedTest
    @MethodSource("helloChecksums")
    void checksumOfKnownContent(ChecksumAlgorithm algorithm, String expected) throws IOException {
        RemotePath f = file("hello", "hello");
        assertThat(f.checksum(algorithm).hex()).isEqualTo(expected);
    }

    @Test
    void checksumOfMissingIsNoSuchFile() {
        assertThatThrownBy(() -> dir.resolve("nope").checksum(ChecksumAlgorithm.MD5))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void checksumOfEmptyFile() throws IOException {
        RemotePath f = dir.resolve("empty");
        seedFile(f, new byte[0]);
        assertThat(f.checksum(ChecksumAlgorithm.SHA256).hex())
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
