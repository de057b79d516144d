package dev.remotepath.ftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Options out of range are refused when built, naming the option, not where they are first used. */
class FtpOptionsTest {

    @Test
    void timeoutsMustBePositiveAndAtMost24Days() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofSeconds(-1), Duration.ofDays(25),
                Duration.ofHours(999_999_999)}) {
            assertThatThrownBy(() -> FtpOptions.builder().readTimeout(bad).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("readTimeout")
                    .hasMessageContaining("24 days");
            assertThatThrownBy(() -> FtpOptions.builder().connectTimeout(bad).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("connectTimeout");
        }
        assertThatThrownBy(() -> FtpOptions.builder().keepAlive(Duration.ofMillis(-1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepAlive");
        FtpOptions most = FtpOptions.builder().readTimeout(Duration.ofDays(24)).connectTimeout(Duration.ofDays(24))
                .keepAlive(Duration.ZERO).build();
        assertThat(FtpConnection.wholeAnswerBound(most)).isEqualTo(Duration.ofDays(240));
        assertThat(FtpConnection.wholeAnswerBound(most).toNanos()).isPositive();
    }
}
