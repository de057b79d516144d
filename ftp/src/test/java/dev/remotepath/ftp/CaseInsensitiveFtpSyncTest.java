package dev.remotepath.ftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncError;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Syncs into an FTP server that looks names up without regard to case, as one on Windows does
 * (Apache MINA FtpServer with its case-insensitive file system): a case rename in the source is
 * an update of the server's file, not a copy followed by the deletion of that same file, and two
 * source names the server takes for one are refused by name.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CaseInsensitiveFtpSyncTest {

    private Path work;
    private Path served;
    private FtpServers.Running server;

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-ftp-fold-");
        served = Files.createDirectories(work.resolve("root"));
        server = FtpServers.mina(served, work, FtpServers.Tls.NONE, true);
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
        LocalTrees.delete(work);
    }

    private SyncReport sync(Path src, RemotePath target) throws Exception {
        return PathSyncer.builder(RemotePaths.of(src), target).deleteExtraneous(true).build().run();
    }

    @Test
    void aCaseRenameIsAnUpdateAndTwinNamesAreRefused() throws Exception {
        Path src = Files.createDirectories(work.resolve("src"));
        Files.writeString(src.resolve("report.txt"), "first");
        Files.createDirectories(src.resolve("docs"));
        Files.writeString(src.resolve("docs/a.txt"), "a");
        RemotePath target = RemotePaths.get(java.net.URI.create(server.base() + "/dst"), server.options().build());
        SyncReport first = sync(src, target);
        assertThat(first.errors()).isEmpty();

        Files.delete(src.resolve("report.txt"));
        Files.writeString(src.resolve("Report.txt"), "renamed and changed");
        Files.move(src.resolve("docs"), src.resolve("Docs"));
        Files.writeString(src.resolve("README"), "upper");
        Files.writeString(src.resolve("readme"), "lower");
        SyncReport r = sync(src, target);

        assertThat(r.errors()).extracting(SyncError::relativePath).containsExactly("readme");
        assertThat(r.filesDeleted() + r.directoriesDeleted()).isZero();
        assertThat(Files.readString(served.resolve("dst/report.txt"))).isEqualTo("renamed and changed");
        assertThat(Files.readString(served.resolve("dst/docs/a.txt"))).isEqualTo("a");
        assertThat(Files.readString(served.resolve("dst/README"))).isEqualTo("upper");
        List<String> names = target.list().stream().map(DirEntry::name).sorted().toList();
        assertThat(names).containsExactly("README", "docs", "report.txt");

        Files.delete(src.resolve("readme"));
        SyncReport again = sync(src, target);
        assertThat(again.errors()).isEmpty();
        assertThat(again.filesCopied() + again.filesDeleted()).isZero();
    }
}
