package dev.remotepath.http;

import dev.remotepath.testkit.OutOfRangeTimeouts;
import org.junit.jupiter.api.Test;

/**
 * Timeouts out of range are refused when the options are built, naming the option: zero would
 * read as "wait for ever" in the client library, so a silent server could hold a command for good.
 */
class HttpOptionsTest {

    @Test
    void timeoutsOutOfRangeAreRefusedWhenBuilt() {
        OutOfRangeTimeouts.assertRefused("connectTimeout", d -> HttpOptions.builder().connectTimeout(d).build());
        OutOfRangeTimeouts.assertRefused("requestTimeout", d -> HttpOptions.builder().requestTimeout(d).build());
        OutOfRangeTimeouts.assertRefused("idleTimeout", d -> HttpOptions.builder().idleTimeout(d).build());
        OutOfRangeTimeouts.assertRefused("listingTimeout", d -> HttpOptions.builder().listingTimeout(d).build());
    }
}
