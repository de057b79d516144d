package dev.remotepath.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetriesTest {

    private final Retries three = new Retries(3, Duration.ofMillis(1));

    @Test
    void aTransientFailureIsTriedAgainUntilItPasses() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        String r = three.run(() -> {
            if (calls.incrementAndGet() < 3) {
                throw new IOException("connection reset");
            }
            return "done";
        }, e -> true);
        assertThat(r).isEqualTo("done");
        assertThat(calls).hasValue(3);
    }

    @Test
    void afterTheLastAttemptTheLastFailureIsThrownWithTheFirstSuppressed() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> three.run(() -> {
            throw new SocketTimeoutException("no answer " + calls.incrementAndGet());
        }, e -> true)).isInstanceOf(SocketTimeoutException.class).hasMessage("no answer 4")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage).containsExactly("no answer 1"));
    }

    @Test
    void answersOfTheFileSystemAndInterruptionsAreFinal() {
        for (IOException e : new IOException[] {new NoSuchFileException("/x"), new AccessDeniedException("/x"),
                new InterruptedIOException("stop")}) {
            AtomicInteger calls = new AtomicInteger();
            assertThatThrownBy(() -> three.run(() -> {
                calls.incrementAndGet();
                throw e;
            }, x -> true)).isSameAs(e);
            assertThat(calls).as(e.toString()).hasValue(1);
        }
    }

    @Test
    void aRunThatGaveUpStopsRetrying() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> three.run(() -> {
            calls.incrementAndGet();
            throw new IOException("reset");
        }, e -> false)).hasMessage("reset");
        assertThat(calls).hasValue(1);
    }

    @Test
    void waitsDoubleUpToTenSeconds() {
        Retries r = new Retries(30, Duration.ofMillis(100));
        assertThat(r.wait(0)).isEqualTo(Duration.ofMillis(100));
        assertThat(r.wait(2)).isEqualTo(Duration.ofMillis(400));
        assertThat(r.wait(25)).isEqualTo(Duration.ofSeconds(10));
        assertThatThrownBy(() -> new Retries(-1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBackoffTooLongToDoubleWaitsTenSecondsRatherThanOverflowing() {
        Retries r = new Retries(30, Duration.ofSeconds(Long.MAX_VALUE / 2));
        assertThat(r.wait(0)).isEqualTo(Duration.ofSeconds(10));
        assertThat(r.wait(29)).isEqualTo(Duration.ofSeconds(10));
        Retries justUnder = new Retries(30, Duration.ofSeconds(10).minusNanos(1));
        assertThat(justUnder.wait(0)).isEqualTo(Duration.ofSeconds(10).minusNanos(1));
        assertThat(justUnder.wait(29)).isEqualTo(Duration.ofSeconds(10));
        Retries nanos = new Retries(30, Duration.ofNanos(999_999_999));
        assertThat(nanos.wait(3)).isEqualTo(Duration.ofNanos(999_999_999L * 8));
    }
}
