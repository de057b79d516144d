package dev.remotepath.sftp;

import dev.remotepath.testkit.OpenSshd;
import java.nio.file.Path;

/** Every PathSyncer case over pairs with OpenSSH internal-sftp on either side, both clients. */
class OpenSshSyncPairTest extends RealServerSyncPairTest {

    @Override
    RealSftpServer start(Path work, Path served) throws Exception {
        RealSftpServerContractTest.requireInstalled(OpenSshd.SSHD, "OpenSSH sshd", "openssh-server");
        if ("internal-sftp".startsWith("/")) {
            RealSftpServerContractTest.requireInstalled(Path.of("internal-sftp"), "internal-sftp", "its Debian package");
        }
        return RealSftpServer.openSsh(work, "internal-sftp");
    }
}
