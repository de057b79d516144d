package dev.remotepath.webdav;

import dev.remotepath.testkit.OutOfRangeTimeouts;
import org.junit.jupiter.api.Test;

/**
 * Timeouts out of range are refused when the options are built, naming the option: zero would
 * read as "wait for ever" in the client library, so a silent server could hold a command for good.
 */
class WebDavOptionsTest {

    @Test
    void timeoutsOutOfRangeAreRefusedWhenBuilt() {
        OutOfRangeTimeouts.assertRefused("connectTimeout", d -> WebDavOptions.builder().connectTimeout(d).build());
        OutOfRangeTimeouts.assertRefused("requestTimeout", d -> WebDavOptions.builder().requestTimeout(d).build());
        OutOfRangeTimeouts.assertRefused("idleTimeout", d -> WebDavOptions.builder().idleTimeout(d).build());
        OutOfRangeTimeouts.assertRefused("listingTimeout", d -> WebDavOptions.builder().listingTimeout(d).build());
    }
}
