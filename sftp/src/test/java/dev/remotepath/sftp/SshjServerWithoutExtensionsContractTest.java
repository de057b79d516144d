package dev.remotepath.sftp;

/** The contract through sshj against a server with no OpenSSH extensions and no check-file. */
class SshjServerWithoutExtensionsContractTest extends ServerWithoutExtensionsContractTest {

    @Override
    SftpOptions.Client client() {
        return SftpOptions.Client.SSHJ;
    }
}
