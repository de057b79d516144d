package dev.remotepath.ftp;

import java.util.Set;

/** The contract suite against Apache MINA FtpServer, in-process (FtpServers). */
class MinaFtpContractTest extends FtpContractTest {

    /**
     * Names MINA FtpServer cannot store as sent: it trims a command's argument (a trailing space
     * is lost), reads {@code \} as a separator, and takes {@code ?} and {@code [} as wildcards.
     * Each write fails naming the path, as the contract asks (docs/ftp.md).
     */
    private static final Set<String> NOT_STORED = Set.of("trailing space ", "back\\slash", "question?mark", "brackets[1]");

    @Override
    String server() {
        return "mina";
    }

    @Override
    protected boolean serverCanStore(String name) {
        return !NOT_STORED.contains(name);
    }

    /** MINA's MFMT sets files' times only (it answers 501 for a directory). */
    @Override
    protected boolean serverSetsDirectoryTimes() {
        return false;
    }
}
