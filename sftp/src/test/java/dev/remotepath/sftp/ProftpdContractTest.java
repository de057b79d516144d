package dev.remotepath.sftp;

import java.nio.file.Files;
import java.nio.file.Path;

/** The whole contract (MINA client) against ProFTPD's mod_sftp. */
class ProftpdContractTest extends RealSftpServerContractTest {

    @Override
    RealSftpServer startServer(Path work) throws Exception {
        requireInstalled(ProftpdSftpd.PROFTPD, "ProFTPD", "proftpd-core");
        requireInstalled(ProftpdSftpd.MOD_SFTP, "ProFTPD's mod_sftp", "proftpd-mod-crypto");
        return new ProftpdSftpd(Files.createDirectories(work.resolve("proftpd")));
    }

    /** mod_sftp answers READLINK with the absolute path a relative link resolves to. */
    @Override
    protected boolean serverKeepsLinkText() {
        return false;
    }
}
