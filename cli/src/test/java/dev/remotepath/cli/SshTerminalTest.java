package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.testkit.OpenSshd;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rpath} at a terminal (a real pseudo-terminal, under {@code script}) against OpenSSH:
 * with a key that works, nothing is asked, with either client (MINA asked for a password
 * before trying any key).
 */
class SshTerminalTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"mina", "sshj"})
    void aWorkingKeyLogsInWithoutAnyPrompt(String client) throws Exception {
        boolean installed = Files.isExecutable(OpenSshd.SSHD);
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("OpenSSH's sshd is not installed; .ci/run installs openssh-server");
        }
        assumeTrue(installed, "sshd is not installed");
        Path served = Files.createDirectories(temp.resolve("served"));
        Files.writeString(served.resolve("hello.txt"), "hi");
        try (OpenSshd sshd = new OpenSshd(Files.createDirectories(temp.resolve("sshd")))) {
            // As users have it: the key named by ~/.ssh/config, known_hosts in ~/.ssh.
            Path home = Files.createDirectories(temp.resolve("home/.ssh")).getParent();
            Files.writeString(home.resolve(".ssh/config"), """
                    Host files
                      HostName 127.0.0.1
                      Port %d
                      IdentityFile %s
                    """.formatted(sshd.port, sshd.clientKey));
            Files.copy(sshd.knownHosts, home.resolve(".ssh/known_hosts"));
            StringBuilder cmd = new StringBuilder();
            for (String a : List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Duser.home=" + home, "-cp", System.getProperty("java.class.path"), Rpath.class.getName(),
                    "--sftp-client", client, "ls", "sftp://files" + dev.remotepath.UriPaths.encodePath(served.toString()))) {
                cmd.append("'").append(a.replace("'", "'\\''")).append("' ");
            }
            Path screen = temp.resolve("screen-" + client);
            ProcessBuilder pb = new ProcessBuilder("script", "-qfec", cmd.toString(), "/dev/null")
                    .redirectOutput(screen.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT);
            pb.environment().remove("SSH_AUTH_SOCK");
            pb.environment().remove("RPATH_SFTP_PASSWORD");
            Process p = pb.start();
            // A prompt would wait for input; none is given, so a prompt shows as a timeout here.
            assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            String out = Files.readString(screen, StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out).contains("hello.txt").doesNotContainIgnoringCase("password").doesNotContain("passphrase");

            // A key the server refuses, and a server that takes no password (OpenSSH here): no
            // prompt either, but one clear line saying what was offered, exit 1.
            Path stranger = temp.resolve("stranger_" + client);
            dev.remotepath.testkit.ServerProcesses.keygen(stranger, false);
            Files.writeString(home.resolve(".ssh/config"), """
                    Host files
                      HostName 127.0.0.1
                      Port %d
                      IdentityFile %s
                    """.formatted(sshd.port, stranger));
            Path refusedScreen = temp.resolve("refused-" + client);
            ProcessBuilder refused = new ProcessBuilder("script", "-qfec", cmd.toString(), "/dev/null")
                    .redirectOutput(refusedScreen.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT);
            refused.environment().remove("SSH_AUTH_SOCK");
            refused.environment().remove("RPATH_SFTP_PASSWORD");
            Process q = refused.start();
            assertThat(q.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            String said = Files.readString(refusedScreen, StandardCharsets.UTF_8);
            assertThat(q.exitValue()).as(said).isEqualTo(1);
            assertThat(said).doesNotContain("SFTP password:").contains("authentication failed for user",
                    "offered: keys [" + stranger + "]").doesNotContain("Exception");
        }
    }
}
