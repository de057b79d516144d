package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import com.google.common.jimfs.PathNormalization;
import com.google.common.jimfs.PathType;
import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncError;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Syncs into an SFTP server whose disk does not tell names apart by case or Unicode
 * normalization, as a server on macOS or Windows does (MINA SSHD serving a jimfs disk that
 * folds both), with both clients: a case rename in the source updates the target's file
 * instead of writing it and then deleting it as extraneous, and two source names the server
 * takes for one are refused by name instead of written over each other.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FoldingServerSyncTest {

    private Path work;
    private TestSshServer server;
    private FileSystem disk;

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-sftp-fold-");
        server = new TestSshServer(work);
        disk = Jimfs.newFileSystem(Configuration.unix().toBuilder().setRoots("/").setWorkingDirectory("/")
                .setAttributeViews("basic", "owner", "posix")
                .setNameCanonicalNormalization(PathNormalization.NFC, PathNormalization.CASE_FOLD_ASCII).build());
        server.server.setFileSystemFactory(new VirtualFileSystemFactory(disk.getPath("/")));
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
        disk.close();
        LocalTrees.delete(work);
    }

    private RemotePath target(String dir, SftpOptions.Client client) throws Exception {
        return RemotePaths.get(URI.create("sftp://" + TestSshServer.USER + "@127.0.0.1:" + server.port() + "/" + dir),
                server.options(client));
    }

    private static SyncReport sync(Path src, RemotePath target) throws Exception {
        return PathSyncer.builder(RemotePaths.of(src), target).deleteExtraneous(true).build().run();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aCaseRenameIsAnUpdateAndTwinNamesAreRefused(SftpOptions.Client client) throws Exception {
        Path src = Files.createDirectories(work.resolve("src-" + client));
        Files.writeString(src.resolve("report.txt"), "first");
        Files.createDirectories(src.resolve("docs"));
        Files.writeString(src.resolve("docs/a.txt"), "a");
        Files.writeString(src.resolve("caf\u00e9.txt"), "composed");
        RemotePath target = target("dst-" + client, client);
        SyncReport first = sync(src, target);
        assertThat(first.errors()).isEmpty();
        assertThat(first.succeeded()).isTrue();

        Files.delete(src.resolve("report.txt"));
        Files.writeString(src.resolve("Report.txt"), "renamed and changed");
        Files.move(src.resolve("docs"), src.resolve("Docs"));
        Files.move(src.resolve("caf\u00e9.txt"), src.resolve("cafe\u0301.txt"));
        Files.writeString(src.resolve("README"), "upper");
        Files.writeString(src.resolve("readme"), "lower");
        SyncReport r = sync(src, target);

        assertThat(r.errors()).extracting(SyncError::relativePath).containsExactly("readme");
        assertThat(r.filesDeleted()).isZero();
        assertThat(r.directoriesDeleted()).isZero();
        assertThat(target.resolve("report.txt").readString()).isEqualTo("renamed and changed");
        assertThat(target.resolve("docs/a.txt").readString()).isEqualTo("a");
        assertThat(target.resolve("caf\u00e9.txt").readString()).isEqualTo("composed");
        assertThat(target.resolve("README").readString()).isEqualTo("upper");
        List<String> names = target.list().stream().map(DirEntry::name).sorted().toList();
        assertThat(names).containsExactly("README", "caf\u00e9.txt", "docs", "report.txt");

        Files.delete(src.resolve("readme"));
        SyncReport again = sync(src, target);
        assertThat(again.succeeded()).isTrue();
        assertThat(again.filesCopied() + again.filesDeleted()).isZero();
    }
}
