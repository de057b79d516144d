package dev.remotepath.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay on 127.0.0.1 in front of a test server that can drop its connections on cue:
 * after a number of bytes sent upstream (a request body) or downstream (a response body),
 * the connection carrying them is reset, as a network failure would. Later connections work.
 */
final class CuttingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int upstreamPort;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    /** Bytes left before the next cut in each direction; negative: never. */
    private final AtomicLong upBudget = new AtomicLong(-1);
    private final AtomicLong downBudget = new AtomicLong(-1);
    final AtomicLong cuts = new AtomicLong();
    /** While set, nothing is forwarded and new connections are accepted but never answered: a paused store. */
    private volatile boolean stalled;

    CuttingProxy(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Resets the connection that carries the request byte after the next {@code bytes} ones. */
    void cutRequestAfter(long bytes) {
        upBudget.set(bytes);
    }

    /** Resets the connection that carries the response byte after the next {@code bytes} ones. */
    void cutResponseAfter(long bytes) {
        downBudget.set(bytes);
    }

    /** Stops (or resumes) forwarding: connections stay open and go silent, as with a store under SIGSTOP. */
    void stall(boolean on) {
        stalled = on;
    }

    /** No cut pending. */
    void disarm() {
        upBudget.set(-1);
        downBudget.set(-1);
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), upstreamPort));
                open.add(client);
                open.add(server);
                Thread.ofVirtual().start(() -> pump(client, server, upBudget));
                Thread.ofVirtual().start(() -> pump(server, client, downBudget));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, AtomicLong budget) {
        byte[] buf = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                while (stalled && !from.isClosed()) {
                    Thread.sleep(20);
                }
                // Taken from the budget in one step: two connections sending at once (a multipart
                // upload's parts) each read the same budget and, both subtracting, drove it below
                // zero, which means "never": the cut a test armed did not come.
                long left;
                while ((left = budget.get()) >= 0 && !budget.compareAndSet(left, n > left ? -1 : left - n)) {
                    Thread.onSpinWait();
                }
                if (left >= 0 && n > left) {
                    out.write(buf, 0, (int) left);
                    out.flush();
                    cuts.incrementAndGet();
                    reset(from);
                    reset(to);
                    return;
                }
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the other direction closed or was cut
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close(from);
            close(to);
        }
    }

    private static void reset(Socket s) {
        try {
            s.setSoLinger(true, 0); // RST, not FIN: a broken connection, not a finished one
            s.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : open) {
            close(s);
        }
    }
}
