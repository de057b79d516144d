package dev.remotepath.cli;

/**
 * Start-up work a command will need, begun on a second core while the first parses the command
 * line, reads ~/.ssh/config and known_hosts: for an SFTP URI, the chosen SSH library's security
 * set-up (BouncyCastle's provider registers some thousand algorithms: ~0.1-0.2 s in a fresh JVM,
 * all of it before the TCP connection opened; sshj then tries each of its ciphers once). Nothing
 * here is observable but the time it saves: a failure is left for the command to meet, and
 * report, itself.
 */
final class Prewarm {

    private static final String CLIENT_FLAG = "--sftp-client";

    private Prewarm() {
    }

    /** What a command line's start-up needs warmed. */
    enum Work {
        NONE, MINA, SSHJ
    }

    static void forArguments(String[] args) {
        switch (workFor(args)) {
            case MINA -> Thread.ofPlatform().daemon().name("rpath-prewarm").start(Prewarm::mina);
            case SSHJ -> Thread.ofPlatform().daemon().name("rpath-prewarm").start(Prewarm::sshj);
            case NONE -> {
            }
        }
    }

    /** The SSH library a command line's SFTP URIs will be reached with, if it names any. */
    static Work workFor(String[] args) {
        boolean sftp = false;
        boolean sshj = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            sftp |= a.startsWith("sftp://");
            // the flag's last value wins, as the command line parser has it
            if (a.equals(CLIENT_FLAG) && i + 1 < args.length) {
                sshj = args[i + 1].equals("sshj");
            } else if (a.startsWith(CLIENT_FLAG + "=")) {
                sshj = a.equals(CLIENT_FLAG + "=sshj");
            }
        }
        return !sftp ? Work.NONE : sshj ? Work.SSHJ : Work.MINA;
    }

    private static void mina() {
        try {
            org.apache.sshd.common.util.security.SecurityUtils.isBouncyCastleRegistered();
            org.apache.sshd.client.SshClient.setUpDefaultClient();
        } catch (RuntimeException | LinkageError e) {
            // the command meets it again, and reports it
        }
    }

    private static void sshj() {
        try {
            new net.schmizz.sshj.DefaultConfig();
        } catch (RuntimeException | LinkageError e) {
            // the command meets it again, and reports it
        }
    }
}
