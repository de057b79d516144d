package dev.remotepath.testkit;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The system's OpenSSH sshd, started on a free 127.0.0.1 port with its own configuration, host
 * key, client key and authorized_keys in a temporary directory (nothing under /etc/ssh is
 * touched), serving SFTP with internal-sftp. Keys are ECDSA, which the JDK handles without
 * extra providers. Used by the SFTP tests and the sftp benchmark suite.
 */
public final class OpenSshd implements AutoCloseable {

    public static final Path SSHD = Path.of("/usr/sbin/sshd");

    public final Path work;
    public final Path clientKey;
    public final Path knownHosts;
    /** The authorized_keys file, read at every login: a test may append keys while sshd runs. */
    public final Path authorizedKeys;
    public final int port;
    public final String user = System.getProperty("user.name");
    private final Process process;

    /** Starts sshd with keys and configuration under {@code work}; returns once it accepts connections. */
    public OpenSshd(Path work) throws Exception {
        this(work, "internal-sftp");
    }

    /**
     * As {@link #OpenSshd(Path)}, serving SFTP with {@code subsystem}: {@code internal-sftp},
     * OpenSSH's external {@code /usr/lib/openssh/sftp-server}, or another server's binary
     * (gesftpserver) run as OpenSSH's subsystem.
     */
    public OpenSshd(Path work, String subsystem) throws Exception {
        this(work, subsystem, "");
    }

    /**
     * As {@link #OpenSshd(Path, String)}, with {@code leadingConfig} placed first in
     * sshd_config (sshd takes a keyword's first value: {@code LogLevel DEBUG1} there wins over
     * the default's ERROR).
     */
    public OpenSshd(Path work, String subsystem, String leadingConfig) throws Exception {
        this.work = work;
        Path hostKey = work.resolve("host_ecdsa");
        clientKey = work.resolve("client_ecdsa");
        ServerProcesses.keygen(hostKey, false);
        ServerProcesses.keygen(clientKey, false);
        Path authorized = work.resolve("authorized_keys");
        authorizedKeys = authorized;
        Files.copy(work.resolve("client_ecdsa.pub"), authorized);
        // sshd reads authorized_keys as the user logging in: an unprivileged login (uriAs) must reach it.
        Files.setPosixFilePermissions(work, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(authorized, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        port = ServerProcesses.freePort();
        Path config = work.resolve("sshd_config");
        Files.writeString(config, leadingConfig + (leadingConfig.isEmpty() || leadingConfig.endsWith("\n") ? "" : "\n") + """
                Port %d
                ListenAddress 127.0.0.1
                HostKey %s
                PidFile %s
                AuthorizedKeysFile %s
                StrictModes no
                UsePAM no
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PubkeyAuthentication yes
                PermitRootLogin prohibit-password
                Subsystem sftp %s
                LogLevel ERROR
                """.formatted(port, hostKey, work.resolve("sshd.pid"), authorized, subsystem));
        Files.createDirectories(Path.of("/run/sshd")); // sshd refuses to start without it
        knownHosts = work.resolve("known_hosts");
        Files.writeString(knownHosts, "[127.0.0.1]:" + port + " " + Files.readString(work.resolve("host_ecdsa.pub")));
        process = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(work.resolve("sshd.log").toFile()).start();
        ServerProcesses.awaitListening(process, port, work.resolve("sshd.log"), "sshd");
    }

    /** The sftp URI of an absolute path on this server, as its login user. */
    public URI uri(Path absolute) {
        return uriAs(user, absolute);
    }

    /**
     * The sftp URI of an absolute path as {@code login}, another account of this machine that
     * takes the same client key ({@code nobody}, say: with internal-sftp no shell is run, so
     * its {@code nologin} shell does not matter).
     */
    public URI uriAs(String login, Path absolute) {
        return URI.create("sftp://" + login + "@127.0.0.1:" + port + dev.remotepath.UriPaths.encodePath(absolute.toString()));
    }

    /** sshd's own log (its stderr), e.g. for what a hop forwarded at {@code LogLevel DEBUG1}. */
    public String log() throws IOException {
        return Files.readString(work.resolve("sshd.log"));
    }

    /** SIGKILL to sshd and every session process it forked: the server dies mid-conversation. */
    public void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGSTOP (or SIGCONT) to sshd and every session process: a server that stops answering, connections open. */
    public void pause(boolean paused) throws Exception {
        if (paused) {
            // The listener first: once it is stopped it forks no session, so the sessions listed
            // next are all there are (listed first, one forked meanwhile escaped the pause, and a
            // client's retries went on through it).
            signal("-STOP", List.of(process.pid()));
            signal("-STOP", process.descendants().map(ProcessHandle::pid).toList());
        } else {
            java.util.List<Long> all = new java.util.ArrayList<>(process.descendants().map(ProcessHandle::pid).toList());
            all.add(process.pid());
            signal("-CONT", all);
        }
    }

    private static void signal(String signal, List<Long> pids) throws Exception {
        if (pids.isEmpty()) {
            return;
        }
        java.util.List<String> cmd = new java.util.ArrayList<>(List.of("kill", signal));
        pids.forEach(p -> cmd.add(Long.toString(p)));
        // Resuming, a session process may have ended meanwhile: kill still signals the others.
        if (new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start().waitFor() != 0 && signal.equals("-STOP")) {
            throw new IOException("kill " + cmd + " failed");
        }
    }

    @Override
    public void close() throws Exception {
        try {
            pause(false); // a stopped sshd would not see SIGTERM
        } catch (IOException someAlreadyGone) {
            // session processes that ended since: nothing to resume
        }
        process.destroy();
        process.waitFor();
    }
}
