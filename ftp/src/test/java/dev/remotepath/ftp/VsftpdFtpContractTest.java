package dev.remotepath.ftp;

/** The contract suite against `vsftpd` (FtpServers). */
class VsftpdFtpContractTest extends FtpContractTest {

    @Override
    String server() {
        return "vsftpd";
    }
}
