package dev.remotepath.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.identity.DefaultAzureCredentialBuilder;

/**
 * The SDK's default credential chain, in a class of its own so that its library (and its
 * start-up cost) is loaded only when a file system is opened with it.
 */
final class AzureIdentity {

    private AzureIdentity() {
    }

    static TokenCredential defaultCredential() {
        return new DefaultAzureCredentialBuilder().build();
    }
}
