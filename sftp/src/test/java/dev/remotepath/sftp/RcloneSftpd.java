package dev.remotepath.sftp;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * rclone's {@code serve sftp} (its own SSH server, Go's x/crypto/ssh) over a local directory:
 * key login, the directory cache off so that files the tests make on the disk show at once.
 * It serves {@code root} as "/", so {@link #uri} maps local paths below it.
 */
final class RcloneSftpd implements RealSftpServer {

    static final Path RCLONE = Path.of("/usr/bin/rclone");

    private final Path root;
    private final int port;
    private final Path clientKey;
    private final Path knownHosts;
    private final Process process;

    RcloneSftpd(Path work, Path root) throws Exception {
        this.root = root;
        Path hostKey = work.resolve("host_ecdsa");
        clientKey = work.resolve("client_ecdsa");
        dev.remotepath.testkit.ServerProcesses.keygen(hostKey, true);
        dev.remotepath.testkit.ServerProcesses.keygen(clientKey, false);
        port = dev.remotepath.testkit.ServerProcesses.freePort();
        knownHosts = RealSftpServer.knownHosts(work, port, hostKey);
        Path log = work.resolve("rclone.log");
        process = new ProcessBuilder(List.of(RCLONE.toString(), "serve", "sftp", root.toString(),
                "--addr", "127.0.0.1:" + port, "--key", hostKey.toString(),
                "--authorized-keys", clientKey + ".pub", "--dir-cache-time", "0s", "--poll-interval", "0",
                "--config", work.resolve("rclone.conf").toString(), "--log-level", "ERROR"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        dev.remotepath.testkit.ServerProcesses.awaitListening(process, port, log, "rclone serve sftp");
    }

    @Override
    public URI uri(Path absolute) {
        String below = root.relativize(absolute).toString();
        return URI.create("sftp://tester@127.0.0.1:" + port + dev.remotepath.UriPaths.encodePath("/" + below));
    }

    @Override
    public SftpOptions.Builder optionsBuilder(SftpOptions.Client client) {
        return SftpOptions.builder().identityFiles(List.of(clientKey)).knownHosts(knownHosts).client(client);
    }

    @Override
    public String name() {
        return "rclone serve sftp";
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        process.waitFor();
    }
}
