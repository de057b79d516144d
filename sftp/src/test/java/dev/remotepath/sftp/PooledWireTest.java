package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The connection pool under failures: a request that fails on one connection closes that one
 * only (streams on the others go on), a server that refused an extra connection is asked
 * again later, and an extra connection opens in the background, never holding up a request. Connections here are stand-ins that fail on command.
 */
class PooledWireTest {

    /** A connection that answers stat with attributes, or fails without an answer when broken. */
    static final class Fake {
        final String name;
        volatile boolean alive = true;
        volatile boolean broken;
        final AtomicInteger stats = new AtomicInteger();

        Fake(String name) {
            this.name = name;
        }

        SftpWire wire() {
            return (SftpWire) Proxy.newProxyInstance(SftpWire.class.getClassLoader(), new Class<?>[] {SftpWire.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "alive" -> alive;
                        case "closeQuietly" -> {
                            alive = false;
                            yield null;
                        }
                        case "client" -> "fake";
                        case "hasPosixRename", "hasCheckFile", "hasCopyData" -> false;
                        case "stat" -> {
                            stats.incrementAndGet();
                            if (broken || !alive) {
                                throw new IOException(name + ": connection reset");
                            }
                            yield new SftpWire.Attributes(SftpWire.Attributes.Kind.FILE, 1, 0, 0, 0644);
                        }
                        case "read" -> new ByteArrayInputStream((name + " bytes").getBytes());
                        case "toString" -> name;
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    /** A connector whose handshake lasts until {@code handshake} is counted down, then brings {@code next}. */
    static PooledWire.Connector afterHandshake(CountDownLatch handshake, Fake next) {
        return () -> {
            try {
                handshake.await();
            } catch (InterruptedException e) {
                throw new java.io.InterruptedIOException();
            }
            return next.wire();
        };
    }

    /** Waits for the pool's background connect to end, as the next request would find it. */
    static void settled(PooledWire pool) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (pool.opening()) {
            assertThat(System.nanoTime() - deadline).as("the background connect ended").isNegative();
            Thread.sleep(5);
        }
    }

    @Test
    void aRequestFailingOnOneConnectionClosesThatOneOnly() throws Exception {
        Fake a = new Fake("a");
        Deque<Fake> more = new ArrayDeque<>();
        Fake b = new Fake("b");
        more.add(b);
        PooledWire pool = new PooledWire(a.wire(), 2, () -> more.isEmpty() ? new Fake("c").wire() : more.pop().wire());
        InputStream onA = pool.read("/x", 0);    // slot 0, idle: a
        InputStream alsoOnA = pool.read("/y", 0); // a busy: b opens in the background, this shares a
        settled(pool);
        InputStream onB = pool.read("/z", 0);    // slot 1 now open and idle: b
        b.broken = true;
        assertThatThrownBy(() -> pool.stat("/f")).isInstanceOf(IOException.class).hasMessageContaining("b:");
        assertThat(b.alive).as("the failed connection is closed").isFalse();
        assertThat(a.alive).as("the healthy one is not").isTrue();
        assertThat(new String(onA.readAllBytes())).isEqualTo("a bytes");
        assertThat(new String(alsoOnA.readAllBytes())).isEqualTo("a bytes");
        assertThat(new String(onB.readAllBytes())).isEqualTo("b bytes");
        // The next request goes to the live connection.
        assertThat(pool.stat("/f").kind()).isEqualTo(SftpWire.Attributes.Kind.FILE);
        assertThat(pool.alive()).isTrue();
        onA.close();
        onB.close();
        alsoOnA.close();
    }

    @Test
    void theRequestThatAsksForAnExtraConnectionDoesNotWaitForIt() throws Exception {
        Fake a = new Fake("a");
        Fake b = new Fake("b");
        CountDownLatch handshake = new CountDownLatch(1);
        PooledWire pool = new PooledWire(a.wire(), 2, afterHandshake(handshake, b));
        InputStream onA = pool.read("/x", 0);
        // While the second connection's handshake hangs, requests go on on the first.
        InputStream shared = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> pool.read("/y", 0));
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(5), () -> pool.stat("/f")).kind())
                .isEqualTo(SftpWire.Attributes.Kind.FILE);
        assertThat(a.stats.get()).isEqualTo(1);
        assertThat(pool.opening()).isTrue();
        handshake.countDown();
        settled(pool);
        assertThat(pool.stat("/g").kind()).isEqualTo(SftpWire.Attributes.Kind.FILE);
        assertThat(b.stats.get()).as("the idle new connection takes the next request").isEqualTo(1);
        assertThat(new String(shared.readAllBytes())).isEqualTo("a bytes");
        onA.close();
        shared.close();
    }

    @Test
    void aConnectionThatArrivesAfterTheCloseIsClosed() throws Exception {
        Fake a = new Fake("a");
        Fake late = new Fake("late");
        CountDownLatch handshake = new CountDownLatch(1);
        PooledWire pool = new PooledWire(a.wire(), 2, afterHandshake(handshake, late));
        InputStream onA = pool.read("/x", 0);
        pool.read("/y", 0).close(); // starts the background connect
        pool.closeQuietly();
        assertThat(a.alive).isFalse();
        handshake.countDown();
        settled(pool);
        assertThat(late.alive).as("closed as it arrived").isFalse();
        onA.close();
    }

    @Test
    void aServerThatRefusedAnExtraConnectionIsAskedAgainLater() throws Exception {
        Fake a = new Fake("a");
        AtomicInteger attempts = new AtomicInteger();
        PooledWire pool = new PooledWire(a.wire(), 2, () -> {
            if (attempts.incrementAndGet() == 1) {
                throw new IOException("too many sessions");
            }
            return new Fake("b").wire();
        }, Duration.ofMillis(200));
        InputStream first = pool.read("/x", 0);
        InputStream second = pool.read("/y", 0); // the extra one is refused: shares a
        settled(pool);
        assertThat(attempts.get()).isEqualTo(1);
        InputStream third = pool.read("/z", 0);
        settled(pool);
        assertThat(attempts.get()).as("not asked again at once").isEqualTo(1);
        Thread.sleep(300);
        InputStream fourth = pool.read("/w", 0);
        settled(pool);
        assertThat(attempts.get()).as("asked again after the pause").isEqualTo(2);
        InputStream fifth = pool.read("/v", 0);
        assertThat(new String(fifth.readAllBytes())).isEqualTo("b bytes");
        for (InputStream in : new InputStream[] {first, second, third, fourth, fifth}) {
            in.close();
        }
    }

    @Test
    void whenEveryConnectionIsDeadTheFirstIsOpenedAgain() throws IOException {
        Fake a = new Fake("a");
        AtomicInteger opened = new AtomicInteger();
        PooledWire pool = new PooledWire(a.wire(), 1, () -> {
            opened.incrementAndGet();
            return new Fake("fresh").wire();
        });
        a.alive = false;
        assertThat(pool.stat("/f").kind()).isEqualTo(SftpWire.Attributes.Kind.FILE);
        assertThat(opened.get()).isEqualTo(1);
        assertThat(pool.alive()).isTrue();
    }

    /**
     * The server killed: the dead first connection is closed, its reopening refused, and the
     * slot left empty. The pool then answers its questions (not alive, the server's extensions)
     * and the next request fails with the connect's IOException, never a NullPointerException
     * (OpenSshKilledServerTest met that race once in CI).
     */
    @Test
    void aPoolWhoseReconnectFailedAnswersWithoutItsConnection() {
        Fake a = new Fake("a");
        PooledWire pool = new PooledWire(a.wire(), 2, () -> {
            throw new java.net.ConnectException("a: connection refused");
        });
        a.alive = false;
        assertThatThrownBy(() -> pool.stat("/f")).isInstanceOf(IOException.class).hasMessageContaining("refused");
        assertThat(pool.alive()).isFalse();
        assertThat(pool.hasPosixRename()).isFalse();
        assertThat(pool.client()).isEqualTo("fake");
        assertThatThrownBy(() -> pool.stat("/f")).isInstanceOf(IOException.class).hasMessageContaining("refused");
    }
}
