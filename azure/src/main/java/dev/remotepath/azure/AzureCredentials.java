package dev.remotepath.azure;

import java.util.Objects;

/**
 * How the Azure backend authenticates: a connection string, an account key, a SAS token, the
 * Azure SDK's credential chain ({@code DefaultAzureCredential}: environment, workload and
 * managed identity, Azure CLI login) or nothing (public containers). Secrets never appear in
 * {@code toString()}.
 */
public sealed interface AzureCredentials {

    /** A storage connection string ({@code AccountName=...;AccountKey=...;BlobEndpoint=...}, or {@code UseDevelopmentStorage=true}). */
    static AzureCredentials connectionString(String connectionString) {
        return new ConnectionString(connectionString);
    }

    /** An account name and one of its access keys (Shared Key). */
    static AzureCredentials sharedKey(String account, String key) {
        return new SharedKey(account, key);
    }

    /** A shared access signature ({@code sv=...&sig=...}, with or without a leading {@code ?}). */
    static AzureCredentials sasToken(String token) {
        return new SasToken(token);
    }

    /** The Azure SDK's default credential chain (Entra ID tokens). */
    static AzureCredentials defaultChain() {
        return DefaultChain.INSTANCE;
    }

    /** No credentials: anonymous reads of a public container. */
    static AzureCredentials anonymous() {
        return Anonymous.INSTANCE;
    }

    /** See {@link AzureCredentials#connectionString(String)}. */
    record ConnectionString(String value) implements AzureCredentials {
        public ConnectionString {
            Objects.requireNonNull(value, "connection string");
            if (value.isBlank()) {
                throw new IllegalArgumentException("empty connection string");
            }
            for (String part : value.split(";")) {
                int eq = part.indexOf('=');
                if (eq > 0 && part.substring(0, eq).strip().equalsIgnoreCase("AccountKey")) {
                    requireBase64Key(part.substring(eq + 1).strip(), "the connection string's AccountKey");
                }
            }
        }

        @Override
        public String toString() {
            return "AzureCredentials.connectionString(***)";
        }
    }

    /** See {@link AzureCredentials#sharedKey(String, String)}. */
    record SharedKey(String account, String key) implements AzureCredentials {
        public SharedKey {
            Objects.requireNonNull(account, "account");
            Objects.requireNonNull(key, "key");
            if (account.isBlank() || key.isBlank()) {
                throw new IllegalArgumentException("an account name and key are needed");
            }
            requireBase64Key(key, "the account key of " + account);
        }

        @Override
        public String toString() {
            return "AzureCredentials.sharedKey(" + account + ", ***)";
        }
    }

    /** See {@link AzureCredentials#sasToken(String)}. */
    record SasToken(String token) implements AzureCredentials {
        public SasToken {
            Objects.requireNonNull(token, "token");
            token = token.startsWith("?") ? token.substring(1) : token;
            if (token.isBlank()) {
                throw new IllegalArgumentException("empty SAS token");
            }
        }

        @Override
        public String toString() {
            return "AzureCredentials.sasToken(***)";
        }
    }

    /** See {@link AzureCredentials#defaultChain()}. */
    enum DefaultChain implements AzureCredentials {
        INSTANCE;

        @Override
        public String toString() {
            return "AzureCredentials.defaultChain()";
        }
    }

    /** See {@link AzureCredentials#anonymous()}. */
    enum Anonymous implements AzureCredentials {
        INSTANCE;

        @Override
        public String toString() {
            return "AzureCredentials.anonymous()";
        }
    }

    /**
     * A Shared Key is Base64: the SDK would decode it only when signing the first request and fail
     * there with the decoder's words ("Input byte array has wrong 4-byte ending unit"), naming
     * neither the key nor where it came from. The message never holds the key.
     */
    private static void requireBase64Key(String key, String what) {
        byte[] decoded;
        try {
            decoded = java.util.Base64.getDecoder().decode(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not Base64 (a storage account's access key is "
                    + "88 characters of A-Z, a-z, 0-9, + and /, ending in ==)");
        }
        if (decoded.length == 0) {
            throw new IllegalArgumentException(what + " is empty");
        }
    }
}
