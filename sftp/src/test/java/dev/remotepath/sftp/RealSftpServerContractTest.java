package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.Capability;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The whole contract suite, and the cases every SFTP server must pass the same way, against a
 * server program the test starts (OpenSSH and its subsystems, ProFTPD, rclone), through one
 * client. A subclass names the server and the client; .ci/run installs every server, and under
 * {@code CI=true} a missing one fails its class instead of skipping it.
 */
abstract class RealSftpServerContractTest extends RemoteFileSystemContract {

    private static Path work;
    private static RealSftpServer server;
    private static final AtomicInteger CASES = new AtomicInteger();
    private static dev.remotepath.spi.RemoteFileSystem fileSystem;
    /** One options value per class (and server), so that every case reuses one connection. */
    private static SftpOptions options;

    /** This case's directory on the local disk, as the server serves it. */
    protected Path local;

    /** Starts the server under {@code work}, skipping (or, in CI, failing) where it is not installed. */
    abstract RealSftpServer startServer(Path work) throws Exception;

    /** The client library this class runs the contract through. */
    SftpOptions.Client client() {
        return SftpOptions.Client.MINA;
    }

    /** Whether the server offers copy-data (OpenSSH 9.0+ does). */
    boolean hasCopyData() {
        return false;
    }

    /** The directory the server serves, under which the cases' directories are made. */
    Path servedRoot(Path work) {
        return work;
    }

    private void startOnce() throws Exception {
        if (server != null) {
            return;
        }
        work = Files.createTempDirectory("rp-sftpd-");
        server = startServer(work);
    }

    /** Skips the class where the program is missing, and fails it under CI=true (.ci/run installs it). */
    static void requireInstalled(Path program, String what, String pkg) {
        boolean installed = Files.isExecutable(program) || Files.isRegularFile(program) && program.toString().endsWith(".so");
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new AssertionError(what + " is not installed (" + program + "); .ci/run installs " + pkg);
        }
        assumeTrue(installed, what + " is not installed: this contract run is skipped");
    }

    @AfterAll
    static void stop() throws Exception {
        if (server == null) {
            return;
        }
        if (fileSystem != null) {
            fileSystem.close();
            fileSystem = null;
        }
        server.close();
        server = null;
        options = null;
        LocalTrees.delete(work);
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        startOnce();
        local = Files.createDirectories(servedRoot(work).resolve("case-" + CASES.incrementAndGet()));
        if (options == null) {
            options = server.options(client());
        }
        RemotePath p = RemotePaths.get(server.uri(local), options);
        fileSystem = p.fileSystem();
        return p;
    }

    /** The server program's session (sshd's child, ProFTPD's, rclone) may hold nothing open after a case. */
    @Override
    protected java.util.Optional<Path> diskDirectoryOf(RemotePath dir) {
        return java.util.Optional.ofNullable(local);
    }

    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        Path own = Files.createDirectories(servedRoot(work).resolve("closing-" + CASES.incrementAndGet()));
        Files.writeString(own.resolve("f"), "x");
        // Options of their own (equal options share a file system): another connection than the cases'.
        return RemotePaths.get(server.uri(own),
                server.optionsBuilder(client()).connectTimeout(java.time.Duration.ofSeconds(29)).build());
    }

    /** A root-owned directory the server shows to its uid-65534 login, where it has one. */
    @Override
    protected RemotePath newDirectoryAsAnUnprivilegedUser() throws Exception {
        Path denied = Files.createDirectories(servedRoot(work).resolve("denied-" + CASES.incrementAndGet()));
        java.util.Optional<java.net.URI> uri = server.unprivilegedUri(denied);
        if (uri.isEmpty()) {
            return null;
        }
        Files.setPosixFilePermissions(servedRoot(work), java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(denied, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(Files.writeString(denied.resolve("secret"), "root only"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(Files.createDirectory(denied.resolve("locked")),
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        return RemotePaths.get(uri.get(), server.optionsBuilder(client()).connectTimeout(java.time.Duration.ofSeconds(28)).build());
    }

    @Test
    void bothClientsSeeTheSameServer() throws Exception {
        dir.resolve("f.txt").writeString("same");
        dir.resolve("d").createDirectory();
        for (SftpOptions.Client other : SftpOptions.Client.values()) {
            RemotePath there = RemotePaths.get(dir.toUri(), server.options(other));
            try {
                assertThat(there.fileSystem().capabilities()).isEqualTo(dir.fileSystem().capabilities());
                assertThat(there.fileSystem().capabilities().contains(Capability.SERVER_SIDE_COPY)).isEqualTo(hasCopyData());
                assertThat(there.fileSystem().nativeChecksums()).isEqualTo(dir.fileSystem().nativeChecksums());
                assertThat(there.list()).extracting(e -> e.name(), e -> e.stat())
                        .isEqualTo(dir.list().stream().map(e -> Tuple.tuple(e.name(), e.stat())).toList());
            } finally {
                if (there.fileSystem() != dir.fileSystem()) {
                    there.fileSystem().close();
                }
            }
        }
    }

    @Test
    void namesThatAreNotUtf8AreKeptByteForByte() throws Exception {
        // Made on the server's disk through the local backend, which keeps raw bytes.
        RemotePath onDisk = RemotePaths.of(local);
        onDisk.child("\udcff.bin").writeString("ff");
        onDisk.child("\udcfe.bin").writeString("fe");
        onDisk.child("caf\u00e9.txt").writeString("utf-8");
        assertThat(dir.list()).extracting(e -> e.name()).containsExactly("caf\u00e9.txt", "\udcfe.bin", "\udcff.bin");
        assertThat(dir.child("\udcff.bin").readString()).isEqualTo("ff");
        assertThat(dir.child("\udcfe.bin").readString()).isEqualTo("fe");
        // Written through SFTP: the same bytes land on the disk.
        dir.child("new-\udc80.bin").writeString("80");
        assertThat(onDisk.child("new-\udc80.bin").readString()).isEqualTo("80");
        // A lone surrogate stands for no bytes: refused, never sent as '?' to act on "a?b".
        onDisk.child("a?b").writeString("keep");
        RemotePath unsendable = dir.child("a\ud800b");
        for (var op : List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                unsendable::delete, () -> unsendable.writeString("x"), unsendable::stat)) {
            assertThatThrownBy(op).isInstanceOf(java.nio.file.FileSystemException.class).hasMessageContaining("cannot be sent");
        }
        assertThat(onDisk.child("a?b").readString()).isEqualTo("keep");
        onDisk.child("a?b").delete();
        Path mirror = Files.createTempDirectory("rp-bytes-");
        try {
            RemotePath target = RemotePaths.of(mirror);
            SyncReport first = PathSyncer.builder(dir, target).build().run();
            assertThat(first.errors()).isEmpty();
            assertThat(first.filesCopied()).isEqualTo(4);
            assertThat(target.child("\udcfe.bin").readString()).isEqualTo("fe");
            assertThat(PathSyncer.builder(dir, target).build().run().filesCopied()).isZero();
            // And back into the server: each copy goes through a temporary renamed into place
            // (posix-rename, an extension request, which both clients had sent as UTF-8, so the
            // temporary of "\xfe.bin" was "not found"), its time set with the content.
            RemotePath back = dir.resolve("back");
            SyncReport into = PathSyncer.builder(target, back).build().run();
            assertThat(into.errors()).isEmpty();
            assertThat(into.filesCopied()).isEqualTo(4);
            assertThat(onDisk.resolve("back").child("\udcfe.bin").readString()).isEqualTo("fe");
            assertThat(onDisk.resolve("back").list()).extracting(e -> e.name())
                    .containsExactly("caf\u00e9.txt", "new-\udc80.bin", "\udcfe.bin", "\udcff.bin");
            assertThat(PathSyncer.builder(target, back).build().run().filesCopied()).isZero();
            RemotePath escaped = back.child("\udcff.bin");
            escaped.setLastModifiedTime(Instant.parse("2001-01-01T00:00:00Z"));
            assertThat(onDisk.resolve("back").child("\udcff.bin").stat().lastModified())
                    .contains(Instant.parse("2001-01-01T00:00:00Z"));
            escaped.moveTo(back.child("\udc81.bin"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertThat(onDisk.resolve("back").child("\udc81.bin").readString()).isEqualTo("ff");
            RemotePath escapedDir = back.child("d-\udc82").createDirectory();
            assertThat(escapedDir.fileSystem().storeSpace(escapedDir)).isNotNull(); // statvfs, or nothing to say
        } finally {
            LocalTrees.delete(mirror);
        }
    }

    @Test
    void timesSftpCannotCarryFailClearlyInsteadOfWrappingAround() throws Exception {
        RemotePath f = dir.resolve("dated").writeString("x").setLastModifiedTime(Instant.parse("2001-01-01T00:00:00Z"));
        for (String when : new String[] {"1969-12-31T23:59:59Z", "2106-02-07T06:28:16Z"}) {
            assertThatThrownBy(() -> f.setLastModifiedTime(Instant.parse(when)))
                    .isInstanceOf(java.nio.file.FileSystemException.class).hasMessageContaining("from 1970 to 2106");
            assertThatThrownBy(() -> f.fileSystem().openWrite(dir.resolve("w"),
                    dev.remotepath.spi.WriteMode.CREATE_OR_TRUNCATE, Instant.parse(when)))
                    .isInstanceOf(java.nio.file.FileSystemException.class);
        }
        assertThat(f.stat().lastModified()).contains(Instant.parse("2001-01-01T00:00:00Z"));
        assertThat(dir.resolve("w").exists()).isFalse();
    }

    @Test
    void aFileFrom2040SyncsOnceAndANoOpResyncCopiesNothing() throws Exception {
        Path source = Files.createTempDirectory("rp-2040-");
        try {
            Files.writeString(source.resolve("future.txt"), "from 2040");
            Files.setLastModifiedTime(source.resolve("future.txt"),
                    java.nio.file.attribute.FileTime.from(Instant.parse("2040-02-29T12:00:00Z")));
            RemotePath from = RemotePaths.of(source);
            RemotePath target = dir.resolve("mirror");
            assertThat(PathSyncer.builder(from, target).build().run().filesCopied()).isEqualTo(1);
            assertThat(target.resolve("future.txt").stat().lastModified()).contains(Instant.parse("2040-02-29T12:00:00Z"));
            SyncReport again = PathSyncer.builder(from, target).build().run();
            assertThat(again.filesCopied()).isZero();
            assertThat(again.mtimesFixed()).isZero();
            assertThat(again.contentBytesRead()).isZero();
        } finally {
            LocalTrees.delete(source);
        }
    }

    /**
     * A relative link made on the disk reads back as written, whatever form the server's
     * READLINK answers in (ProFTPD answers with an absolute path), so a preserved link compares
     * equal to its source and a resync leaves it alone; a no-follow stat reports the link.
     */
    @Test
    void aRelativeLinkReadsBackAsWrittenAndResyncsToNothing() throws Exception {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        Files.createDirectories(local.resolve("sub"));
        Files.writeString(local.resolve("sub/target.txt"), "t");
        Files.createSymbolicLink(local.resolve("sub/rel"), Path.of("target.txt"));
        Files.createSymbolicLink(local.resolve("sub/up"), Path.of("../sub/target.txt"));
        Files.createSymbolicLink(local.resolve("sub/dangling"), Path.of("nowhere/x"));
        assertLinkText(dir.resolve("sub/rel"), "target.txt");
        assertLinkText(dir.resolve("sub/up"), "../sub/target.txt");
        assertLinkText(dir.resolve("sub/dangling"), "nowhere/x");
        assertThat(dir.resolve("sub/rel").stat(java.nio.file.LinkOption.NOFOLLOW_LINKS).type()).isEqualTo(dev.remotepath.FileType.SYMLINK);
        assertThat(dir.resolve("sub/dangling").stat(java.nio.file.LinkOption.NOFOLLOW_LINKS).type()).isEqualTo(dev.remotepath.FileType.SYMLINK);
        Path mirror = Files.createTempDirectory("rp-links-");
        try {
            RemotePath target = RemotePaths.of(mirror);
            SyncReport first = preserving(dir, target);
            assertThat(first.errors()).isEmpty();
            assertThat(first.linksCreated()).isEqualTo(3);
            assertThat(Files.readSymbolicLink(mirror.resolve("sub/rel")).toString()).isEqualTo("target.txt");
            assertThat(Files.readSymbolicLink(mirror.resolve("sub/dangling")).toString()).isEqualTo("nowhere/x");
            // A server that rewrites link text (see serverKeepsLinkText) gives back the folded relative form.
            assertThat(Files.readSymbolicLink(mirror.resolve("sub/up")).toString())
                    .isEqualTo(serverKeepsLinkText() ? "../sub/target.txt" : "target.txt");
            // Back the other way: links written through this server compare equal on the next run.
            RemotePath back = dir.resolve("back");
            assertThat(preserving(target, back).errors()).isEmpty();
            assertThat(Files.readSymbolicLink(local.resolve("back/sub/rel")).toString()).isEqualTo("target.txt");
            SyncReport again = preserving(target, back);
            assertThat(again.errors()).isEmpty();
            assertThat(again.filesCopied()).isZero();
            assertThat(again.linksCreated()).isZero();
            SyncReport resync = preserving(dir.resolve("sub"), target.resolve("sub"));
            assertThat(resync.linksCreated()).isZero();
            assertThat(resync.filesCopied()).isZero();
        } finally {
            LocalTrees.delete(mirror);
        }
    }

    private static SyncReport preserving(RemotePath source, RemotePath target) throws java.io.IOException {
        return PathSyncer.builder(source, target).symlinks(dev.remotepath.syncer.SymlinkPolicy.PRESERVE).build().run();
    }
}
