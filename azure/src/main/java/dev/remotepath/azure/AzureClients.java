package dev.remotepath.azure;

import com.azure.core.util.HttpClientOptions;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.remotepath.spi.Timeouts;
import java.time.Duration;

/** Builds the SDK's clients from {@link AzureOptions}: the one place SDK configuration is made. */
final class AzureClients {

    private AzureClients() {
    }

    static BlobServiceClient service(AzureOptions options, AzureRequests requests) {
        BlobServiceClientBuilder b = new BlobServiceClientBuilder();
        switch (options.credentials()) {
            case AzureCredentials.ConnectionString cs -> b.connectionString(cs.value());
            case AzureCredentials.SharedKey k -> b.credential(new StorageSharedKeyCredential(k.account(), k.key()));
            case AzureCredentials.SasToken sas -> b.sasToken(sas.token());
            case AzureCredentials.DefaultChain chain -> b.credential(AzureIdentity.defaultCredential());
            case AzureCredentials.Anonymous none -> {
                // public containers: requests go unsigned
            }
        }
        options.endpoint().ifPresent(e -> b.endpoint(e.toString()));
        if (options.endpoint().isEmpty() && options.credentials() instanceof AzureCredentials.SharedKey k) {
            b.endpoint("https://" + k.account() + ".blob.core.windows.net");
        }
        Duration timeout = options.requestTimeout();
        // The read timeout catches a server that stops sending; the try timeout bounds one that
        // trickles, generously, since a whole block goes up within one try.
        b.clientOptions(new HttpClientOptions().setConnectTimeout(min(timeout, Duration.ofSeconds(30)))
                .setResponseTimeout(timeout).setReadTimeout(timeout).setWriteTimeout(timeout));
        b.retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, options.maxRetries() + 1,
                Timeouts.times(timeout, 10), Duration.ofMillis(500), Duration.ofSeconds(30), null));
        b.addPolicy(requests);
        return b.buildClient();
    }

    static BlobContainerClient container(BlobServiceClient service, String container) {
        return service.getBlobContainerClient(container);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
