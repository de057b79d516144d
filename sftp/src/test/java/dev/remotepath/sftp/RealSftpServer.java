package dev.remotepath.sftp;

import dev.remotepath.testkit.OpenSshd;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** The known_hosts line for a server on 127.0.0.1:{@code port} with the host key {@code hostKey}. */
    static Path knownHosts(Path work, int port, Path hostKey) throws IOException {
        Path file = work.resolve("known_hosts");
        String pub = Files.readString(Path.of(hostKey + ".pub")).trim();
        Files.writeString(file, "[127.0.0.1]:" + port + " " + pub + "\n");
        return file;
    }

}
