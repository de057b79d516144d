package dev.remotepath.azure;

import dev.remotepath.testkit.OutOfRangeTimeouts;
import java.net.URI;
import org.junit.jupiter.api.Test;

/**
 * Timeouts out of range are refused when the options are built, naming the option: zero would
 * read as "wait for ever" in the client library, so a silent server could hold a command for good.
 */
class AzureOptionsTest {

    @Test
    void timeoutsOutOfRangeAreRefusedWhenBuilt() {
        URI endpoint = URI.create("https://account.blob.core.windows.net");
        OutOfRangeTimeouts.assertRefused("requestTimeout",
                d -> AzureOptions.builder().endpoint(endpoint).requestTimeout(d).build());
    }
}
