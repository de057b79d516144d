package dev.remotepath.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.testkit.OutOfRangeTimeouts;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Timeouts out of range are refused when the options are built, naming the option: zero would
 * read as "wait for ever" in the client library, so a silent server could hold a command for good.
 * An account key that is not Base64 is refused when the credentials are made, naming where it
 * came from and never the key.
 */
class AzureOptionsTest {

    @Test
    void timeoutsOutOfRangeAreRefusedWhenBuilt() {
        URI endpoint = URI.create("https://account.blob.core.windows.net");
        OutOfRangeTimeouts.assertRefused("requestTimeout",
                d -> AzureOptions.builder().endpoint(endpoint).requestTimeout(d).build());
    }

    @Test
    void anAccountKeyThatIsNotBase64IsRefusedNamingWhereItCameFromAndNotTheKey() {
        String mangled = Azurite.KEY.substring(0, 10) + Azurite.KEY.substring(11); // a character lost in a paste
        assertThatThrownBy(() -> AzureCredentials.sharedKey("acct", mangled)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the account key of acct is not Base64").hasMessageNotContaining(mangled);
        assertThatThrownBy(() -> AzureCredentials.sharedKey("acct", "not a key")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not Base64");
        assertThatThrownBy(() -> AzureCredentials.connectionString(
                "DefaultEndpointsProtocol=http;AccountName=acct;AccountKey=" + mangled + ";BlobEndpoint=http://127.0.0.1:1/acct;"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the connection string's AccountKey is not Base64").hasMessageNotContaining(mangled);
        assertThatThrownBy(() -> AzureOptions.fromEnvironment(Map.of("AZURE_STORAGE_ACCOUNT", "acct",
                "AZURE_STORAGE_KEY", mangled))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not Base64").hasMessageNotContaining(mangled);
        assertThatThrownBy(() -> AzureCredentials.connectionString("AccountName=acct;AccountKey=;BlobEndpoint=http://h/acct"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("AccountKey is empty");
        // What is Base64 passes (the server judges it), and a connection string without a key has nothing to check.
        assertThat(AzureCredentials.sharedKey("acct", Azurite.KEY)).isInstanceOf(AzureCredentials.SharedKey.class);
        assertThat(AzureCredentials.connectionString("BlobEndpoint=http://h/acct;SharedAccessSignature=sv=1&sig=x"))
                .isInstanceOf(AzureCredentials.ConnectionString.class);
        assertThat(AzureCredentials.connectionString("UseDevelopmentStorage=true"))
                .isInstanceOf(AzureCredentials.ConnectionString.class);
    }
}
