package dev.remotepath.sftp;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.OpenSshd;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole contract suite over SFTP (MINA client) against the system's OpenSSH. .ci/run
 * installs openssh-server; where it is missing the suite is skipped, saying so (and fails in CI).
 */
class OpenSshContractTest extends RemoteFileSystemContract {

    private static Path work;
    private static OpenSshd server;
    private static final AtomicInteger CASES = new AtomicInteger();
    private static dev.remotepath.spi.RemoteFileSystem fileSystem;
    /** One options value per class (and server), so that every case reuses one connection. */
    private static SftpOptions options;

    /** The SFTP server sshd runs; subclasses run the contract against other servers as its subsystem. */
    String subsystem() {
        return "internal-sftp";
    }

    /** Starts the server for this class on its first case (a static start cannot ask the subclass). */
    private void startOnce() throws Exception {
        if (server != null) {
            return;
        }
        requireInstalled(OpenSshd.SSHD, "OpenSSH sshd", "openssh-server");
        if (subsystem().startsWith("/")) {
            requireInstalled(java.nio.file.Path.of(subsystem()), subsystem(), "its Debian package");
        }
        work = Files.createTempDirectory("rp-openssh-");
        server = new OpenSshd(work, subsystem());
    }

    /** Skips the class where the program is missing, and fails it under CI=true (.ci/run installs it). */
    static void requireInstalled(java.nio.file.Path program, String what, String pkg) {
        boolean installed = Files.isExecutable(program);
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

    /** Key login with the server's own known_hosts. */
    static SftpOptions optionsFor(OpenSshd server) {
        return optionsFor(server, SftpOptions.Client.MINA);
    }

    static SftpOptions optionsFor(OpenSshd server, SftpOptions.Client client) {
        return SftpOptions.builder().identityFiles(java.util.List.of(server.clientKey)).knownHosts(server.knownHosts)
                .client(client).build();
    }

    /** Whether the server offers copy-data (OpenSSH 9.0+ does; gesftpserver does not). */
    boolean hasCopyData() {
        return true;
    }

    /** The client library this class runs the contract through. */
    SftpOptions.Client client() {
        return SftpOptions.Client.MINA;
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        startOnce();
        Path dir = Files.createDirectories(work.resolve("case-" + CASES.incrementAndGet()));
        if (options == null) {
            options = optionsFor(server, client());
        }
        RemotePath p = RemotePaths.get(server.uri(dir), options);
        fileSystem = p.fileSystem();
        return p;
    }

    @org.junit.jupiter.api.Test
    void bothClientsSeeTheSameServer() throws Exception {
        dir.resolve("f.txt").writeString("same");
        for (SftpOptions.Client other : SftpOptions.Client.values()) {
            RemotePath there = RemotePaths.get(dir.toUri(), optionsFor(server, other));
            try {
                org.assertj.core.api.Assertions.assertThat(there.fileSystem().capabilities())
                        .isEqualTo(dir.fileSystem().capabilities())
                        .contains(dev.remotepath.spi.Capability.ATOMIC_RENAME);
                org.assertj.core.api.Assertions.assertThat(there.fileSystem().capabilities()
                        .contains(dev.remotepath.spi.Capability.SERVER_SIDE_COPY)).isEqualTo(hasCopyData());
                org.assertj.core.api.Assertions.assertThat(there.list()).extracting(e -> e.name(), e -> e.stat())
                        .isEqualTo(dir.list().stream().map(e -> org.assertj.core.groups.Tuple.tuple(e.name(), e.stat())).toList());
            } finally {
                if (there.fileSystem() != dir.fileSystem()) {
                    there.fileSystem().close();
                }
            }
        }
    }

    @org.junit.jupiter.api.Test
    void namesThatAreNotUtf8AreKeptByteForByte() throws Exception {
        // Made on the server's disk through the local backend, which keeps raw bytes.
        RemotePath onDisk = RemotePaths.of(Path.of(dir.pathString()));
        onDisk.child("\udcff.bin").writeString("ff");
        onDisk.child("\udcfe.bin").writeString("fe");
        onDisk.child("caf\u00e9.txt").writeString("utf-8");
        org.assertj.core.api.Assertions.assertThat(dir.list()).extracting(e -> e.name())
                .containsExactly("caf\u00e9.txt", "\udcfe.bin", "\udcff.bin");
        org.assertj.core.api.Assertions.assertThat(dir.child("\udcff.bin").readString()).isEqualTo("ff");
        org.assertj.core.api.Assertions.assertThat(dir.child("\udcfe.bin").readString()).isEqualTo("fe");
        // Written through SFTP: the same bytes land on the disk.
        dir.child("new-\udc80.bin").writeString("80");
        org.assertj.core.api.Assertions.assertThat(onDisk.child("new-\udc80.bin").readString()).isEqualTo("80");
        // A lone surrogate stands for no bytes: refused, never sent as '?' to act on "a?b".
        onDisk.child("a?b").writeString("keep");
        RemotePath unsendable = dir.child("a\ud800b");
        for (var op : java.util.List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                unsendable::delete, () -> unsendable.writeString("x"), unsendable::stat)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(op).isInstanceOf(java.nio.file.FileSystemException.class)
                    .hasMessageContaining("cannot be sent");
        }
        org.assertj.core.api.Assertions.assertThat(onDisk.child("a?b").readString()).isEqualTo("keep");
        onDisk.child("a?b").delete();
        Path mirror = Files.createTempDirectory("rp-bytes-");
        try {
            RemotePath target = RemotePaths.of(mirror);
            var first = dev.remotepath.syncer.PathSyncer.builder(dir, target).build().run();
            org.assertj.core.api.Assertions.assertThat(first.errors()).isEmpty();
            org.assertj.core.api.Assertions.assertThat(first.filesCopied()).isEqualTo(4);
            org.assertj.core.api.Assertions.assertThat(target.child("\udcfe.bin").readString()).isEqualTo("fe");
            var again = dev.remotepath.syncer.PathSyncer.builder(dir, target).build().run();
            org.assertj.core.api.Assertions.assertThat(again.filesCopied()).isZero();
        } finally {
            LocalTrees.delete(mirror);
        }
    }

    @org.junit.jupiter.api.Test
    void timesSftpCannotCarryFailClearlyInsteadOfWrappingAround() throws Exception {
        RemotePath f = dir.resolve("dated").writeString("x").setLastModifiedTime(java.time.Instant.parse("2001-01-01T00:00:00Z"));
        for (String when : new String[] {"1969-12-31T23:59:59Z", "2106-02-07T06:28:16Z"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> f.setLastModifiedTime(java.time.Instant.parse(when)))
                    .isInstanceOf(java.nio.file.FileSystemException.class).hasMessageContaining("from 1970 to 2106");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> f.fileSystem().openWrite(dir.resolve("w"),
                    dev.remotepath.spi.WriteMode.CREATE_OR_TRUNCATE, java.time.Instant.parse(when)))
                    .isInstanceOf(java.nio.file.FileSystemException.class);
        }
        org.assertj.core.api.Assertions.assertThat(f.stat().lastModified()).contains(java.time.Instant.parse("2001-01-01T00:00:00Z"));
        org.assertj.core.api.Assertions.assertThat(dir.resolve("w").exists()).isFalse();
    }

    @org.junit.jupiter.api.Test
    void aFileFrom2040SyncsOnceAndANoOpResyncCopiesNothing() throws Exception {
        Path local = Files.createTempDirectory("rp-2040-");
        try {
            Files.writeString(local.resolve("future.txt"), "from 2040");
            Files.setLastModifiedTime(local.resolve("future.txt"),
                    java.nio.file.attribute.FileTime.from(java.time.Instant.parse("2040-02-29T12:00:00Z")));
            RemotePath source = RemotePaths.of(local);
            RemotePath target = dir.resolve("mirror");
            var first = dev.remotepath.syncer.PathSyncer.builder(source, target).build().run();
            org.assertj.core.api.Assertions.assertThat(first.filesCopied()).isEqualTo(1);
            org.assertj.core.api.Assertions.assertThat(target.resolve("future.txt").stat().lastModified())
                    .contains(java.time.Instant.parse("2040-02-29T12:00:00Z"));
            var again = dev.remotepath.syncer.PathSyncer.builder(source, target).build().run();
            org.assertj.core.api.Assertions.assertThat(again.filesCopied()).isZero();
            org.assertj.core.api.Assertions.assertThat(again.mtimesFixed()).isZero();
            org.assertj.core.api.Assertions.assertThat(again.contentBytesRead()).isZero();
        } finally {
            LocalTrees.delete(local);
        }
    }

    @org.junit.jupiter.api.Test
    void checksumsAreStreamedBecauseOpenSshOffersNoCheckFile() throws Exception {
        RemotePath f = dir.resolve("hello").writeString("hello");
        var md5 = f.checksum(dev.remotepath.ChecksumAlgorithm.MD5);
        org.assertj.core.api.Assertions.assertThat(md5.origin()).isEqualTo(dev.remotepath.Checksum.Origin.STREAMED);
        org.assertj.core.api.Assertions.assertThat(md5.hex()).isEqualTo("5d41402abc4b2a76b9719d911017c592");
        org.assertj.core.api.Assertions.assertThat(f.fileSystem().nativeChecksums()).isEmpty();
    }
}
