package dev.remotepath.ftp;

/** The PathSyncer pairs against `pure-ftpd` (FtpServers). */
class PureFtpdFtpSyncPairTest extends FtpSyncPairTest {

    @Override
    String server() {
        return "pure-ftpd";
    }
}
