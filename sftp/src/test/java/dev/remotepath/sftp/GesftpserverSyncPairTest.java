package dev.remotepath.sftp;

import dev.remotepath.testkit.OpenSshd;
import java.nio.file.Path;

/** Every PathSyncer case over pairs with gesftpserver, as OpenSSH's subsystem on either side, both clients. */
class GesftpserverSyncPairTest extends RealServerSyncPairTest {

    @Override
    RealSftpServer start(Path work, Path served) throws Exception {
        RealSftpServerContractTest.requireInstalled(OpenSshd.SSHD, "OpenSSH sshd", "openssh-server");
        if ("/usr/libexec/gesftpserver".startsWith("/")) {
            RealSftpServerContractTest.requireInstalled(Path.of("/usr/libexec/gesftpserver"), "/usr/libexec/gesftpserver", "its Debian package");
        }
        return RealSftpServer.openSsh(work, "/usr/libexec/gesftpserver");
    }
}
