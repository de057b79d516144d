package dev.remotepath.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The process {@link NetworkNamespace} runs inside the namespace: starts the server program,
 * and for each port opens {@code <dir>/<port>.sock} once the program accepts connections on
 * 127.0.0.1:port, splicing every connection to that socket through to the port. It stops the
 * program and exits when its standard input ends (the test closed it, or died), and exits with
 * the program's status when the program ends.
 *
 * <p>Arguments: {@code <socket dir> <port,port...> -- <command...>}.
 */
public final class NamespaceBridge {

    private NamespaceBridge() {
    }

    public static void main(String[] args) throws Exception {
        int dash = Arrays.asList(args).indexOf("--");
        if (args.length < 4 || dash != 2) {
            System.err.println("usage: NamespaceBridge <socket dir> <port,port...> -- <command...>");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        List<Integer> ports = Arrays.stream(args[1].split(",")).map(Integer::parseInt).toList();
        Process program = new ProcessBuilder(Arrays.copyOfRange(args, 3, args.length)).inheritIO()
                .redirectInput(ProcessBuilder.Redirect.PIPE).start();
        Runnable stop = () -> {
            program.descendants().forEach(ProcessHandle::destroy);
            program.destroy();
            try {
                if (!program.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                    program.descendants().forEach(ProcessHandle::destroyForcibly);
                    program.destroyForcibly();
                }
            } catch (InterruptedException e) {
                program.destroyForcibly();
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop));
        Thread.ofPlatform().daemon().start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the test never writes; only the end matters
                }
            } catch (IOException ignored) {
                // treated as the end
            }
            System.exit(0); // the shutdown hook stops the program
        });
        for (int port : ports) {
            Thread.ofPlatform().daemon().start(() -> serve(dir, port, program));
        }
        System.exit(program.waitFor());
    }

    private static void serve(Path dir, int port, Process program) {
        InetSocketAddress target = new InetSocketAddress("127.0.0.1", port);
        try {
            while (program.isAlive()) { // until the program listens
                try (SocketChannel probe = SocketChannel.open(target)) {
                    break;
                } catch (IOException notYet) {
                    Thread.sleep(50);
                }
            }
            Path socket = dir.resolve(port + ".sock");
            Path pending = dir.resolve(port + ".sock.tmp");
            ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            listener.bind(UnixDomainSocketAddress.of(pending));
            Files.move(pending, socket); // appears only when it accepts
            while (true) {
                SocketChannel outside = listener.accept();
                Thread.ofVirtual().start(() -> {
                    try (outside; SocketChannel inside = SocketChannel.open(target)) {
                        splice(outside, inside);
                    } catch (IOException e) {
                        // the connection ends as its client sees it: closed
                    }
                });
            }
        } catch (IOException | InterruptedException e) {
            System.err.println("NamespaceBridge: port " + port + ": " + e);
        }
    }

    /** Copies both ways until both directions have ended, passing each end on as a half-close. */
    static void splice(SocketChannel a, SocketChannel b) throws IOException {
        Thread back = Thread.ofVirtual().start(() -> pump(b, a));
        pump(a, b);
        try {
            back.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void pump(SocketChannel from, SocketChannel to) {
        ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
        try {
            while (from.read(buf) >= 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    to.write(buf);
                }
                buf.clear();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // already failing
            }
        }
    }
}
