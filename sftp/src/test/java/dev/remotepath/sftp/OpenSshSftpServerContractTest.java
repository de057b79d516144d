package dev.remotepath.sftp;

/** The whole contract (MINA client) against OpenSSH's external {@code sftp-server}, run as its subsystem. */
class OpenSshSftpServerContractTest extends OpenSshContractTest {

    @Override
    String subsystem() {
        return "/usr/lib/openssh/sftp-server";
    }
}
