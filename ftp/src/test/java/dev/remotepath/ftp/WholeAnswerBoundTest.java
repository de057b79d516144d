package dev.remotepath.ftp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Ten read timeouts, worked out without BigDecimal, are what {@code multipliedBy(10)} gave. */
class WholeAnswerBoundTest {

    @Test
    void isTenReadTimeouts() {
        Random random = new Random(10);
        for (int i = 0; i < 10_000; i++) {
            Duration timeout = Duration.ofSeconds(random.nextInt(100_000), random.nextInt(1_000_000_000));
            FtpOptions options = FtpOptions.builder().readTimeout(timeout).build();
            assertThat(FtpConnection.wholeAnswerBound(options)).isEqualTo(timeout.multipliedBy(10));
        }
        assertThat(FtpConnection.wholeAnswerBound(FtpOptions.builder().readTimeout(Duration.ofMillis(1)).build()))
                .isEqualTo(Duration.ofMillis(10));
    }
}
