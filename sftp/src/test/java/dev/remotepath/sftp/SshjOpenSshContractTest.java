package dev.remotepath.sftp;

/** The whole contract through sshj against the system's OpenSSH sshd. */
class SshjOpenSshContractTest extends OpenSshContractTest {

    @Override
    SftpOptions.Client client() {
        return SftpOptions.Client.SSHJ;
    }
}
