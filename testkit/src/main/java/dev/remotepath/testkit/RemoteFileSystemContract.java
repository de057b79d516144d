package dev.remotepath.testkit;

import static dev.remotepath.testkit.CountingFileSystem.Call.DELETE_FILE;
import static dev.remotepath.testkit.CountingFileSystem.Call.DELETE_FILES;
import static dev.remotepath.testkit.CountingFileSystem.Call.LIST;
import static dev.remotepath.testkit.CountingFileSystem.Call.OPEN_READ;
import static dev.remotepath.testkit.CountingFileSystem.Call.STAT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.ReadOnlyRemoteFileSystemException;
import dev.remotepath.RemoteCopyOption;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.WalkOptions;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.tree.FileTransfer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour every backend promises, as one JUnit 5 suite. A backend's test extends this
 * class and supplies a fresh, empty directory per test on a real server. Cases that need a
 * capability the backend lacks are skipped by {@link #assumeCapability}, not copied out.
 * Read-only backends override the {@code seed*} hooks to build fixtures in their backing
 * store (the directory a test web server serves).
 */
public abstract class RemoteFileSystemContract implements FlatListingContract, ObservedCallsContract,
        NioFacadeContract, StoreSpaceContract {

    /** A fresh, empty directory on the backend under test; called before every case. */
    protected abstract RemotePath newTestDirectory() throws Exception;

    @Override
    public final RemotePath flatListingTree() throws Exception {
        return tree(dir);
    }

    @Override
    public final RemotePath observedTree() throws Exception {
        return tree(dir);
    }

    @Override
    public final RemotePath nioTree() throws Exception {
        return tree(dir);
    }

    @Override
    public final RemotePath storeSpaceTree() throws Exception {
        return tree(dir);
    }

    /** The directory of the current case. */
    protected RemotePath dir;

    @BeforeEach
    void createTestDirectory() throws Exception {
        dir = newTestDirectory();
    }

    /**
     * Every case ends with no file open below its directory, in any process (this JVM or the
     * server program), where the backend keeps its files on this machine's disk: a stream, an
     * SFTP handle or an HTTP exchange left open by the code under test fails the case here.
     */
    @org.junit.jupiter.api.AfterEach
    void noFileLeftOpen() throws Exception {
        assertNoFileLeftOpen();
    }

    /**
     * The check of {@link #noFileLeftOpen}, for a subclass whose own {@code @AfterEach} (which
     * JUnit runs first) removes the directory: call it before removing.
     */
    protected final void assertNoFileLeftOpen() throws Exception {
        if (dir == null) {
            return; // the case never started (its server is not installed here: skipped)
        }
        java.util.Optional<java.nio.file.Path> disk = diskDirectoryOf(dir);
        if (disk.isEmpty() || !java.nio.file.Files.isDirectory(disk.get())) {
            return;
        }
        assertThat(OpenFiles.remainingUnder(disk.get(), java.time.Duration.ofSeconds(5)))
                .as("files left open below %s after the case", disk.get()).isEmpty();
    }

    /** The check above can fail: a stream held open is a file some process holds open. */
    @Test
    void theOpenFilesCheckSeesAStreamHeldOpen() throws Exception {
        java.util.Optional<java.nio.file.Path> disk = diskDirectoryOf(dir);
        assumeTrue(disk.isPresent() && OpenFiles.observable(), "the backend's files are not on this machine's disk");
        // Large enough that no server can have sent it all into socket buffers and closed it.
        MessageDigest ignored = MessageDigest.getInstance("SHA-256");
        seedLargeFile(dir.resolve("held.bin"), new PatternStream(48L << 20, ignored));
        try (InputStream in = dir.resolve("held.bin").newInputStream()) {
            assertThat(in.read()).isNotNegative();
            long deadline = System.nanoTime() + 5_000_000_000L;
            List<String> open = OpenFiles.under(disk.get());
            while (open.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
                open = OpenFiles.under(disk.get());
            }
            assertThat(open).as("a file held open below %s", disk.get()).isNotEmpty();
        }
    }

    // ------------------------------------------------------------------ hooks

    /** Creates a file with content, creating parents. Read-only backends override. */
    protected void seedFile(RemotePath file, byte[] content) throws IOException {
        file.parent().createDirectories();
        file.write(content);
    }

    /** Creates a file of {@code size} bytes from {@code content}, streamed. Read-only backends override. */
    protected void seedLargeFile(RemotePath file, InputStream content) throws IOException {
        try (OutputStream out = file.newOutputStream()) {
            content.transferTo(out);
        }
    }

    /** Creates a directory and its parents. Read-only backends override. */
    protected void seedDirectory(RemotePath directory) throws IOException {
        directory.createDirectories();
    }

    /** Creates a symbolic link. Read-only backends override. */
    protected void seedSymlink(RemotePath link, String target) throws IOException {
        link.createSymbolicLink(target);
    }

    /** A directory on another backend, for cross-backend copies; mem by default, when present. */
    /**
     * A directory holding a file {@code f}, on a file system of its own that the case may close
     * (not the one the other cases share), or null where the backend's file systems cannot be
     * closed (the local disk): the closed-file-system case is then skipped.
     */
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        return null;
    }

    @Test
    void aClosedFileSystemFailsEveryOperationWithClosedFileSystemException() throws Exception {
        RemotePath own = newDirectoryOnAFileSystemToClose();
        assumeTrue(own != null, "this backend's file systems are not closed");
        assertThat(own.fileSystem()).isNotSameAs(dir.fileSystem());
        RemotePath f = own.resolve("f");
        assertThat(f.exists()).isTrue();
        own.fileSystem().close();
        assertThat(own.fileSystem().isOpen()).isFalse();
        own.fileSystem().close(); // a second close is no error
        List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> operations = List.of(
                f::stat, own::list, f::readAllBytes, () -> f.writeString("x"), f::delete,
                () -> own.resolve("d").createDirectory());
        for (var op : operations) {
            assertThatThrownBy(op).isInstanceOf(java.nio.file.ClosedFileSystemException.class);
        }
    }

    /**
     * A directory seen by a user without rights to it, on a file system of its own (logged in
     * as that user): it holds {@code secret}, a file the user may not read, and {@code locked},
     * a directory the user may not list, and the user may not write in it. Null where the
     * backend's test server has no such user (the case is then skipped); a test running as root
     * gives one all the same, as an unprivileged login (permission bits mean nothing to root).
     */
    protected RemotePath newDirectoryAsAnUnprivilegedUser() throws Exception {
        return null;
    }

    @Test
    void whatTheUserMayNotTouchIsAccessDenied() throws Exception {
        RemotePath denied = newDirectoryAsAnUnprivilegedUser();
        assumeTrue(denied != null, "no unprivileged user for this backend's test server");
        try {
            assertThat(denied.fileSystem()).isNotSameAs(dir.fileSystem());
            assertThatThrownBy(() -> denied.resolve("secret").readAllBytes()).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> denied.resolve("locked").list()).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> denied.resolve("new.txt").writeString("x")).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> denied.resolve("d").createDirectory()).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> denied.resolve("secret").delete()).isInstanceOf(AccessDeniedException.class);
            assertThat(denied.list()).extracting(DirEntry::name).containsExactly("locked", "secret");
        } finally {
            denied.fileSystem().close();
        }
    }

    protected RemotePath otherBackendDirectory() throws IOException {
        assumeTrue(RemotePaths.schemes().contains("mem"), "mem backend not on the class path");
        RemotePath other = RemotePaths.get("mem://contract-" + UUID.randomUUID() + "/");
        assumeTrue(!other.fileSystem().equals(dir.fileSystem()), "needs a second file system");
        return other;
    }

    /**
     * Whether the server under test can serve a file of this name. A backend's test overrides
     * this only for a documented limitation of its test server, never of the backend.
     */
    protected boolean serverCanServe(String name) {
        return true;
    }

    /**
     * Whether the server under test can store a file of this name at all. A backend's test
     * overrides this only for a documented refusal of its server (S3Mock's Tomcat answers 400 to
     * a key with a backslash); the write must then fail with an error naming the path, never
     * store another name.
     */
    protected boolean serverCanStore(String name) {
        return true;
    }

    /**
     * Whether READLINK gives back a link's text as it was written. A test overrides this only for
     * a server that answers with the absolute path the text resolves to (ProFTPD's mod_sftp);
     * the cases then check that the answer names the same place.
     */
    protected boolean serverKeepsLinkText() {
        return true;
    }

    /**
     * Whether the server keeps symbolic links at all. A test overrides this for a server that
     * refuses them though the protocol has them (rclone's {@code serve sftp}): the link cases
     * are skipped, and {@code linksTheServerRefusesFailClearly} checks the refusal instead.
     */
    protected boolean serverKeepsSymbolicLinks() {
        return true;
    }

    /**
     * Whether the server sets a directory's modification time as it does a file's. A test
     * overrides this for a server that refuses it for directories (MINA FtpServer's MFMT), where
     * the backend documents that directories keep the server's time.
     */
    protected boolean serverSetsDirectoryTimes() {
        return true;
    }

    /** Whether the server keeps the permission bits it is sent (rclone's {@code serve sftp} shows fixed ones). */
    protected boolean serverKeepsPermissions() {
        return true;
    }

    /**
     * Whether the server can append to a file. A test overrides this for a server that cannot
     * (rclone's {@code serve sftp} without its VFS cache): the append case then checks that the
     * failure is an IOException and leaves the file as it was.
     */
    protected boolean serverCanAppend() {
        return true;
    }

    /** {@code link}'s text is {@code written}, or (see {@link #serverKeepsLinkText}) names the same place. */
    protected final void assertLinkText(RemotePath link, String written) throws IOException {
        String read = link.readSymbolicLink();
        if (serverKeepsLinkText()) {
            assertThat(read).isEqualTo(written);
        } else {
            assertThat(read).startsWith("/");
            assertThat(dev.remotepath.tree.LinkTargets.sameDestination(written, link, read, link))
                    .as("%s names the place %s does, from %s", read, written, link).isTrue();
        }
    }

    /**
     * The directory on this machine's disk where {@code dir}'s files are kept, if any: the local
     * backend's own, or the one a test server (OpenSSH, ProFTPD, rclone, s3proxy's file store,
     * Jetty) serves. Each case then ends checking that no process holds a file open below it.
     */
    protected java.util.Optional<java.nio.file.Path> diskDirectoryOf(RemotePath dir) {
        return java.util.Optional.empty();
    }

    /** Whether to run the >64 MiB streaming cases (slow backends may opt out, saying why). */
    protected boolean runLargeFileCases() {
        return true;
    }

    protected final void assumeCapability(Capability c) {
        assumeTrue(dir.fileSystem().capabilities().contains(c), "backend lacks " + c);
        assumeTrue(c != Capability.SYMBOLIC_LINKS || serverKeepsSymbolicLinks(), "the test server refuses links");
        assumeTrue(c != Capability.POSIX_PERMISSIONS || serverKeepsPermissions(), "the test server ignores permissions");
    }

    protected final void assumeWritable() {
        assumeCapability(Capability.WRITE);
    }

    protected final RemotePath file(String relative, String content) throws IOException {
        RemotePath p = dir.resolve(relative);
        seedFile(p, content.getBytes(StandardCharsets.UTF_8));
        return p;
    }

    /** A tree: a.txt, b.bin, sub/c.txt, sub/deeper/d.txt, sub/deeper/e.md, empty/. */
    protected final RemotePath tree(RemotePath root) throws IOException {
        seedFile(root.resolve("a.txt"), bytes("alpha"));
        seedFile(root.resolve("b.bin"), new byte[] {0, 1, 2, 3});
        seedFile(root.resolve("sub/c.txt"), bytes("charlie"));
        seedFile(root.resolve("sub/deeper/d.txt"), bytes("delta"));
        seedFile(root.resolve("sub/deeper/e.md"), bytes("echo"));
        seedDirectory(root.resolve("empty"));
        return root;
    }

    protected static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> relativeNames(RemotePath root, Stream<DirEntry> entries) {
        try (entries) {
            return entries.map(e -> root.relativize(e.path()).pathString()).toList();
        }
    }

    private List<String> leftoverTemporaries(RemotePath root) throws IOException {
        try (Stream<DirEntry> all = root.walk()) {
            return all.map(DirEntry::name).filter(n -> n.endsWith(FileTransfer.TEMPORARY_SUFFIX)).toList();
        }
    }

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

    // ------------------------------------------------------------------ symbolic links

    @Test
    void symlinkIsSeenAsLinkWithoutFollowing() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        file("target.txt", "t");
        seedSymlink(dir.resolve("link"), "target.txt");
        assertThat(dir.resolve("link").stat(LinkOption.NOFOLLOW_LINKS).type()).isEqualTo(FileType.SYMLINK);
        assertThat(dir.resolve("link").stat().type()).isEqualTo(FileType.FILE);
        assertThat(dir.resolve("link").isSymbolicLink()).isTrue();
        assertThat(dir.resolve("link").readString()).isEqualTo("t");
    }

    @Test
    void symlinkTargetIsVerbatim() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        seedSymlink(dir.resolve("link"), "../somewhere/else");
        assertLinkText(dir.resolve("link"), "../somewhere/else");
    }

    @Test
    void brokenSymlinkDoesNotExistButIsALink() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        seedSymlink(dir.resolve("broken"), "no-such-target");
        assertThat(dir.resolve("broken").exists()).isFalse();
        assertThat(dir.resolve("broken").isSymbolicLink()).isTrue();
        assertThat(dir.list()).extracting(DirEntry::type).containsExactly(FileType.SYMLINK);
    }

    @Test
    void walkDoesNotFollowLinksByDefault() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        file("real/inside.txt", "x");
        seedSymlink(dir.resolve("link"), "real");
        assertThat(relativeNames(dir, dir.walk())).containsExactly("link", "real", "real/inside.txt");
    }

    @Test
    void walkFollowingLinksDescendsAndDetectsLoops() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        file("real/inside.txt", "x");
        seedSymlink(dir.resolve("real/loop"), "..");
        seedSymlink(dir.resolve("link"), "real");
        List<Exception> errors = new ArrayList<>();
        List<String> names = relativeNames(dir, dir.walk(WalkOptions.defaults().withFollowLinks(true)
                .withErrorHandler((d, e) -> errors.add(e))));
        assertThat(names).contains("link/inside.txt", "real/inside.txt");
        assertThat(errors).isNotEmpty().allMatch(e -> e instanceof FileSystemLoopException);
    }

    @Test
    void createSymbolicLinkOverExistingFails() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        assumeWritable();
        RemotePath f = file("f", "x");
        assertThatThrownBy(() -> f.createSymbolicLink("elsewhere")).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void readSymbolicLinkOfFileFails() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath f = file("f", "x");
        assertThatThrownBy(f::readSymbolicLink).isInstanceOf(java.nio.file.NotLinkException.class);
    }

    // ------------------------------------------------------------------ writing

    @Test
    void writeThenRead() throws IOException {
        assumeWritable();
        dir.resolve("w.txt").writeString("written");
        assertThat(dir.resolve("w.txt").readString()).isEqualTo("written");
    }

    @Test
    void writeTruncatesExisting() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("w.txt").writeString("a long first version");
        f.writeString("short");
        assertThat(f.readString()).isEqualTo("short");
    }

    @Test
    void createNewOnExistingFails() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("w.txt").writeString("first");
        assertThatThrownBy(() -> f.writeString("second", StandardOpenOption.CREATE_NEW))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(f.readString()).isEqualTo("first");
    }

    @Test
    void appendAppends() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("log").writeString("one,");
        if (!serverCanAppend()) {
            assertThatThrownBy(() -> f.writeString("two", StandardOpenOption.APPEND)).isInstanceOf(IOException.class);
            assertThat(f.readString()).isEqualTo("one,");
            return;
        }
        f.writeString("two", StandardOpenOption.APPEND);
        assertThat(f.readString()).isEqualTo("one,two");
    }

    @Test
    void writeWithoutCreateNeedsAnExistingFile() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("absent").writeString("x", StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void writeIntoMissingParentFailsUnlessDirectoriesAreImplicit() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("no/such/dir/f");
        if (!dir.fileSystem().capabilities().contains(Capability.IMPLICIT_DIRECTORIES)) {
            assertThatThrownBy(() -> f.writeString("x")).isInstanceOf(NoSuchFileException.class);
            assertThat(dir.resolve("no").exists()).isFalse();
            return;
        }
        f.writeString("x");
        assertThat(f.readString()).isEqualTo("x");
        assertThat(dir.resolve("no").isDirectory()).isTrue();
        assertThat(dir.resolve("no/such/dir").list()).extracting(DirEntry::name).containsExactly("f");
        assertThat(dir.list()).extracting(DirEntry::name).contains("no");
    }

    @Test
    void writeUnderAFileFails() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("a file");
        // Below a file nothing exists (as stat says): NoSuchFileException, as NIO's ENOTDIR maps (NioErrors).
        assertThatThrownBy(() -> f.resolve("child").writeString("x")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> f.resolve("deeper/child").writeString("x")).isInstanceOf(NoSuchFileException.class);
        assertThat(f.readString()).isEqualTo("a file");
        assertThat(f.isRegularFile()).isTrue();
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("f");
    }

    @Test
    void writeOverDirectoryFails() throws IOException {
        assumeWritable();
        dir.resolve("d").createDirectory();
        assertThatThrownBy(() -> dir.resolve("d").writeString("x")).isInstanceOf(dev.remotepath.IsDirectoryException.class);
        assertThat(dir.resolve("d").isDirectory()).isTrue();
    }

    @Test
    void writeEmptyFile() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("zero").write(new byte[0]);
        assertThat(f.stat().size()).hasValue(0);
    }

    @Test
    void readOnlyBackendRefusesWrites() throws IOException {
        assumeTrue(!dir.fileSystem().capabilities().contains(Capability.WRITE), "backend is writable");
        assertThatThrownBy(() -> dir.resolve("x").writeString("x")).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
        assertThatThrownBy(() -> dir.resolve("x").createDirectory()).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
        assertThatThrownBy(() -> dir.deleteRecursively()).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
    }

    // ------------------------------------------------------------------ directories

    @Test
    void createDirectoryThenList() throws IOException {
        assumeWritable();
        dir.resolve("new").createDirectory();
        assertThat(dir.list()).extracting(DirEntry::name, DirEntry::type).containsExactly(
                org.assertj.core.groups.Tuple.tuple("new", FileType.DIRECTORY));
    }

    @Test
    void createDirectoryOverExistingFails() throws IOException {
        assumeWritable();
        dir.resolve("d").createDirectory();
        assertThatThrownBy(() -> dir.resolve("d").createDirectory()).isInstanceOf(FileAlreadyExistsException.class);
        dir.resolve("f").writeString("x");
        assertThatThrownBy(() -> dir.resolve("f").createDirectory()).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void createDirectoryWithMissingParentFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("a/b").createDirectory()).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void createDirectoriesMakesParentsAndAcceptsExisting() throws IOException {
        assumeWritable();
        dir.resolve("a/b/c").createDirectories();
        assertThat(dir.resolve("a/b/c").isDirectory()).isTrue();
        dir.resolve("a/b/c").createDirectories();
        dir.resolve("a").createDirectories();
        assertThat(dir.resolve("a/b").isDirectory()).isTrue();
    }

    @Test
    void createDirectoriesOverFileFails() throws IOException {
        assumeWritable();
        dir.resolve("f").writeString("x");
        assertThatThrownBy(() -> dir.resolve("f/sub").createDirectories()).isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(dir.resolve("f").toString());
        assertThatThrownBy(() -> dir.resolve("f").createDirectories()).isInstanceOf(FileAlreadyExistsException.class);
    }

    // ------------------------------------------------------------------ deleting

    @Test
    void deleteFile() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("x");
        f.delete();
        assertThat(f.exists()).isFalse();
    }

    @Test
    void deleteEmptyDirectory() throws IOException {
        assumeWritable();
        RemotePath d = dir.resolve("d").createDirectory();
        d.delete();
        assertThat(d.exists()).isFalse();
    }

    @Test
    void deleteNonEmptyDirectoryFails() throws IOException {
        assumeWritable();
        dir.resolve("d").createDirectory().resolve("f").writeString("x");
        assertThatThrownBy(() -> dir.resolve("d").delete()).isInstanceOf(DirectoryNotEmptyException.class);
        assertThat(dir.resolve("d/f").readString()).isEqualTo("x");
    }

    @Test
    void deleteMissingFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("nope").delete()).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void deleteIfExistsSaysWhetherItDeleted() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("x");
        assertThat(f.deleteIfExists()).isTrue();
        assertThat(f.deleteIfExists()).isFalse();
    }

    @Test
    void deleteSymlinkLeavesTarget() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath target = dir.resolve("t").writeString("keep");
        dir.resolve("l").createSymbolicLink("t").delete();
        assertThat(target.readString()).isEqualTo("keep");
        assertThat(dir.resolve("l").isSymbolicLink()).isFalse();
    }

    @Test
    void deleteRecursivelyRemovesTree() throws IOException {
        assumeWritable();
        RemotePath root = tree(dir.resolve("t"));
        root.deleteRecursively();
        assertThat(root.exists()).isFalse();
        assertThat(dir.list()).isEmpty();
    }

    @Test
    void deleteRecursivelyOnFile() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("x");
        f.deleteRecursively();
        assertThat(f.exists()).isFalse();
    }

    @Test
    void deleteRecursivelyOnMissingFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("nope").deleteRecursively()).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void deleteRecursivelyNeverFollowsLinks() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath outside = tree(dir.resolve("outside"));
        RemotePath doomed = dir.resolve("doomed").createDirectory();
        doomed.resolve("link-to-outside").createSymbolicLink("../outside");
        doomed.deleteRecursively();
        assertThat(doomed.exists()).isFalse();
        assertThat(relativeNames(outside, outside.walk())).hasSize(8);
    }

    // ------------------------------------------------------------------ copying

    @Test
    void copyFileCopiesContent() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("payload");
        src.copyTo(dir.resolve("dst"));
        assertThat(dir.resolve("dst").readString()).isEqualTo("payload");
        assertThat(src.readString()).isEqualTo("payload");
    }

    @Test
    void copyPreservesModificationTime() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        Instant then = Instant.parse("2020-02-29T12:34:56Z");
        RemotePath src = dir.resolve("src").writeString("old").setLastModifiedTime(then);
        src.copyTo(dir.resolve("dst"));
        assertThat(dir.resolve("dst").stat().lastModified()).hasValue(then);
    }

    @Test
    void copyOverExistingWithoutReplaceFailsAndKeepsTarget() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("new");
        RemotePath dst = dir.resolve("dst").writeString("old");
        assertThatThrownBy(() -> src.copyTo(dst)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(dst.readString()).isEqualTo("old");
        assertThat(leftoverTemporaries(dir)).isEmpty();
    }

    @Test
    void copyWithReplaceReplaces() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("new");
        RemotePath dst = dir.resolve("dst").writeString("an older, longer content");
        src.copyTo(dst, StandardCopyOption.REPLACE_EXISTING);
        assertThat(dst.readString()).isEqualTo("new");
    }

    @Test
    void copyMissingSourceFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("nope").copyTo(dir.resolve("dst"))).isInstanceOf(NoSuchFileException.class);
        assertThat(dir.resolve("dst").exists()).isFalse();
    }

    @Test
    void copyIntoMissingParentFailsUnlessDirectoriesAreImplicit() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("x");
        if (dir.fileSystem().capabilities().contains(Capability.IMPLICIT_DIRECTORIES)) {
            src.copyTo(dir.resolve("no/parent/dst"));
            assertThat(dir.resolve("no/parent/dst").readString()).isEqualTo("x");
            return;
        }
        assertThatThrownBy(() -> src.copyTo(dir.resolve("no/parent/dst"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void copyTreeCopiesEverything() throws IOException {
        assumeWritable();
        RemotePath src = tree(dir.resolve("src"));
        src.copyTo(dir.resolve("dst"));
        RemotePath dst = dir.resolve("dst");
        assertThat(relativeNames(dst, dst.walk())).isEqualTo(relativeNames(src, src.walk()));
        assertThat(dst.resolve("sub/deeper/e.md").readString()).isEqualTo("echo");
        assertThat(dst.resolve("empty").isDirectory()).isTrue();
        assertThat(leftoverTemporaries(dir)).isEmpty();
    }

    @Test
    void copyTreeGivesDirectoriesTheirSourceTimes() throws IOException {
        assumeWritable();
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.remotepath.tree.FileTransfer.keepsDirectoryTimes(dir.fileSystem()),
                "directories here have no time to set");
        assumeTrue(serverSetsDirectoryTimes(), "the test server sets files' times only");
        RemotePath src = tree(dir.resolve("src"));
        Instant sub = Instant.parse("2019-03-04T05:06:07Z");
        Instant deeper = Instant.parse("2018-03-04T05:06:07Z");
        src.resolve("sub/deeper").setLastModifiedTime(deeper);
        src.resolve("sub").setLastModifiedTime(sub);
        src.copyTo(dir.resolve("dst"));
        // Set after their files were written (which changes a directory's time), so they stay.
        assertThat(dir.resolve("dst/sub").stat().lastModified()).hasValue(sub);
        assertThat(dir.resolve("dst/sub/deeper").stat().lastModified()).hasValue(deeper);
        assertThat(dir.resolve("dst/sub/deeper/e.md").readString()).isEqualTo("echo");
    }

    @Test
    void copyTreeOntoExistingNeedsReplaceThenMerges() throws IOException {
        assumeWritable();
        RemotePath src = tree(dir.resolve("src"));
        RemotePath dst = dir.resolve("dst").createDirectory();
        dst.resolve("extra.txt").writeString("stays");
        dst.resolve("a.txt").writeString("stale");
        assertThatThrownBy(() -> src.copyTo(dst)).isInstanceOf(FileAlreadyExistsException.class);
        src.copyTo(dst, StandardCopyOption.REPLACE_EXISTING);
        assertThat(dst.resolve("a.txt").readString()).isEqualTo("alpha");
        assertThat(dst.resolve("extra.txt").readString()).isEqualTo("stays");
    }

    @Test
    void copyTreeIntoItselfIsRefused() throws IOException {
        assumeWritable();
        RemotePath src = tree(dir.resolve("src"));
        assertThatThrownBy(() -> src.copyTo(src.resolve("sub/inner"))).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("inside");
        assertThat(src.resolve("sub/inner").exists()).isFalse();
    }

    @Test
    void copyToItselfIsRefused() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("x");
        assertThatThrownBy(() -> f.copyTo(f)).isInstanceOf(FileSystemException.class);
        assertThat(f.readString()).isEqualTo("x");
    }

    @Test
    void copyTreeRecreatesLinksAsLinks() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath src = dir.resolve("src").createDirectory();
        src.resolve("f").writeString("x");
        src.resolve("l").createSymbolicLink("f");
        src.copyTo(dir.resolve("dst"));
        assertThat(dir.resolve("dst/l").isSymbolicLink()).isTrue();
        assertLinkText(dir.resolve("dst/l"), "f");
    }

    @Test
    void copyTreeFollowingLinksCopiesContent() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath src = dir.resolve("src").createDirectory();
        src.resolve("f").writeString("x");
        src.resolve("l").createSymbolicLink("f");
        src.copyTo(dir.resolve("dst"), RemoteCopyOption.FOLLOW_LINKS);
        assertThat(dir.resolve("dst/l").isSymbolicLink()).isFalse();
        assertThat(dir.resolve("dst/l").readString()).isEqualTo("x");
    }

    @Test
    void copyFollowingALinkLoopFailsInsteadOfRecursing() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath src = dir.resolve("src").createDirectory();
        src.resolve("f").writeString("x");
        src.resolve("sub").createDirectory().resolve("up").createSymbolicLink("..");
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                assertThatThrownBy(() -> src.copyTo(dir.resolve("dst"), RemoteCopyOption.FOLLOW_LINKS))
                        .isInstanceOf(FileSystemLoopException.class));
    }

    @Test
    void copyAcrossBackendsPreservesContentAndTime() throws IOException {
        assumeWritable();
        RemotePath other = otherBackendDirectory();
        RemotePath src = tree(dir.resolve("src"));
        Instant then = Instant.parse("2021-06-01T00:00:00Z");
        if (dir.fileSystem().capabilities().contains(Capability.SET_LAST_MODIFIED_TIME)) {
            src.resolve("a.txt").setLastModifiedTime(then);
        }
        src.copyTo(other.resolve("copy"));
        assertThat(relativeNames(other.resolve("copy"), other.resolve("copy").walk()))
                .isEqualTo(relativeNames(src, src.walk()));
        assertThat(other.resolve("copy/sub/c.txt").readString()).isEqualTo("charlie");
        FileStat copied = other.resolve("copy/a.txt").stat();
        Duration precision = src.resolve("a.txt").stat().lastModifiedPrecision();
        assertThat(Duration.between(copied.lastModified().orElseThrow(),
                src.resolve("a.txt").stat().lastModified().orElseThrow()).abs()).isLessThan(precision.plusNanos(1));
        other.fileSystem().close();
    }

    @Test
    void copyBackFromAnotherBackend() throws IOException {
        assumeWritable();
        RemotePath other = otherBackendDirectory();
        tree(other.resolve("t"));
        other.resolve("t").copyTo(dir.resolve("back"));
        assertThat(dir.resolve("back/sub/deeper/d.txt").readString()).isEqualTo("delta");
        other.fileSystem().close();
    }

    @Test
    void failedCopyLeavesOldTargetAndNoTemporary() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").write(new byte[300_000]);
        RemotePath dst = dir.resolve("dst").writeString("previous version");
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(dir.fileSystem()).failWritesAfter(100_000);
        assertThatThrownBy(() -> src.copyTo(faulty.wrap(dst), StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(IOException.class).hasMessageContaining("injected");
        assertThat(dst.readString()).isEqualTo("previous version");
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("dst", "src");
    }

    @Test
    void failedCopyOfNewFileLeavesNothing() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").write(new byte[300_000]);
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(dir.fileSystem()).failWritesAfter(1000);
        assertThatThrownBy(() -> src.copyTo(faulty.wrap(dir.resolve("dst")))).isInstanceOf(IOException.class);
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("src");
    }

    // ------------------------------------------------------------------ moving

    @Test
    void moveFileRenames() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("m");
        src.moveTo(dir.resolve("dst"));
        assertThat(src.exists()).isFalse();
        assertThat(dir.resolve("dst").readString()).isEqualTo("m");
    }

    @Test
    void moveTreeRenames() throws IOException {
        assumeWritable();
        tree(dir.resolve("src"));
        dir.resolve("src").moveTo(dir.resolve("moved"));
        assertThat(dir.resolve("src").exists()).isFalse();
        assertThat(dir.resolve("moved/sub/deeper/d.txt").readString()).isEqualTo("delta");
    }

    @Test
    void moveOntoExistingWithoutReplaceFails() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("new");
        RemotePath dst = dir.resolve("dst").writeString("old");
        assertThatThrownBy(() -> src.moveTo(dst)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(dst.readString()).isEqualTo("old");
        assertThat(src.readString()).isEqualTo("new");
    }

    @Test
    void moveWithReplaceReplaces() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("new");
        RemotePath dst = dir.resolve("dst").writeString("old");
        src.moveTo(dst, StandardCopyOption.REPLACE_EXISTING);
        assertThat(dst.readString()).isEqualTo("new");
        assertThat(src.exists()).isFalse();
    }

    @Test
    void moveMissingFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("nope").moveTo(dir.resolve("dst"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void moveIntoItselfIsRefused() throws IOException {
        assumeWritable();
        tree(dir.resolve("src"));
        assertThatThrownBy(() -> dir.resolve("src").moveTo(dir.resolve("src/sub/x"))).isInstanceOf(FileSystemException.class);
        assertThat(dir.resolve("src/a.txt").exists()).isTrue();
    }

    @Test
    void moveAcrossBackendsCopiesThenDeletes() throws IOException {
        assumeWritable();
        RemotePath other = otherBackendDirectory();
        tree(dir.resolve("src"));
        dir.resolve("src").moveTo(other.resolve("moved"));
        assertThat(dir.resolve("src").exists()).isFalse();
        assertThat(other.resolve("moved/sub/c.txt").readString()).isEqualTo("charlie");
        other.fileSystem().close();
    }

    @Test
    void atomicMoveAcrossBackendsIsRefused() throws IOException {
        assumeWritable();
        RemotePath other = otherBackendDirectory();
        RemotePath src = dir.resolve("src").writeString("x");
        assertThatThrownBy(() -> src.moveTo(other.resolve("x"), StandardCopyOption.ATOMIC_MOVE))
                .isInstanceOf(AtomicMoveNotSupportedException.class);
        assertThat(src.exists()).isTrue();
        other.fileSystem().close();
    }

    // ------------------------------------------------------------------ attributes

    @Test
    void setLastModifiedTimeIsReadBack() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        Instant t = Instant.parse("2001-09-09T01:46:40Z");
        RemotePath f = dir.resolve("f").writeString("x").setLastModifiedTime(t);
        FileStat s = f.stat();
        assertThat(Duration.between(s.lastModified().orElseThrow(), t).abs()).isLessThan(s.lastModifiedPrecision().plusNanos(1));
        FileStat listed = dir.list(ListDetail.FILE_STATS).getFirst().stat();
        if (listed.lastModified().isPresent() || listed.storedAt().isEmpty()) { // S3 lists only storedAt
            assertThat(listed.lastModified()).isEqualTo(s.lastModified());
        }
    }

    /**
     * Whether the server under test can report times past 2038-01-19. A test class returns false
     * only for a server known not to, saying why; the client side must always can.
     */
    protected boolean serverKeepsTimesPast2038() {
        return true;
    }

    /**
     * Times past 2038-01-19 (where a signed 32-bit count of seconds ends; SFTP v3 carries an
     * unsigned one, good to 2106) are read and written like any other, in stats and listings.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"2038-01-19T03:14:08Z", "2040-02-29T12:00:00Z",
            "2105-12-31T23:59:59Z"})
    void timesPast2038RoundTrip(String when) throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        Instant t = Instant.parse(when);
        assumeTrue(serverKeepsTimesPast2038() || t.getEpochSecond() <= Integer.MAX_VALUE,
                "this server cannot answer with times past 2038-01-19 (see the test class)");
        RemotePath f = dir.resolve("future").writeString("x").setLastModifiedTime(t);
        FileStat s = f.stat();
        assertThat(s.lastModified()).as("stat of a file dated " + when).isPresent();
        assertThat(Duration.between(s.lastModified().orElseThrow(), t).abs()).isLessThan(s.lastModifiedPrecision().plusNanos(1));
        FileStat listed = dir.list(ListDetail.FILE_STATS).getFirst().stat();
        if (listed.lastModified().isPresent() || listed.storedAt().isEmpty()) { // S3 lists only storedAt
            assertThat(listed.lastModified()).as("listing of a file dated " + when).isEqualTo(s.lastModified());
        }
        if (dir.fileSystem().capabilities().contains(Capability.MTIME_ON_WRITE)) {
            RemotePath g = dir.resolve("written");
            try (OutputStream out = dir.fileSystem().openWrite(g, dev.remotepath.spi.WriteMode.CREATE_NEW, t)) {
                out.write(bytes("y"));
            }
            assertThat(Duration.between(g.stat().lastModified().orElseThrow(), t).abs())
                    .isLessThan(g.stat().lastModifiedPrecision().plusNanos(1));
        }
    }

    @Test
    void writeWithModificationTimeStoresIt() throws IOException {
        assumeWritable();
        assumeCapability(Capability.MTIME_ON_WRITE);
        Instant t = Instant.parse("2003-02-01T10:20:30.123456789Z");
        RemotePath f = dir.resolve("timed");
        try (OutputStream out = dir.fileSystem().openWrite(f, dev.remotepath.spi.WriteMode.CREATE_NEW, t)) {
            out.write(bytes("content"));
        }
        FileStat s = f.stat();
        assertThat(f.readString()).isEqualTo("content");
        assertThat(Duration.between(s.lastModified().orElseThrow(), t).abs()).isLessThan(s.lastModifiedPrecision().plusNanos(1));
    }

    /**
     * Setting a time on a link never reaches what it points to: a directory swapped for a link
     * while a sync runs must not have an outside directory's time set when the run ends.
     */
    @Test
    void setLastModifiedTimeOnALinkLeavesWhatItPointsToAlone() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        assumeCapability(Capability.SYMBOLIC_LINKS);
        Instant kept = Instant.parse("2004-05-06T07:08:09Z");
        RemotePath outside = dir.resolve("outside");
        outside.createDirectory();
        outside.resolve("f").writeString("x");
        outside.setLastModifiedTime(kept);
        RemotePath link = dir.resolve("swapped");
        link.createSymbolicLink("outside");
        try {
            link.setLastModifiedTime(Instant.parse("2020-01-01T00:00:00Z"));
        } catch (IOException refused) {
            assertThat(refused).hasMessageContaining("swapped"); // a backend that cannot set a link's own time
        }
        FileStat s = outside.stat();
        assertThat(Duration.between(s.lastModified().orElseThrow(), kept).abs())
                .isLessThan(s.lastModifiedPrecision().plusNanos(1));
        assertThat(link.fileSystem().stat(link, false).isSymbolicLink()).as("the link is still a link").isTrue();
    }

    @Test
    void setLastModifiedTimeOfMissingFails() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        assertThatThrownBy(() -> dir.resolve("nope").setLastModifiedTime(Instant.EPOCH)).isInstanceOf(NoSuchFileException.class);
    }

    /** Whether this backend (this server) is known to report owners and groups: then it must. */
    protected boolean reportsOwners() {
        return false;
    }

    /**
     * An owner and group reported are the file's on disk (as numbers where the protocol has
     * only numbers, SFTP version 3), in a stat, in a listing, and through NIO's POSIX view.
     */
    @Test
    void ownersReportedAreTheFilesOwnersOnDisk() throws Exception {
        assumeWritable();
        RemotePath f = dir.resolve("owned.txt").writeString("x");
        FileStat s = f.stat();
        if (reportsOwners()) {
            assertThat(s.owner()).as("owner").isPresent();
            assertThat(s.group()).as("group").isPresent();
        }
        assumeTrue(s.owner().isPresent(), "the backend reports no owners");
        assertThat(dir.list().stream().filter(e -> e.name().equals("owned.txt")).findFirst().orElseThrow().stat().owner())
                .isEqualTo(s.owner());
        java.util.Optional<java.nio.file.Path> disk = diskDirectoryOf(dir);
        if (disk.isPresent()) {
            java.nio.file.Path onDisk = disk.get().resolve("owned.txt");
            assertThat(s.owner()).hasValue(String.valueOf(java.nio.file.Files.getAttribute(onDisk, "unix:uid")));
            assertThat(s.group()).hasValue(String.valueOf(java.nio.file.Files.getAttribute(onDisk, "unix:gid")));
        }
        java.nio.file.Path nio = dev.remotepath.nio.RemoteNio.of(f);
        if (!nio.getFileSystem().provider().getScheme().equals("file")) {
            assertThat(java.nio.file.Files.getOwner(nio).getName()).isEqualTo(s.owner().get());
            assertThat(java.nio.file.Files.readAttributes(nio, java.nio.file.attribute.PosixFileAttributes.class)
                    .group().getName()).isEqualTo(s.group().get());
        }
    }

    @Test
    void permissionsAreReadBack() throws IOException {
        assumeWritable();
        assumeCapability(Capability.POSIX_PERMISSIONS);
        Set<PosixFilePermission> perms = PosixFilePermissions.fromString("rw-r-----");
        RemotePath f = dir.resolve("f").writeString("x").setPermissions(perms);
        assertThat(f.stat().permissions()).hasValue(perms);
    }

    @Test
    void unsupportedOptionalOperationsSaySo() throws IOException {
        assumeWritable();
        assumeTrue(!dir.fileSystem().capabilities().contains(Capability.SYMBOLIC_LINKS), "backend has links");
        assertThatThrownBy(() -> dir.resolve("l").createSymbolicLink("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void linksTheServerRefusesFailClearly() throws IOException {
        assumeWritable();
        assumeTrue(dir.fileSystem().capabilities().contains(Capability.SYMBOLIC_LINKS) && !serverKeepsSymbolicLinks(),
                "only where the backend has links and the server refuses them");
        file("f", "x");
        assertThatThrownBy(() -> dir.resolve("l").createSymbolicLink("f")).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("does not support symbolic links");
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("f");
    }

    // ------------------------------------------------------------------ hostile listings

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "", "a/b", "../../etc", "nul\0byte"})
    void unsafeListedNamesFailTheListing(String hostile) throws IOException {
        file("ok.txt", "fine");
        FaultInjectingFileSystem tampered = new FaultInjectingFileSystem(dir.fileSystem())
                .addToEveryListing(new ListedEntry(hostile, FileStat.ofType(FileType.FILE)));
        RemotePath root = tampered.wrap(dir);
        assertThatThrownBy(root::list).isInstanceOf(UnsafeNameException.class).hasMessageContaining("unsafe name");
        assertThatThrownBy(() -> relativeNames(root, root.walk())).isInstanceOf(UnsafeNameException.class);
    }

    @Test
    void unsafeListedNameStopsRecursiveDeleteBeforeItTouchesAnything() throws IOException {
        assumeWritable();
        RemotePath victim = file("outside/keep.txt", "precious");
        RemotePath doomed = file("doomed/f.txt", "x").parent();
        FaultInjectingFileSystem tampered = new FaultInjectingFileSystem(dir.fileSystem())
                .addToEveryListing(new ListedEntry("..", FileStat.ofType(FileType.DIRECTORY)));
        assertThatThrownBy(() -> tampered.wrap(doomed).deleteRecursively()).isInstanceOf(UnsafeNameException.class);
        assertThat(victim.readString()).isEqualTo("precious");
    }

    // ------------------------------------------------------------------ metadata reuse, counted

    /** Builds D directories holding N files in all; returns {D, N}. */
    private int[] countedTree(RemotePath root) throws IOException {
        int dirs = 1;
        int files = 0;
        for (int d = 0; d < 4; d++) {
            RemotePath sub = root.resolve("d" + d);
            seedDirectory(sub);
            dirs++;
            for (int f = 0; f < 5; f++) {
                seedFile(sub.resolve("f" + f + ".txt"), bytes("file " + d + "/" + f));
                files++;
            }
            RemotePath nested = sub.resolve("nested");
            seedDirectory(nested);
            dirs++;
            seedFile(nested.resolve("n.txt"), bytes("nested " + d));
            files++;
        }
        seedFile(root.resolve("top.txt"), bytes("top"));
        return new int[] {dirs, files + 1};
    }

    @Test
    void walkMakesOneListPerDirectoryAndNoStat() throws IOException {
        int[] dn = countedTree(dir);
        RemotePath root = CountingFileSystem.counting(dir);
        List<String> names = relativeNames(root, root.walk());
        CountingFileSystem c = CountingFileSystem.of(root);
        assertThat(names).hasSize(dn[0] - 1 + dn[1]);
        assertThat(c.count(LIST)).isEqualTo(dn[0]);
        assertThat(c.count(STAT)).isZero();
        assertThat(c.count(OPEN_READ)).isZero();
    }

    @Test
    void walkWithFileStatsStillMakesNoStat() throws IOException {
        countedTree(dir);
        RemotePath root = CountingFileSystem.counting(dir);
        try (Stream<DirEntry> s = root.walk(WalkOptions.defaults().withDetail(ListDetail.FILE_STATS))) {
            assertThat(s.filter(DirEntry::isRegularFile)).allMatch(e -> e.stat().size().isPresent());
        }
        assertThat(CountingFileSystem.of(root).count(STAT)).isZero();
    }

    @Test
    void globPrunesDirectoriesThatCannotMatch() throws IOException {
        countedTree(dir);
        RemotePath root = CountingFileSystem.counting(dir);
        assertThat(relativeNames(root, root.glob("d1/*.txt"))).hasSize(5);
        assertThat(CountingFileSystem.of(root).count(LIST)).isEqualTo(2);
        assertThat(CountingFileSystem.of(root).count(STAT)).isZero();
    }

    @Test
    void deleteRecursivelyMakesOneListPerDirectoryOrOneFlatListingAndOneStat() throws IOException {
        assumeWritable();
        RemotePath t = dir.resolve("t");
        int[] dn = countedTree(t);
        RemotePath root = CountingFileSystem.counting(t);
        root.deleteRecursively();
        CountingFileSystem c = CountingFileSystem.of(root);
        if (root.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.FLAT_LISTING)) {
            // One flat listing of the whole tree instead (FlatIndex).
            assertThat(c.count(CountingFileSystem.Call.LIST_TREE)).isEqualTo(1);
            assertThat(c.count(LIST)).isZero();
        } else {
            assertThat(c.count(LIST)).isEqualTo(dn[0]);
        }
        assertThat(c.count(STAT)).as("only the start is stat'ed, to never follow a link there").isEqualTo(1);
        assertThat(c.count(DELETE_FILES)).isLessThanOrEqualTo(dn[0]);
        // Each file exactly once, one by one or in a batch: a batch path that deleted nothing, or twice, fails here.
        assertThat(c.filesDeleted()).isEqualTo(dn[1]);
        assertThat(t.exists()).isFalse();
    }

    @Test
    void serverSideCopySendsNoContentThroughTheClient() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SERVER_SIDE_COPY);
        RemotePath src = file("src.bin", "copied where it lies");
        Instant t = Instant.parse("2012-12-12T12:12:12Z");
        if (dir.fileSystem().capabilities().contains(Capability.SET_LAST_MODIFIED_TIME)) {
            src.setLastModifiedTime(t);
        }
        RemotePath counted = CountingFileSystem.counting(src);
        CountingFileSystem c = CountingFileSystem.of(counted);
        counted.copyTo(counted.resolveSibling("dst.bin"));
        assertThat(c.count(OPEN_READ)).as("no content read through the client").isZero();
        assertThat(c.count(CountingFileSystem.Call.NATIVE_COPY)).isEqualTo(1);
        RemotePath dst = dir.resolve("dst.bin");
        assertThat(dst.readString()).isEqualTo("copied where it lies");
        if (dir.fileSystem().capabilities().contains(Capability.SET_LAST_MODIFIED_TIME)) {
            FileStat s = dst.stat();
            assertThat(Duration.between(s.lastModified().orElseThrow(), t).abs()).isLessThan(s.lastModifiedPrecision().plusNanos(1));
        }
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("dst.bin", "src.bin");
        // Onto an existing file: refused without REPLACE_EXISTING, replaced with it.
        RemotePath other = file("other.bin", "other");
        assertThatThrownBy(() -> other.copyTo(dst)).isInstanceOf(FileAlreadyExistsException.class);
        other.copyTo(dst, StandardCopyOption.REPLACE_EXISTING);
        assertThat(dst.readString()).isEqualTo("other");
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("dst.bin", "other.bin", "src.bin");
    }

    @Test
    void treeCopyStatsNothingItListed() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src");
        int[] dn = countedTree(src);
        RemotePath counted = CountingFileSystem.counting(src);
        CountingFileSystem c = CountingFileSystem.of(counted);
        FaultInjectingFileSystem clientSideTarget = new FaultInjectingFileSystem(dir.fileSystem());
        counted.copyTo(clientSideTarget.wrap(dir.resolve("dst")));
        assertThat(c.count(STAT)).as("only the start").isEqualTo(1);
        assertThat(c.count(LIST)).isEqualTo(dn[0]);
        assertThat(c.count(OPEN_READ)).isEqualTo(dn[1]);
        assertThat(dir.resolve("dst/d3/nested/n.txt").readString()).isEqualTo("nested 3");
    }

    @Test
    void treeCopyIntoNewTargetStatsNothingThere() throws IOException {
        assumeWritable();
        assumeCapability(Capability.ATOMIC_RENAME);
        RemotePath src = dir.resolve("src");
        countedTree(src);
        RemotePath target = CountingFileSystem.counting(dir.resolve("dst"));
        src.copyTo(target);
        assertThat(CountingFileSystem.of(target).count(STAT)).isZero();
        assertThat(CountingFileSystem.of(target).count(LIST)).isZero();
    }

    // ------------------------------------------------------------------ helpers

    /** A deterministic, incompressible-looking byte stream that digests what it yields. */
    private static final class PatternStream extends InputStream {
        private final long size;
        private final MessageDigest digest;
        private long pos;
        private long state = 0x9E3779B97F4A7C15L;

        PatternStream(long size, MessageDigest digest) {
            this.size = size;
            this.digest = digest;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= size) {
                return -1;
            }
            int n = (int) Math.min(len, size - pos);
            for (int i = 0; i < n; i++) {
                state ^= state << 13;
                state ^= state >>> 7;
                state ^= state << 17;
                b[off + i] = (byte) state;
            }
            digest.update(b, off, n);
            pos += n;
            return n;
        }
    }
}
