package dev.remotepath.sftp;

/** The whole contract through sshj against gesftpserver. */
class SshjGesftpserverContractTest extends GesftpserverContractTest {

    @Override
    SftpOptions.Client client() {
        return SftpOptions.Client.SSHJ;
    }
}
