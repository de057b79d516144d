package dev.remotepath.cli;

/**
 * Start-up work a command will need, begun on a second core while the first parses the command
 * line, reads ~/.ssh/config and known_hosts: for an SFTP URI, the SSH library's security set-up
 * (BouncyCastle's provider registers some thousand algorithms: ~0.1-0.2 s in a fresh JVM, all
 * of it before the TCP connection opened). Nothing here is observable but the time it saves: a
 * failure is left for the command to meet, and report, itself.
 */
final class Prewarm {

    private Prewarm() {
    }

    static void forArguments(String[] args) {
        for (String a : args) {
            if (a.startsWith("sftp://")) {
                Thread.ofPlatform().daemon().name("rpath-prewarm").start(Prewarm::ssh);
                return;
            }
        }
    }

    private static void ssh() {
        try {
            org.apache.sshd.common.util.security.SecurityUtils.isBouncyCastleRegistered();
            org.apache.sshd.client.SshClient.setUpDefaultClient();
        } catch (RuntimeException | LinkageError e) {
            // the command meets it again, and reports it
        }
    }
}
