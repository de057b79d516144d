package dev.remotepath.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TimeoutsTest {

    @Test
    void aTimeoutIsAtLeastAMillisecondAndAtMost24Days() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofNanos(-1), Duration.ofNanos(1),
                Duration.ofNanos(999_999), Duration.ofDays(24).plusNanos(1),
                Duration.ofSeconds(Long.MAX_VALUE)}) {
            assertThatThrownBy(() -> Timeouts.requireTimeout("readTimeout", bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("readTimeout must be at least 1 ms and at most 24 days, was " + bad);
        }
        assertThat(Timeouts.requireTimeout("t", Duration.ofMillis(1))).isEqualTo(Timeouts.SHORTEST);
        assertThat(Timeouts.requireTimeout("t", Timeouts.LONGEST)).isEqualTo(Duration.ofDays(24));
        assertThatThrownBy(() -> Timeouts.requireTimeout("connectTimeout", null))
                .isInstanceOf(NullPointerException.class).hasMessage("connectTimeout");
    }

    @Test
    void anIntervalMayBeZero() {
        assertThat(Timeouts.requireInterval("keepAlive", Duration.ZERO)).isEqualTo(Duration.ZERO);
        assertThat(Timeouts.requireInterval("keepAlive", Timeouts.LONGEST)).isEqualTo(Timeouts.LONGEST);
        for (Duration bad : new Duration[] {Duration.ofNanos(-1), Duration.ofDays(25)}) {
            assertThatThrownBy(() -> Timeouts.requireInterval("keepAlive", bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("keepAlive must be zero or more and at most 24 days, was " + bad);
        }
    }

    @Test
    void theLongestFitsAnIntOfMillisecondsAndTenOfItInNanoseconds() {
        assertThat(Timeouts.LONGEST.toMillis()).isLessThanOrEqualTo(Integer.MAX_VALUE);
        assertThat(Timeouts.LONGEST.toNanos() * 10).isPositive();
    }

    @Test
    void aBoundMadeFromATimeoutIsWhatDurationWouldMultiplyItTo() {
        java.util.Random random = new java.util.Random(24);
        for (int i = 0; i < 10_000; i++) {
            Duration d = Duration.ofNanos((long) (random.nextDouble() * Timeouts.LONGEST.toNanos()));
            int factor = random.nextInt(1_000);
            assertThat(Timeouts.times(d, factor)).as("%s × %d", d, factor).isEqualTo(d.multipliedBy(factor));
        }
        assertThat(Timeouts.times(Timeouts.LONGEST, 10)).isEqualTo(Duration.ofDays(240));
        assertThat(Timeouts.times(Duration.ofNanos(999_999_999), 10)).isEqualTo(Duration.ofNanos(9_999_999_990L));
        assertThatThrownBy(() -> Timeouts.times(Duration.ofSeconds(1), -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> Timeouts.times(Duration.ofSeconds(Long.MAX_VALUE / 2), 10)).isInstanceOf(ArithmeticException.class);
    }
}
