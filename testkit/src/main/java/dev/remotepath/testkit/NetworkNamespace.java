package dev.remotepath.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A server program that binds every interface, run inside a network namespace of its own (a
 * loopback and nothing else), its ports reached from the test through Unix-domain sockets in a
 * directory only this user can open: no other machine, and no other user of this one, can
 * connect to it. Each port the program listens on inside is given a port on 127.0.0.1 outside.
 *
 * <p>The namespace comes from {@code unshare -n} (as root) or {@code unshare -rn} (a user
 * namespace, where the kernel allows them). Inside, {@link NamespaceBridge} brings the loopback
 * up, starts the program and opens one socket per port once the program listens there.
 */
public final class NetworkNamespace implements AutoCloseable {

    /** The unshare options that worked here ({@code -n}, else {@code -r -n}), or empty if neither; null until tried. */
    private static List<String> flags;

    private final Process bridge;
    private final OutputStream bridgeStdin;
    private final Path sockets;
    private final Map<Integer, ServerSocketChannel> forwards = new HashMap<>();
    private final List<SocketChannel> open = java.util.Collections.synchronizedList(new ArrayList<>());

    private NetworkNamespace(Process bridge, Path sockets) {
        this.bridge = bridge;
        this.bridgeStdin = bridge.getOutputStream();
        this.sockets = sockets;
    }

    /**
     * Whether this machine can make a network namespace for this user (tried once): as root
     * with {@code unshare -n}, else (no root, or root without CAP_SYS_ADMIN in a container) in
     * a user namespace with {@code unshare -r -n}.
     */
    public static synchronized boolean available() {
        if (flags == null) {
            flags = List.of();
            for (List<String> f : List.of(List.of("-n"), List.of("-r", "-n"))) {
                if (works(f)) {
                    flags = f;
                    break;
                }
            }
        }
        return !flags.isEmpty();
    }

    private static boolean works(List<String> f) {
        List<String> cmd = new ArrayList<>(List.of("unshare"));
        cmd.addAll(f);
        cmd.addAll(List.of("--", "sh", "-c", "ip link set lo up"));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static List<String> unshare(String... command) {
        if (!available()) {
            throw new IllegalStateException("no network namespace can be made here (unshare -n / -r -n)");
        }
        List<String> cmd = new ArrayList<>(List.of("unshare"));
        cmd.addAll(flags);
        cmd.add("--");
        cmd.addAll(List.of(command));
        return cmd;
    }

    /**
     * Starts {@code command} in a new network namespace, its output appended to {@code log}, and
     * waits up to {@code startup} until it listens on every one of {@code ports} (inside).
     */
    public static NetworkNamespace start(List<String> command, List<Integer> ports, Path log, Duration startup)
            throws IOException, InterruptedException {
        Path sockets = Files.createTempDirectory("rp-netns-", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        String java = ProcessHandle.current().info().command().orElse("java");
        String classpath;
        try {
            classpath = Path.of(NamespaceBridge.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
        } catch (java.net.URISyntaxException e) {
            throw new IOException("cannot locate the test kit's classes", e);
        }
        List<String> inner = new ArrayList<>(List.of("sh", "-c", "ip link set lo up && exec \"$@\"", "sh", java,
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx32m", "-cp", classpath,
                NamespaceBridge.class.getName(), sockets.toString(),
                String.join(",", ports.stream().map(String::valueOf).toList()), "--"));
        inner.addAll(command);
        Process p = new ProcessBuilder(unshare(inner.toArray(String[]::new))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        NetworkNamespace ns = new NetworkNamespace(p, sockets);
        try {
            long deadline = System.nanoTime() + startup.toNanos();
            for (int port : ports) {
                Path socket = sockets.resolve(port + ".sock");
                while (!Files.exists(socket)) {
                    if (!p.isAlive() || System.nanoTime() > deadline) {
                        throw new IOException(command.get(0) + " did not listen on port " + port
                                + " inside its network namespace within " + startup + ": " + tail(log));
                    }
                    Thread.sleep(50);
                }
                ns.forward(port, socket);
            }
            return ns;
        } catch (IOException | InterruptedException | RuntimeException e) {
            ns.close();
            throw e;
        }
    }

    private static String tail(Path log) throws IOException {
        String s = Files.exists(log) ? Files.readString(log) : "(no log)";
        return s.length() > 4000 ? "..." + s.substring(s.length() - 4000) : s;
    }

    private void forward(int insidePort, Path socket) throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress("127.0.0.1", 0));
        forwards.put(insidePort, listener);
        Thread.ofVirtual().name("netns-forward-" + insidePort).start(() -> {
            while (listener.isOpen()) {
                SocketChannel client;
                try {
                    client = listener.accept();
                } catch (IOException closed) {
                    return;
                }
                Thread.ofVirtual().start(() -> {
                    try (client; SocketChannel inside = SocketChannel.open(StandardProtocolFamily.UNIX)) {
                        inside.connect(UnixDomainSocketAddress.of(socket));
                        open.add(client);
                        open.add(inside);
                        NamespaceBridge.splice(client, inside);
                    } catch (IOException e) {
                        // the connection fails as the client sees it: closed
                    } finally {
                        open.remove(client);
                    }
                });
            }
        });
    }

    /** The port on 127.0.0.1, outside, that reaches {@code insidePort} of the program. */
    public int localPort(int insidePort) {
        ServerSocketChannel l = forwards.get(insidePort);
        if (l == null) {
            throw new IllegalArgumentException("port " + insidePort + " is not forwarded");
        }
        return ((InetSocketAddress) l.socket().getLocalSocketAddress()).getPort();
    }

    /** Whether the program (and the bridge in front of it) still runs. */
    public boolean isAlive() {
        return bridge.isAlive();
    }

    /** Stops the program and the bridge, closes every forwarded connection, removes the sockets. */
    @Override
    public void close() throws IOException {
        for (ServerSocketChannel l : forwards.values()) {
            l.close();
        }
        synchronized (open) {
            for (SocketChannel c : open) {
                c.close();
            }
        }
        bridgeStdin.close(); // the bridge's signal to stop its program and exit
        try {
            if (!bridge.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                bridge.descendants().forEach(ProcessHandle::destroyForcibly);
                bridge.destroyForcibly();
                bridge.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.list(sockets)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(sockets);
    }
}
