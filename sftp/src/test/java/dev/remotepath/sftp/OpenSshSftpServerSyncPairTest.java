package dev.remotepath.sftp;

import dev.remotepath.testkit.OpenSshd;
import java.nio.file.Path;

/** Every PathSyncer case over pairs with OpenSSH's external sftp-server on either side, both clients. */
class OpenSshSftpServerSyncPairTest extends RealServerSyncPairTest {

    @Override
    RealSftpServer start(Path work, Path served) throws Exception {
        RealSftpServerContractTest.requireInstalled(OpenSshd.SSHD, "OpenSSH sshd", "openssh-server");
        if ("/usr/lib/openssh/sftp-server".startsWith("/")) {
            RealSftpServerContractTest.requireInstalled(Path.of("/usr/lib/openssh/sftp-server"), "/usr/lib/openssh/sftp-server", "its Debian package");
        }
        return RealSftpServer.openSsh(work, "/usr/lib/openssh/sftp-server");
    }
}
