package dev.remotepath.sftp;

import java.nio.file.Path;

/** Every PathSyncer case over pairs with ProFTPD's mod_sftp on either side, both clients. */
class ProftpdSyncPairTest extends RealServerSyncPairTest {

    @Override
    RealSftpServer start(Path work, Path served) throws Exception {
        RealSftpServerContractTest.requireInstalled(ProftpdSftpd.PROFTPD, "ProFTPD", "proftpd-core");
        RealSftpServerContractTest.requireInstalled(ProftpdSftpd.MOD_SFTP, "ProFTPD's mod_sftp", "proftpd-mod-crypto");
        return new ProftpdSftpd(work);
    }
}
