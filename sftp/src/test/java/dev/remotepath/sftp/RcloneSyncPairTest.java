package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SymlinkPolicy;
import dev.remotepath.syncer.SyncError;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every PathSyncer case over pairs with rclone's {@code serve sftp} on either side, both clients. */
class RcloneSyncPairTest extends RealServerSyncPairTest {

    @Override
    RealSftpServer start(Path work, Path served) throws Exception {
        RealSftpServerContractTest.requireInstalled(RcloneSftpd.RCLONE, "rclone", "rclone");
        return new RcloneSftpd(work, served);
    }

    @Override
    boolean serverKeepsLinks() {
        return false;
    }

    @Override
    boolean serverKeepsPermissions() {
        return false;
    }

    /** Links preserved into a server that refuses them: one error per link, the files copied, exit 1. */
    @Test
    void preservingLinksIntoRcloneReportsEachLinkAndCopiesTheRest() throws Exception {
        Path local = Files.createTempDirectory("rp-rclone-links-");
        try {
            Files.writeString(local.resolve("a.txt"), "alpha");
            Files.createSymbolicLink(local.resolve("l1"), Path.of("a.txt"));
            Files.createSymbolicLink(local.resolve("l2"), Path.of("missing"));
            for (SftpOptions.Client client : SftpOptions.Client.values()) {
                RemotePath target = newRoot(client);
                SyncReport r = PathSyncer.builder(RemotePaths.of(local), target).symlinks(SymlinkPolicy.PRESERVE).build().run();
                assertThat(r.filesCopied()).isEqualTo(1);
                assertThat(r.linksCreated()).isZero();
                assertThat(r.errors()).extracting(SyncError::relativePath).containsExactlyInAnyOrder("l1", "l2");
                assertThat(r.errors()).extracting(SyncError::message)
                        .allMatch(m -> m.contains("does not support symbolic links"));
                assertThat(target.list()).extracting(e -> e.name()).containsExactly("a.txt");
            }
        } finally {
            LocalTrees.delete(local);
        }
    }
}
