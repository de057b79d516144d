package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.testkit.OutOfRangeTimeouts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Timeouts out of range are refused when the options are built, naming the option: zero would
 * read as "wait for ever" in the client library, so a silent server could hold a command for good.
 */
class SftpOptionsTest {

    @Test
    void timeoutsOutOfRangeAreRefusedWhenBuilt() {
        OutOfRangeTimeouts.assertRefused("connectTimeout", d -> SftpOptions.builder().connectTimeout(d).build());
        OutOfRangeTimeouts.assertRefused("readTimeout", d -> SftpOptions.builder().readTimeout(d).build());
    }

    @Test
    void aKeepAliveMayBeOffButNotNegative() {
        assertThat(SftpOptions.builder().keepAlive(Duration.ZERO).build().keepAlive()).isZero();
        assertThatThrownBy(() -> SftpOptions.builder().keepAlive(Duration.ofSeconds(-1)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("keepAlive must be zero or more and at most 24 days, was PT-1S");
    }
}
