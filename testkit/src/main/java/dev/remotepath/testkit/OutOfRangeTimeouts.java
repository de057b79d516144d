package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Asserts that a backend's options refuse, when built, every timeout that {@code spi.Timeouts}
 * refuses (zero, negative, under a millisecond, over 24 days), with an {@code IllegalArgumentException} naming the
 * option, and take the bounds themselves.
 */
public final class OutOfRangeTimeouts {

    /** Durations no timeout may be: zero (or less than a millisecond) reads as "wait for ever" underneath. */
    public static final List<Duration> TIMEOUTS = List.of(Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(-60),
            Duration.ofNanos(1), Duration.ofNanos(999_999),
            Duration.ofDays(24).plusNanos(1), Duration.ofDays(25), Duration.ofHours(999_999_999),
            Duration.ofSeconds(Long.MAX_VALUE));

    private OutOfRangeTimeouts() {
    }

    /**
     * {@code build} sets the option named {@code option} to the duration it is given and builds
     * the options: it must throw for each of {@link #TIMEOUTS} and not for 1 ms or 24 days.
     */
    public static void assertRefused(String option, Consumer<Duration> build) {
        for (Duration bad : TIMEOUTS) {
            assertThatThrownBy(() -> build.accept(bad)).as("%s = %s", option, bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(option).hasMessageContaining("24 days");
        }
        for (Duration fine : List.of(Duration.ofMillis(1), Duration.ofDays(24))) {
            build.accept(fine);
        }
        assertThat(Duration.ofDays(24).toMillis()).isLessThan(Integer.MAX_VALUE);
    }
}
