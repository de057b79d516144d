package dev.remotepath.sftp;

/** The whole contract through sshj against ProFTPD's mod_sftp. */
class SshjProftpdContractTest extends ProftpdContractTest {

    @Override
    SftpOptions.Client client() {
        return SftpOptions.Client.SSHJ;
    }
}
