package dev.remotepath.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The system's OpenSSH {@code ssh-agent}, run in the foreground on a socket of its own in a
 * temporary directory (never the user's agent), with keys added by {@code ssh-add}.
 */
public final class SshAgentProcess implements AutoCloseable {

    public final Path socket;
    private final Process process;

    public SshAgentProcess(Path work) throws Exception {
        socket = work.resolve("agent.sock");
        process = new ProcessBuilder("ssh-agent", "-D", "-a", socket.toString())
                .redirectErrorStream(true).redirectOutput(work.resolve("agent.log").toFile()).start();
        long until = System.nanoTime() + 10_000_000_000L;
        while (!Files.exists(socket)) {
            if (!process.isAlive() || System.nanoTime() > until) {
                throw new IOException("ssh-agent did not start: " + Files.readString(work.resolve("agent.log")));
            }
            Thread.sleep(10);
        }
    }

    /** {@code ssh-add} of an unencrypted private key file. */
    public void add(Path key) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of("ssh-add", "-q", key.toString())).redirectErrorStream(true);
        pb.environment().put("SSH_AUTH_SOCK", socket.toString());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("ssh-add " + key + " failed: " + out);
        }
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        process.waitFor();
        Files.deleteIfExists(socket);
    }
}
