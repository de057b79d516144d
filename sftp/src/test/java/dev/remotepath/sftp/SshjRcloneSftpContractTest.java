package dev.remotepath.sftp;

/** The whole contract through sshj against rclone's {@code serve sftp}. */
class SshjRcloneSftpContractTest extends RcloneSftpContractTest {

    @Override
    SftpOptions.Client client() {
        return SftpOptions.Client.SSHJ;
    }
}
