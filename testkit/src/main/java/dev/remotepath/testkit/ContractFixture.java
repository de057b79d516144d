package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.Capability;
import dev.remotepath.tree.FileTransfer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every case of {@link RemoteFileSystemContract} stands on: a fresh directory per case on
 * the backend under test (and the check, after each, that no file below it was left open), the
 * {@code seed*} hooks read-only backends override, the hooks through which a test names its
 * server's documented limits, and the helpers the cases share. The cases themselves are in the
 * contract classes built on it, one concern each.
 */
public abstract class ContractFixture {

    /** A fresh, empty directory on the backend under test; called before every case. */
    protected abstract RemotePath newTestDirectory() throws Exception;

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

    /**
     * A directory holding a file {@code f}, on a file system of its own that the case may close
     * (not the one the other cases share), or null where the backend's file systems cannot be
     * closed (the local disk): the closed-file-system case is then skipped.
     */
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        return null;
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

    /** A directory on another backend, for cross-backend copies; mem by default, when present. */
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

    static List<String> relativeNames(RemotePath root, Stream<DirEntry> entries) {
        try (entries) {
            return entries.map(e -> root.relativize(e.path()).pathString()).toList();
        }
    }

    final List<String> leftoverTemporaries(RemotePath root) throws IOException {
        try (Stream<DirEntry> all = root.walk()) {
            return all.map(DirEntry::name).filter(n -> n.endsWith(FileTransfer.TEMPORARY_SUFFIX)).toList();
        }
    }
}
