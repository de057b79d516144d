package dev.remotepath.sftp;

/** The whole contract through sshj against OpenSSH's external {@code sftp-server}. */
class SshjOpenSshSftpServerContractTest extends OpenSshSftpServerContractTest {

    @Override
    SftpOptions.Client client() {
        return SftpOptions.Client.SSHJ;
    }
}
