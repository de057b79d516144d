package dev.remotepath.ftp;

/** The contract suite against `proftpd` (FtpServers). */
class ProftpdFtpContractTest extends FtpContractTest {

    @Override
    String server() {
        return "proftpd";
    }
}
