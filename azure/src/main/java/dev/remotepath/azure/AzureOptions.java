package dev.remotepath.azure;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.spi.Timeouts;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Connection options of the Azure Blob backend: which account (an endpoint, or the one a
 * connection string names), how to authenticate, and how uploads and listings are made.
 * Secrets never appear in {@link #toString()}, logs or error messages.
 * Every timeout must be at least 1 ms and at most 24 days ({@link Timeouts}), checked when the options
 * are built: zero would read as "wait for ever" in the client library underneath.
 *
 * <p>An immutable value made by {@link #builder()} or {@link #fromEnvironment(Map)}; equal
 * options share one file system per container. No type of the Azure SDK appears in it.
 */
public final class AzureOptions implements FileSystemOptions {

    /** The smallest block size accepted (Azure's own minimum is one byte; smaller blocks only cost requests). */
    public static final int MIN_BLOCK_SIZE = 64 * 1024;

    /** Azure's largest block (4,000 MiB), capped to what one Java array holds. */
    public static final int MAX_BLOCK_SIZE = Integer.MAX_VALUE - 8;

    /** Azure's limit on the blocks of one blob. */
    public static final int MAX_BLOCKS = 50_000;

    private final Optional<URI> endpoint;
    private final AzureCredentials credentials;
    private final int blockSize;
    private final int uploadConcurrency;
    private final int maxRetries;
    private final Duration requestTimeout;
    private final boolean flatListings;

    private AzureOptions(Builder b) {
        this.endpoint = b.endpoint;
        this.credentials = b.credentials;
        this.blockSize = b.blockSize;
        this.uploadConcurrency = b.uploadConcurrency;
        this.maxRetries = b.maxRetries;
        this.requestTimeout = b.requestTimeout;
        this.flatListings = b.flatListings;
        endpoint.ifPresent(e -> {
            if (e.getScheme() == null || !(e.getScheme().equals("http") || e.getScheme().equals("https"))
                    || e.getHost() == null || e.getRawUserInfo() != null || e.getRawQuery() != null) {
                throw new IllegalArgumentException("endpoint must be an http(s)://host[:port][/account] URI without "
                        + "credentials or query (a SAS token goes in AzureCredentials.sasToken), was " + e.getScheme()
                        + "://" + e.getHost());
            }
        });
        if (endpoint.isEmpty() && !(credentials instanceof AzureCredentials.ConnectionString)
                && !(credentials instanceof AzureCredentials.SharedKey)) {
            throw new IllegalArgumentException("no account: give an endpoint (https://ACCOUNT.blob.core.windows.net), "
                    + "an account key or a connection string");
        }
    }

    /** Options from the variables the Azure CLI reads; see {@link #fromEnvironment(Map)}. */
    public static AzureOptions fromEnvironment() {
        return fromEnvironment(System.getenv()).build();
    }

    /**
     * A builder set from the variables the Azure CLI reads: {@code AZURE_STORAGE_CONNECTION_STRING};
     * else {@code AZURE_STORAGE_ACCOUNT} with {@code AZURE_STORAGE_KEY}, or with
     * {@code AZURE_STORAGE_SAS_TOKEN}, or alone (the credential chain; also whenever
     * {@code AZURE_STORAGE_AUTH_MODE=login}). {@code AZURE_STORAGE_BLOB_ENDPOINT} overrides the
     * endpoint ({@code https://ACCOUNT.blob.core.windows.net} by default).
     *
     * @throws IllegalArgumentException when the variables name no account
     */
    public static Builder fromEnvironment(Map<String, String> env) {
        Builder b = builder();
        String connection = nonBlank(env.get("AZURE_STORAGE_CONNECTION_STRING"));
        String account = nonBlank(env.get("AZURE_STORAGE_ACCOUNT"));
        String key = nonBlank(env.get("AZURE_STORAGE_KEY"));
        String sas = nonBlank(env.get("AZURE_STORAGE_SAS_TOKEN"));
        String endpoint = nonBlank(env.get("AZURE_STORAGE_BLOB_ENDPOINT"));
        boolean login = "login".equalsIgnoreCase(nonBlank(env.get("AZURE_STORAGE_AUTH_MODE")));
        if (endpoint != null) {
            b.endpoint(URI.create(endpoint));
        } else if (account != null && connection == null) {
            b.endpoint(URI.create("https://" + account + ".blob.core.windows.net"));
        }
        if (connection != null && !login) {
            b.credentials(AzureCredentials.connectionString(connection));
        } else if (account == null && endpoint == null) {
            throw new IllegalArgumentException("no Azure storage account: set AZURE_STORAGE_CONNECTION_STRING, or "
                    + "AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN");
        } else if (login) {
            b.credentials(AzureCredentials.defaultChain());
        } else if (key != null && account != null) {
            b.credentials(AzureCredentials.sharedKey(account, key));
        } else if (sas != null) {
            b.credentials(AzureCredentials.sasToken(sas));
        } else {
            b.credentials(AzureCredentials.defaultChain());
        }
        return b;
    }

    private static String nonBlank(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** A builder with the defaults: no endpoint, the credential chain, 4 MiB blocks, 4 at once, 3 retries, 60 s. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.endpoint = endpoint;
        b.credentials = credentials;
        b.blockSize = blockSize;
        b.uploadConcurrency = uploadConcurrency;
        b.maxRetries = maxRetries;
        b.requestTimeout = requestTimeout;
        b.flatListings = flatListings;
        return b;
    }

    /**
     * The blob service endpoint ({@code https://ACCOUNT.blob.core.windows.net}, or an emulator's
     * {@code http://127.0.0.1:10000/ACCOUNT}); empty: the one the connection string or account key gives.
     */
    public Optional<URI> endpoint() {
        return endpoint;
    }

    /** How requests are authenticated. */
    public AzureCredentials credentials() {
        return credentials;
    }

    /** The size of each staged block of an upload; a file up to this size is one Put Blob. */
    public int blockSize() {
        return blockSize;
    }

    /** Blocks of one upload staged at once; an upload holds at most this many blocks plus one in memory. */
    public int uploadConcurrency() {
        return uploadConcurrency;
    }

    /** Retries of a failed request (exponential backoff, by the SDK's retry policy). */
    public int maxRetries() {
        return maxRetries;
    }

    /** How long one request may wait for an answer, or between two reads of its body. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** Whether whole trees are listed without a delimiter (5,000 blobs a page, whatever the directories). */
    public boolean flatListings() {
        return flatListings;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AzureOptions a && endpoint.equals(a.endpoint) && credentials.equals(a.credentials)
                && blockSize == a.blockSize && uploadConcurrency == a.uploadConcurrency && maxRetries == a.maxRetries
                && requestTimeout.equals(a.requestTimeout) && flatListings == a.flatListings;
    }

    @Override
    public int hashCode() {
        return Objects.hash(endpoint, credentials, blockSize, uploadConcurrency, maxRetries, requestTimeout, flatListings);
    }

    @Override
    public String toString() {
        return "AzureOptions[endpoint=" + endpoint.map(URI::toString).orElse("(from credentials)") + ", credentials="
                + credentials + ", blockSize=" + blockSize + ", uploadConcurrency=" + uploadConcurrency
                + ", maxRetries=" + maxRetries + ", requestTimeout=" + requestTimeout + ", flatListings=" + flatListings + "]";
    }

    /** Builds {@link AzureOptions}. */
    public static final class Builder {
        private Optional<URI> endpoint = Optional.empty();
        private AzureCredentials credentials = AzureCredentials.defaultChain();
        private int blockSize = 4 * 1024 * 1024;
        private int uploadConcurrency = 4;
        private int maxRetries = 3;
        private Duration requestTimeout = Duration.ofSeconds(60);
        private boolean flatListings = true;

        private Builder() {
        }

        /** See {@link AzureOptions#endpoint()}. */
        public Builder endpoint(URI endpoint) {
            this.endpoint = Optional.of(Objects.requireNonNull(endpoint, "endpoint"));
            return this;
        }

        /** See {@link AzureOptions#credentials()}. */
        public Builder credentials(AzureCredentials credentials) {
            this.credentials = Objects.requireNonNull(credentials, "credentials");
            return this;
        }

        /** See {@link AzureOptions#blockSize()}; between {@link #MIN_BLOCK_SIZE} and {@link #MAX_BLOCK_SIZE}. */
        public Builder blockSize(int bytes) {
            if (bytes < MIN_BLOCK_SIZE || bytes > MAX_BLOCK_SIZE) {
                throw new IllegalArgumentException("blockSize must be between 64 KiB and 2 GiB, was " + bytes);
            }
            this.blockSize = bytes;
            return this;
        }

        /** See {@link AzureOptions#uploadConcurrency()}; at least 1. */
        public Builder uploadConcurrency(int blocks) {
            if (blocks < 1) {
                throw new IllegalArgumentException("uploadConcurrency must be at least 1, was " + blocks);
            }
            this.uploadConcurrency = blocks;
            return this;
        }

        /** See {@link AzureOptions#maxRetries()}; 0 for none. */
        public Builder maxRetries(int retries) {
            if (retries < 0) {
                throw new IllegalArgumentException("negative maxRetries " + retries);
            }
            this.maxRetries = retries;
            return this;
        }

        /** See {@link AzureOptions#requestTimeout()}; positive. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Timeouts.requireTimeout("requestTimeout", timeout);
            return this;
        }

        /** See {@link AzureOptions#flatListings()}. */
        public Builder flatListings(boolean flat) {
            this.flatListings = flat;
            return this;
        }

        /** The options. */
        public AzureOptions build() {
            return new AzureOptions(this);
        }
    }
}
