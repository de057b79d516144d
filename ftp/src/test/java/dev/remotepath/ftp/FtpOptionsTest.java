package dev.remotepath.ftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.testkit.OutOfRangeTimeouts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Options out of range are refused when built, naming the option, not where they are first used. */
class FtpOptionsTest {

    @Test
    void timeoutsMustBePositiveAndAtMost24Days() {
        OutOfRangeTimeouts.assertRefused("readTimeout", d -> FtpOptions.builder().readTimeout(d).build());
        OutOfRangeTimeouts.assertRefused("connectTimeout", d -> FtpOptions.builder().connectTimeout(d).build());
        assertThatThrownBy(() -> FtpOptions.builder().keepAlive(Duration.ofMillis(-1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepAlive");
        FtpOptions most = FtpOptions.builder().readTimeout(Duration.ofDays(24)).connectTimeout(Duration.ofDays(24))
                .keepAlive(Duration.ZERO).build();
        assertThat(FtpConnection.wholeAnswerBound(most)).isEqualTo(Duration.ofDays(240));
        assertThat(FtpConnection.wholeAnswerBound(most).toNanos()).isPositive();
    }
}
