package dev.remotepath.ftp;

/** The PathSyncer pairs against `proftpd` (FtpServers). */
class ProftpdFtpSyncPairTest extends FtpSyncPairTest {

    @Override
    String server() {
        return "proftpd";
    }
}
