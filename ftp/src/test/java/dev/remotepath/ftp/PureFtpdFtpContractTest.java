package dev.remotepath.ftp;

import java.util.Set;

/** The contract suite against Pure-FTPd (FtpServers). */
class PureFtpdFtpContractTest extends FtpContractTest {

    /**
     * Names Pure-FTPd will not store: it refuses {@code \} (553), and would store {@code "a "} as
     * {@code "a_"}, which the backend refuses before sending (docs/ftp.md).
     */
    private static final Set<String> NOT_STORED = Set.of("trailing space ", "back\\slash");

    @Override
    String server() {
        return "pure-ftpd";
    }

    @Override
    protected boolean serverCanStore(String name) {
        return !NOT_STORED.contains(name);
    }
}
