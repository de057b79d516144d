package dev.remotepath.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What every server program a test starts needs: a free port, keys, a wait until it listens. */
public final class ServerProcesses {

    private ServerProcesses() {
    }

    /** A free loopback port (the program binds it a moment later). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** {@code ssh-keygen} of an ECDSA key without passphrase; {@code pem} for servers that read only PEM. */
    public static void keygen(Path file, boolean pem) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ssh-keygen", "-q", "-t", "ecdsa", "-b", "256", "-N", "", "-f",
                file.toString()));
        if (pem) {
            cmd.addAll(List.of("-m", "PEM"));
        }
        run(cmd);
    }

    /** Runs a short command, failing with its output unless it exits 0; returns its output. */
    public static String run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(cmd.get(0) + " failed: " + out);
        }
        return out;
    }

    /** Waits up to 15 s until {@code process} accepts connections on 127.0.0.1:{@code port}, or fails with its log. */
    public static void awaitListening(Process process, int port, Path log, String what) throws Exception {
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
