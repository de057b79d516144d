package dev.remotepath.s3;

import dev.remotepath.testkit.OutOfRangeTimeouts;
import org.junit.jupiter.api.Test;

/**
 * Timeouts out of range are refused when the options are built, naming the option: zero would
 * read as "wait for ever" in the client library, so a silent server could hold a command for good.
 */
class S3OptionsTest {

    @Test
    void timeoutsOutOfRangeAreRefusedWhenBuilt() {
        OutOfRangeTimeouts.assertRefused("apiCallTimeout", d -> S3Options.builder().apiCallTimeout(d).build());
        OutOfRangeTimeouts.assertRefused("requestTimeout", d -> S3Options.builder().requestTimeout(d).build());
    }
}
