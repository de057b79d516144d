package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the walk, the copy, a no-op resync and a remove cost on the wire, counted by the server
 * itself (requests by type, {@link TestSshServer#requests}): a hidden LSTAT per file, a SETSTAT
 * per copied file or a second listing of a directory fails here, whatever the SPI counts say.
 * Tree: 4 directories (the root, d1, d1/d11, d2), 5 files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SftpWireCountsTest {

    private static final int DIRS = 4;
    private static final int FILES = 5;

    private Path work;
    private TestSshServer server;
    private final AtomicInteger cases = new AtomicInteger();

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-sftp-wire-");
        server = new TestSshServer(work);
    }

    @AfterAll
    void stop() throws Exception {
        for (SftpOptions o : options.values()) {
            RemotePaths.get(server.uri("/"), o).fileSystem().close();
        }
        server.close();
        LocalTrees.delete(work);
    }

    private static Path localTree() throws Exception {
        Path t = Files.createTempDirectory("rp-wire-tree-");
        Files.writeString(t.resolve("a.txt"), "a");
        Files.writeString(t.resolve("b.txt"), "bb");
        Files.createDirectories(t.resolve("d1/d11"));
        Files.writeString(t.resolve("d1/c.txt"), "ccc");
        Files.writeString(t.resolve("d1/d11/e.txt"), "eeee");
        Files.createDirectories(t.resolve("d2"));
        Files.writeString(t.resolve("d2/f.txt"), "fffff");
        return t;
    }

    /** One options value per client: one file system, one connection, as a user's run has. */
    private final Map<SftpOptions.Client, SftpOptions> options = new java.util.EnumMap<>(SftpOptions.Client.class);

    private RemotePath fresh(SftpOptions.Client client) throws Exception {
        String name = "case-" + cases.incrementAndGet();
        return RemotePaths.get(server.uri("/" + name), options.computeIfAbsent(client, server::options));
    }

    /**
     * The requests since the last reset, without a session's own start: its INIT, and MINA's
     * limits@openssh.com (an SSH_FXP_EXTENDED, asked once per session for its write sizes). A
     * further connection opens in the background when the transfers first overlap, so its
     * start may fall in any phase.
     */
    private Map<String, Long> wire() {
        Map<String, Long> m = new TreeMap<>(server.requests);
        m.remove("SSH_FXP_INIT");
        Long limits = m.remove("limits@openssh.com");
        if (limits != null) {
            m.computeIfPresent("SSH_FXP_EXTENDED", (k, n) -> n.longValue() == limits.longValue() ? null : n - limits);
        }
        return m;
    }

    private long stats() {
        return server.requests("SSH_FXP_STAT") + server.requests("SSH_FXP_LSTAT") + server.requests("SSH_FXP_FSTAT");
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void walkCopyResyncAndRemoveCostWhatTheirListingsCost(SftpOptions.Client client) throws Exception {
        Path local = localTree();
        try {
            // The file system's first write probes the server's answers once (ServerSemantics):
            // a sync into another directory pays that before counting starts.
            PathSyncer.builder(RemotePaths.of(local), fresh(client)).build().run();
            RemotePath target = fresh(client);

            server.resetRequests();
            SyncReport first = PathSyncer.builder(RemotePaths.of(local), target).build().run();
            assertThat(first.filesCopied()).isEqualTo(FILES);
            // Per file: OPEN, WRITE, FSETSTAT (its time, through the handle), CLOSE, posix-rename
            // into place; per directory one MKDIR. Once per run, for the missing target root: its
            // listing (an OPENDIR that fails, and the LSTAT that tells "missing" from "not a
            // directory"), the STAT of its parent (there already), and its MKDIR with the source
            // root's permissions (counted with the directories'). No stat of any file. At the end, one lsetstat@openssh.com per directory (a SETSTAT that
            // does not follow a link swapped in meanwhile): its source's time, once everything in
            // it is written.
            Map<String, Long> copy = wire();
            assertThat(copy.remove("lsetstat@openssh.com")).as("directory times").isEqualTo(DIRS);
            assertThat(copy).as("first sync").isEqualTo(Map.of(
                    "SSH_FXP_OPENDIR", 1L, "SSH_FXP_LSTAT", 1L, "SSH_FXP_STAT", 1L, "SSH_FXP_MKDIR", (long) DIRS,
                    "SSH_FXP_OPEN", (long) FILES, "SSH_FXP_WRITE", (long) FILES, "SSH_FXP_FSETSTAT", (long) FILES,
                    "SSH_FXP_CLOSE", (long) FILES, "SSH_FXP_EXTENDED", (long) FILES + DIRS,
                    "posix-rename@openssh.com", (long) FILES));

            // copyTo of the tree (TreeCopier): the same per file and per directory, no stat per file.
            RemotePath copied = fresh(client);
            server.resetRequests();
            RemotePaths.of(local).copyTo(copied);
            Map<String, Long> tree = wire();
            // The non-replacing RENAME into place needs no LSTAT first: the probe saw this server
            // refuse to rename onto an existing file (ServerSemantics).
            assertThat(tree).as("copyTo").isEqualTo(Map.of("SSH_FXP_MKDIR", (long) DIRS, "SSH_FXP_OPEN", (long) FILES,
                    "SSH_FXP_WRITE", (long) FILES, "SSH_FXP_FSETSTAT", (long) FILES, "SSH_FXP_CLOSE", (long) FILES,
                    "SSH_FXP_RENAME", (long) FILES, "SSH_FXP_EXTENDED", (long) DIRS, "lsetstat@openssh.com", (long) DIRS));

            // A walk: one OPENDIR, two READDIRs (the names, then EOF) and a CLOSE per directory.
            Map<String, Long> listings = Map.of("SSH_FXP_OPENDIR", (long) DIRS, "SSH_FXP_READDIR", 2L * DIRS,
                    "SSH_FXP_CLOSE", (long) DIRS);
            server.resetRequests();
            try (Stream<dev.remotepath.DirEntry> walk = target.walk()) {
                assertThat(walk.count()).isEqualTo(DIRS - 1 + FILES);
            }
            assertThat(wire()).as("walk").isEqualTo(listings);

            // A no-op resync costs the target's listings and nothing else: no stat, no open, no SETSTAT.
            server.resetRequests();
            SyncReport again = PathSyncer.builder(RemotePaths.of(local), target).build().run();
            assertThat(again.filesCopied()).isZero();
            assertThat(wire()).as("no-op resync").isEqualTo(listings);

            // rm -r: the listings, a REMOVE per file and an RMDIR per directory, and the start's
            // LSTAT with the READLINK that confirms it is no link (ServerSemantics.lstat).
            server.resetRequests();
            target.deleteRecursively();
            Map<String, Long> removal = new TreeMap<>(listings);
            removal.putAll(Map.of("SSH_FXP_LSTAT", 1L, "SSH_FXP_READLINK", 1L, "SSH_FXP_REMOVE", (long) FILES,
                    "SSH_FXP_RMDIR", (long) DIRS));
            assertThat(wire()).as("rm -r").isEqualTo(removal);
        } finally {
            LocalTrees.delete(local);
        }
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aDownloadAndAContentCompareAskTwoReadsAFileOfAFewBytes(SftpOptions.Client client) throws Exception {
        Path local = localTree();
        Path back = Files.createTempDirectory("rp-wire-back-");
        try {
            RemotePath source = fresh(client);
            PathSyncer.builder(RemotePaths.of(local), source).build().run();
            server.resetRequests();
            SyncReport down = PathSyncer.builder(source, RemotePaths.of(back)).build().run();
            assertThat(down.filesCopied()).isEqualTo(FILES);
            // Per file: one READ of the listed size and one byte more (its data), one READ of the
            // byte after (EOF, so a file that grew is caught). Both clients pipelined a window's
            // worth of READs otherwise: sshj 65 a file, each answered.
            assertThat(server.requests("SSH_FXP_READ")).as("READs").isEqualTo(2L * FILES);
            assertThat(server.requests("SSH_FXP_OPEN")).isEqualTo(FILES);
            assertThat(Files.readString(back.resolve("d1/d11/e.txt"))).isEqualTo("eeee");

            // A resync comparing content: each file read whole to checksum it (this server
            // computes none), again two READs a file.
            server.resetRequests();
            SyncReport compared = PathSyncer.builder(source, RemotePaths.of(back))
                    .comparison(dev.remotepath.syncer.Comparison.CHECKSUM).build().run();
            assertThat(compared.filesCopied()).isZero();
            assertThat(server.requests("SSH_FXP_READ")).as("READs of the checksum compare").isEqualTo(2L * FILES);
        } finally {
            LocalTrees.delete(local);
            LocalTrees.delete(back);
        }
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void throughJavaNioFileAWalkCostsItsListingsAndAZipOnlyTheBytesItNeeds(SftpOptions.Client client) throws Exception {
        Path local = localTree();
        try {
            RemotePath target = fresh(client);
            PathSyncer.builder(RemotePaths.of(local), target).build().run();
            java.nio.file.Path root = dev.remotepath.nio.RemoteNio.of(target);
            server.resetRequests();
            try (Stream<java.nio.file.Path> walk = Files.walk(root)) {
                assertThat(walk.filter(p -> !Files.isDirectory(p)).count()).isEqualTo(FILES);
            }
            // Each directory's listing, and only the start path is stat'ed (it comes from no
            // listing: the walk asks its attributes, the filter once more).
            Map<String, Long> walked = wire();
            assertThat(stats()).as(walked.toString()).isEqualTo(2);
            assertThat(walked).containsEntry("SSH_FXP_OPENDIR", (long) DIRS).containsEntry("SSH_FXP_READDIR", 2L * DIRS);
            assertThat(server.requests("SSH_FXP_OPEN")).isZero();

            byte[] bulk = new byte[8 << 20];
            new java.util.Random(13).nextBytes(bulk);
            RemotePath zip = target.resolve("x.zip").write(dev.remotepath.testkit.ZipFixtures.bulkThenReadme(bulk, "read me"));
            server.resetRequests();
            try (java.nio.file.FileSystem zipfs = java.nio.file.FileSystems.newFileSystem(dev.remotepath.nio.RemoteNio.of(zip))) {
                assertThat(Files.readString(zipfs.getPath("/docs/readme.txt"))).isEqualTo("read me");
            }
            // The central directory at the end and the entry before it: a few windows of 64 KiB,
            // however far the client reads ahead (its READs never pass the window), not the 8 MiB
            // of bulk before them.
            assertThat(server.bytesRead.get()).as(wire().toString()).isPositive().isLessThan(1 << 20);
        } finally {
            LocalTrees.delete(local);
        }
    }
}
