package dev.remotepath.sftp;

import dev.remotepath.testkit.OpenSshd;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * An SFTP server program the tests start on 127.0.0.1 (a free port) with keys of their own
 * under a work directory, serving the local disk: OpenSSH (and the servers it runs as its
 * subsystem), ProFTPD's mod_sftp, rclone's {@code serve sftp}. Tests name files by their local
 * absolute path; {@link #uri} says where the server shows that path.
 */
interface RealSftpServer extends AutoCloseable {

    /** The sftp URI of a local absolute path, as this server shows it. */
    URI uri(Path absolute);

    /** Key login with this server's own known_hosts, through {@code client}. */
    SftpOptions.Builder optionsBuilder(SftpOptions.Client client);

    /** {@link #optionsBuilder}, built. */
    default SftpOptions options(SftpOptions.Client client) {
        return optionsBuilder(client).build();
    }

    /** The server's name as the docs' compatibility matrix gives it. */
    String name();

    /**
     * The URI of a local path as a login with uid 65534 (nobody), which has no rights to what
     * the tests make; empty where the server has no such login.
     */
    default java.util.Optional<URI> unprivilegedUri(Path absolute) {
        return java.util.Optional.empty();
    }

    /** OpenSSH's sshd serving SFTP with {@code subsystem} (internal-sftp or a server's binary). */
    static RealSftpServer openSsh(Path work, String subsystem) throws Exception {
        OpenSshd sshd = new OpenSshd(work, subsystem);
        return new RealSftpServer() {
            @Override
            public URI uri(Path absolute) {
                return sshd.uri(absolute);
            }

            @Override
            public SftpOptions.Builder optionsBuilder(SftpOptions.Client client) {
                return SftpOptions.builder().identityFiles(List.of(sshd.clientKey)).knownHosts(sshd.knownHosts)
                        .client(client);
            }

            @Override
            public String name() {
                return "OpenSSH/" + subsystem;
            }

            /** internal-sftp only: an external subsystem runs through the login's shell, nobody's is nologin. */
            @Override
            public java.util.Optional<URI> unprivilegedUri(Path absolute) {
                return subsystem.equals("internal-sftp") && "root".equals(System.getProperty("user.name"))
                        ? java.util.Optional.of(sshd.uriAs("nobody", absolute)) : java.util.Optional.empty();
            }

            @Override
            public void close() throws Exception {
                sshd.close();
            }
        };
    }

    /** A free loopback port (the program binds it a moment later). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** {@code ssh-keygen} of an ECDSA key without passphrase; {@code pem} for servers that read only PEM. */
    static void keygen(Path file, boolean pem) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("ssh-keygen", "-q", "-t", "ecdsa", "-b", "256", "-N", "",
                "-f", file.toString()));
        if (pem) {
            cmd.addAll(List.of("-m", "PEM"));
        }
        run(cmd);
    }

    /** Runs a short command, failing with its output unless it exits 0; returns its output. */
    static String run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(cmd.get(0) + " failed: " + out);
        }
        return out;
    }

    /** The known_hosts line for a server on 127.0.0.1:{@code port} with the host key {@code hostKey}. */
    static Path knownHosts(Path work, int port, Path hostKey) throws IOException {
        Path file = work.resolve("known_hosts");
        String pub = Files.readString(Path.of(hostKey + ".pub")).trim();
        Files.writeString(file, "[127.0.0.1]:" + port + " " + pub + "\n");
        return file;
    }

    /** Waits until {@code process} accepts connections on {@code port}, or fails with its log. */
    static void awaitListening(Process process, int port, Path log, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (!process.isAlive()) {
                    break;
                }
                Thread.sleep(100);
            }
        }
        process.destroyForcibly();
        throw new IOException(what + " did not start: " + (Files.exists(log) ? Files.readString(log) : "(no log)"));
    }
}
