package dev.remotepath.sftp;

/** The whole contract over SFTP through sshj, against the in-process MINA SSHD server (handles counted). */
class SshjMinaServerContractTest extends MinaServerContractTest {

    @Override
    SftpOptions.Client client() {
        return SftpOptions.Client.SSHJ;
    }
}
