package dev.remotepath.ftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the contract suite does not cover: TLS on every server that has it (explicit and
 * implicit), certificate checking, logins, and a sync to a server whose times cannot be set
 * (vsftpd: no MFMT, LIST listings).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FtpBehaviourTest {

    private Path work;

    @BeforeAll
    void work() throws Exception {
        work = Files.createTempDirectory("rp-ftp-behaviour-");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
    }

    @AfterAll
    void clean() throws Exception {
        dev.remotepath.testkit.LocalTrees.delete(work);
    }

    private Path newRoot() throws Exception {
        return Files.createDirectories(work.resolve("root-" + UUID.randomUUID()));
    }

    /** A small tree with old times on this machine's disk. */
    private Path source() throws Exception {
        Path src = Files.createDirectories(work.resolve("src-" + UUID.randomUUID()));
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Files.write(src.resolve("sub/b.bin"), new byte[300_000]);
        Instant past = Instant.now().minusSeconds(7200);
        Files.setLastModifiedTime(src.resolve("a.txt"), FileTime.from(past));
        Files.setLastModifiedTime(src.resolve("sub/b.bin"), FileTime.from(past));
        return src;
    }

    static Stream<Arguments> tlsServers() {
        return Stream.of(Arguments.of("proftpd", FtpServers.Tls.EXPLICIT), Arguments.of("proftpd", FtpServers.Tls.IMPLICIT),
                Arguments.of("vsftpd", FtpServers.Tls.EXPLICIT), Arguments.of("vsftpd", FtpServers.Tls.IMPLICIT),
                Arguments.of("pure-ftpd", FtpServers.Tls.EXPLICIT), Arguments.of("mina", FtpServers.Tls.EXPLICIT),
                Arguments.of("mina", FtpServers.Tls.IMPLICIT));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("tlsServers")
    void aTreeGoesToAndComesBackOverTls(String name, FtpServers.Tls tls) throws Exception {
        Path root = newRoot();
        Path src = source();
        try (FtpServers.Running server = FtpServers.start(name, root, work, tls)) {
            FtpOptions options = server.options().build();
            RemotePath target = RemotePaths.get(URI.create(server.base() + "/mirror/"), options);
            assertThat(target.toString()).startsWith("ftps://");
            SyncReport first = PathSyncer.builder(RemotePaths.of(src), target).build().run();
            assertThat(first.filesCopied()).as(first.toString()).isEqualTo(2);
            Path onDisk = name.equals("vsftpd") ? root.resolve("pub/mirror") : root.resolve("mirror");
            assertThat(Files.readString(onDisk.resolve("a.txt"))).isEqualTo("alpha");
            assertThat(Files.size(onDisk.resolve("sub/b.bin"))).isEqualTo(300_000);
            assertThat(target.resolve("sub").list()).extracting(e -> e.name()).containsExactly("b.bin");
            assertThat(target.resolve("sub/b.bin").readAllBytes()).isEqualTo(new byte[300_000]);
            SyncReport again = PathSyncer.builder(RemotePaths.of(src), target).build().run();
            assertThat(again.filesCopied()).as(again + " " + target.resolve("a.txt").stat() + " " + target.list()).isZero();
            target.deleteRecursively();
            assertThat(onDisk).doesNotExist();
            target.fileSystem().close();
        }
    }

    @Test
    void aCertificateTheJdkDoesNotTrustIsRefused() throws Exception {
        try (FtpServers.Running server = FtpServers.start("proftpd", newRoot(), work, FtpServers.Tls.EXPLICIT)) {
            FtpOptions jdkTrust = FtpOptions.builder().password(FtpServers.PASSWORD).build();
            assertThatThrownBy(() -> RemotePaths.get(URI.create(server.base() + "/"), jdkTrust).list())
                    .isInstanceOf(FileSystemException.class)
                    .hasMessageContaining("TLS");
        }
    }

    @Test
    void aWrongPasswordIsAccessDeniedWithoutThePassword() throws Exception {
        try (FtpServers.Running server = FtpServers.start("proftpd", newRoot(), work, FtpServers.Tls.NONE)) {
            FtpOptions wrong = FtpOptions.builder().password("guess-what").build();
            assertThatThrownBy(() -> RemotePaths.get(URI.create(server.base() + "/"), wrong).list())
                    .isInstanceOf(AccessDeniedException.class)
                    .satisfies(e -> assertThat(e.getMessage()).contains(FtpServers.USER).doesNotContain("guess-what"));
            assertThat(wrong.toString()).doesNotContain("guess-what");
        }
    }

    @Test
    void aPasswordInTheUriIsRefused() {
        assertThatThrownBy(() -> RemotePaths.get(URI.create("ftp://bob:secret@127.0.0.1:1/x")))
                .isInstanceOf(InvalidPathException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret"));
    }

    /**
     * vsftpd has no MFMT: uploads keep the server's time, and a resync compares "not older than
     * the source" (as for every target that cannot set times), on LIST's minutes.
     */
    @Test
    void aSyncToAServerThatCannotSetTimesCopiesOnlyWhatChanged() throws Exception {
        Path root = newRoot();
        Path src = source();
        try (FtpServers.Running server = FtpServers.start("vsftpd", root, work, FtpServers.Tls.NONE)) {
            RemotePath target = RemotePaths.get(URI.create(server.base() + "/mirror/"), server.options().build());
            assertThat(target.fileSystem().capabilities()).doesNotContain(dev.remotepath.spi.Capability.SET_LAST_MODIFIED_TIME);
            RemotePath from = RemotePaths.of(src);
            assertThat(PathSyncer.builder(from, target).build().run().filesCopied()).isEqualTo(2);
            SyncReport again = PathSyncer.builder(from, target).build().run();
            assertThat(again.filesCopied()).as(again.toString()).isZero();
            assertThat(again.bytesCopied()).isZero();
            Files.writeString(src.resolve("a.txt"), "ALPHA"); // changed: newer than its upload
            Files.setLastModifiedTime(src.resolve("a.txt"), FileTime.from(Instant.now().plusSeconds(120)));
            SyncReport changed = PathSyncer.builder(from, target).build().run();
            assertThat(changed.filesCopied()).as(changed.toString()).isEqualTo(1);
            assertThat(Files.readString(root.resolve("pub/mirror/a.txt"))).isEqualTo("ALPHA");
            target.fileSystem().close();
        }
    }

    /**
     * vsftpd as a source: its LIST times are minutes for this year's files and days for older
     * ones, and each entry says so; a resync copies nothing, then exactly what changed, and a
     * file gone from the server goes from the mirror. (The shared sync cases seed their source
     * through the backend, which cannot set times on vsftpd, so this is its ftp → mem pair.)
     */
    @Test
    void aSyncFromAServerWithOnlyListListingsCopiesOnlyWhatChanged() throws Exception {
        Path root = newRoot();
        Path pub = Files.createDirectories(root.resolve("pub/tree/sub"));
        Files.writeString(pub.getParent().resolve("a.txt"), "alpha");
        Files.write(pub.resolve("b.bin"), new byte[70_000]);
        Files.setLastModifiedTime(pub.getParent().resolve("a.txt"), FileTime.from(Instant.now().minusSeconds(7200)));
        Files.setLastModifiedTime(pub.resolve("b.bin"), FileTime.from(Instant.parse("2024-02-29T13:37:42Z")));
        try (FtpServers.Running server = FtpServers.start("vsftpd", root, work, FtpServers.Tls.NONE)) {
            RemotePath source = RemotePaths.get(URI.create(server.base() + "/tree/"), server.options().build());
            RemotePath mirror = RemotePaths.get("mem://vsftpd-mirror-" + UUID.randomUUID() + "/m/");
            assertThat(source.resolve("sub").list(dev.remotepath.spi.ListDetail.FILE_STATS).getFirst().stat().lastModifiedPrecision())
                    .isEqualTo(java.time.Duration.ofDays(1));
            assertThat(source.list(dev.remotepath.spi.ListDetail.FILE_STATS).stream().filter(e -> e.name().equals("a.txt")).findFirst().orElseThrow().stat()
                    .lastModifiedPrecision()).isEqualTo(java.time.Duration.ofMinutes(1));

            SyncReport first = PathSyncer.builder(source, mirror).deleteExtraneous(true).build().run();
            assertThat(first.filesCopied()).as(first.toString()).isEqualTo(2);
            assertThat(mirror.resolve("sub/b.bin").readAllBytes()).isEqualTo(new byte[70_000]);
            SyncReport again = PathSyncer.builder(source, mirror).deleteExtraneous(true).build().run();
            assertThat(again.filesCopied()).as(again.toString()).isZero();

            Files.writeString(pub.getParent().resolve("a.txt"), "alpha, again");
            Files.setLastModifiedTime(pub.getParent().resolve("a.txt"), FileTime.from(Instant.now().minusSeconds(3600)));
            Files.delete(pub.resolve("b.bin"));
            SyncReport changed = PathSyncer.builder(source, mirror).deleteExtraneous(true).build().run();
            assertThat(changed.filesCopied()).as(changed.toString()).isEqualTo(1);
            assertThat(changed.filesDeleted()).isEqualTo(1);
            assertThat(mirror.resolve("a.txt").readString()).isEqualTo("alpha, again");
            assertThat(mirror.resolve("sub/b.bin").exists()).isFalse();
            mirror.fileSystem().close();
            source.fileSystem().close();
        }
    }

    /** Active mode (PORT): the server connects back to this machine for each transfer. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"proftpd", "mina"})
    void activeModeReadsWritesAndLists(String name) throws Exception {
        Path root = newRoot();
        try (FtpServers.Running server = FtpServers.start(name, root, work, FtpServers.Tls.NONE)) {
            RemotePath dir = RemotePaths.get(URI.create(server.base() + "/active/"), server.options().passive(false).build());
            dir.createDirectories();
            dir.resolve("x.txt").writeString("over a PORT connection");
            assertThat(dir.list()).extracting(e -> e.name()).containsExactly("x.txt");
            assertThat(dir.resolve("x.txt").readString()).isEqualTo("over a PORT connection");
            assertThat(Files.readString(root.resolve("active/x.txt"))).isEqualTo("over a PORT connection");
            dir.fileSystem().close();
        }
    }
}
