package dev.remotepath.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A body that trickles is cut off; one read slowly by its consumer is not. */
class TrickleGuardTest {

    private static final long MS = 1_000_000;

    @Test
    void aWindowOfWaitingThatBroughtTooFewBytesFails() throws IOException {
        TrickleGuard guard = new TrickleGuard("sftp://h/f", 1024, Duration.ofSeconds(1), "the option");
        guard.read(System.nanoTime() - 600 * MS, 10); // 600 ms waited for 10 bytes: the window is not over
        assertThatThrownBy(() -> guard.read(System.nanoTime() - 600 * MS, 10))
                .isInstanceOf(SocketTimeoutException.class).hasMessageStartingWith("sftp://h/f: the body trickles")
                .hasMessageContaining("20 bytes in 1 s of waiting, below 1024 B/s; the option");
    }

    @Test
    void aBodyAboveTheRateStartsEachWindowAfresh() throws IOException {
        TrickleGuard guard = new TrickleGuard("s3://b/k", 1024, Duration.ofSeconds(1), "the option");
        for (int i = 0; i < 10; i++) {
            guard.read(System.nanoTime() - 1100 * MS, 2000); // 2,000 bytes a window: fine, window after window
        }
        guard.read(System.nanoTime() - 500 * MS, 0);
        assertThatThrownBy(() -> guard.read(System.nanoTime() - 600 * MS, 100))
                .as("a slow window after fast ones is judged alone").isInstanceOf(SocketTimeoutException.class);
    }

    @Test
    void timeTheConsumerTakesBetweenReadsIsNotTheServers() throws Exception {
        TrickleGuard guard = new TrickleGuard("ftp://h/f", 1024, Duration.ofMillis(50), "the option");
        for (int i = 0; i < 5; i++) {
            long started = System.nanoTime();
            guard.read(started, 1); // answered at once
            Thread.sleep(20); // the consumer's own time: 100 ms in all, twice the window
        }
    }

    @Test
    void theEndOfTheBodyAndARateOfZeroNeverFail() throws IOException {
        new TrickleGuard("x", 1024, Duration.ofMillis(1), "o").read(System.nanoTime() - 5000 * MS, -1);
        new TrickleGuard("x", 0, Duration.ofMillis(1), "o").read(System.nanoTime() - 5000 * MS, 1);
        assertThatThrownBy(() -> new TrickleGuard("x", -1, Duration.ofSeconds(1), "o"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDefaultRateComesFromTheSystemPropertyWhenAStreamOpens() throws IOException {
        assertThat(TrickleGuard.minimumRate()).isEqualTo(TrickleGuard.DEFAULT_MINIMUM_RATE);
        System.setProperty("remotepath.minimumBodyRate", "0");
        try {
            assertThat(TrickleGuard.minimumRate()).isZero();
            new TrickleGuard("az://c/b", Duration.ofMillis(1)).read(System.nanoTime() - 5000 * MS, 1); // off
        } finally {
            System.clearProperty("remotepath.minimumBodyRate");
        }
        assertThatThrownBy(() -> new TrickleGuard("az://c/b", Duration.ofMillis(1)).read(System.nanoTime() - 5000 * MS, 1))
                .isInstanceOf(SocketTimeoutException.class).hasMessageContaining("-Dremotepath.minimumBodyRate");
    }

    @Test
    void aGuardedStreamFailsItsReadsWhenTheyTrickle() throws IOException {
        InputStream slow = new InputStream() {
            @Override
            public int read() throws IOException {
                try {
                    Thread.sleep(15);
                } catch (InterruptedException e) {
                    throw new java.io.InterruptedIOException();
                }
                return 'x';
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                b[off] = (byte) read(); // a byte a read, as a trickle comes
                return 1;
            }
        };
        InputStream guarded = TrickleGuard.guarding(slow, new TrickleGuard("f", 1024, Duration.ofMillis(100), "o"));
        assertThatThrownBy(guarded::readAllBytes).isInstanceOf(SocketTimeoutException.class).hasMessageContaining("trickles");
        InputStream fast = TrickleGuard.guarding(new ByteArrayInputStream(new byte[100_000]),
                new TrickleGuard("f", 1024, Duration.ofMillis(1), "o"));
        assertThat(fast.readAllBytes()).hasSize(100_000);
    }
}
