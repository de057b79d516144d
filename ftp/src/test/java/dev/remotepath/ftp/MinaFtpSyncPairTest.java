package dev.remotepath.ftp;

/** The PathSyncer pairs against Apache MINA FtpServer, in-process (FtpServers). */
class MinaFtpSyncPairTest extends FtpSyncPairTest {

    @Override
    String server() {
        return "mina";
    }

    /** MINA's MFMT sets files' times only (it answers 501 for a directory). */
    @Override
    protected boolean serversSetDirectoryTimes() {
        return false;
    }
}
