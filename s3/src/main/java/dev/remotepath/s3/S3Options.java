package dev.remotepath.s3;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.spi.Timeouts;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Connection options of the S3 backend. Secrets never appear in {@link #toString()}, logs or
 * error messages.
 * Every timeout must be at least 1 ms and at most 24 days ({@link Timeouts}), checked when the options
 * are built: zero would read as "wait for ever" in the client library underneath.
 *
 * <p>An immutable value made by {@link #builder()}; read through its accessors. No type of the
 * AWS SDK appears in it: the SDK client is built from these options inside the backend.
 */
public final class S3Options implements FileSystemOptions {

    private final Optional<String> region;
    private final Optional<URI> endpoint;
    private final boolean pathStyle;
    private final S3Credentials credentials;
    private final Compatibility compatibility;
    private final long multipartThreshold;
    private final int partSize;
    private final int uploadConcurrency;
    private final Optional<Integer> maxRetries;
    private final Duration apiCallTimeout;
    private final boolean etagIsMd5;
    private final long multipartCopyThreshold;
    private final Consumer<S3ClientBuilder> clientCustomizer;
    private final Duration requestTimeout;
    private final boolean conditionalWrites;
    private final boolean conditionalCopies;
    private final boolean abortStaleUploads;
    private final boolean flatListings;
    private final boolean flatListingsByFirstLevel;
    private final long uploadMemory;

    /** CopyObject's limit: larger objects must be copied part by part. */
    public static final long MAX_SINGLE_COPY = 5L * 1024 * 1024 * 1024;

    /** S3's smallest part (all but the last). */
    public static final int MIN_PART_SIZE = 5 * 1024 * 1024;
    /** The most parts S3 takes in one multipart upload (an upload or a copy). */
    static final int MAX_PARTS = 10_000;

    /** Which of the SDK's newer defaults a store can take. */
    public enum Compatibility {
        /** AWS S3: the SDK's defaults, flexible checksums (CRC32 trailers) on every upload. */
        AWS,
        /**
         * S3-compatible stores (MinIO, Ceph, R2, s3proxy): request and response checksums only
         * where an operation requires them, no aws-chunked uploads.
         */
        GENERIC,
        /** {@link #GENERIC}, plus the SDK's legacy MD5 plugin: a Content-MD5 on every upload, for stores that demand it. */
        GENERIC_WITH_MD5
    }

    private S3Options(Optional<String> region, Optional<URI> endpoint, boolean pathStyle, S3Credentials credentials,
            Compatibility compatibility, long multipartThreshold, int partSize, int uploadConcurrency,
            Optional<Integer> maxRetries, Duration apiCallTimeout, boolean etagIsMd5, long multipartCopyThreshold,
            Consumer<S3ClientBuilder> clientCustomizer, Duration requestTimeout, boolean conditionalWrites,
            boolean conditionalCopies, boolean abortStaleUploads, boolean flatListings, boolean flatListingsByFirstLevel, long uploadMemory) {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(compatibility, "compatibility");
        Objects.requireNonNull(maxRetries, "maxRetries");
        Timeouts.requireTimeout("apiCallTimeout", apiCallTimeout);
        Timeouts.requireTimeout("requestTimeout", requestTimeout);
        Objects.requireNonNull(clientCustomizer, "clientCustomizer");
        if (partSize < MIN_PART_SIZE) {
            throw new IllegalArgumentException("partSize must be at least 5 MiB, was " + partSize);
        }
        if (multipartThreshold < 0) {
            throw new IllegalArgumentException("negative multipartThreshold " + multipartThreshold);
        }
        if (multipartCopyThreshold < MIN_PART_SIZE || multipartCopyThreshold > MAX_SINGLE_COPY) {
            throw new IllegalArgumentException("multipartCopyThreshold must be between 5 MiB and 5 GiB, was "
                    + multipartCopyThreshold);
        }
        if (uploadConcurrency < 1) {
            throw new IllegalArgumentException("uploadConcurrency must be at least 1, was " + uploadConcurrency);
        }
        if (uploadMemory < 1) {
            throw new IllegalArgumentException("uploadMemory must be positive, was " + uploadMemory);
        }
        endpoint.ifPresent(e -> {
            if (e.getScheme() == null || !(e.getScheme().equals("http") || e.getScheme().equals("https"))
                    || e.getHost() == null) {
                throw new IllegalArgumentException("endpoint must be an http(s)://host[:port] URI, was " + e);
            }
        });
        this.region = region;
        this.endpoint = endpoint;
        this.pathStyle = pathStyle;
        this.credentials = credentials;
        this.compatibility = compatibility;
        this.multipartThreshold = multipartThreshold;
        this.partSize = partSize;
        this.uploadConcurrency = uploadConcurrency;
        this.maxRetries = maxRetries;
        this.apiCallTimeout = apiCallTimeout;
        this.etagIsMd5 = etagIsMd5;
        this.multipartCopyThreshold = multipartCopyThreshold;
        this.clientCustomizer = clientCustomizer;
        this.requestTimeout = requestTimeout;
        this.conditionalWrites = conditionalWrites;
        this.conditionalCopies = conditionalCopies;
        this.abortStaleUploads = abortStaleUploads;
        this.flatListings = flatListings;
        this.flatListingsByFirstLevel = flatListingsByFirstLevel;
        this.uploadMemory = uploadMemory;
    }

    /**
     * The signing region; empty: the SDK's region chain ({@code AWS_REGION}, profile), else {@code
     * us-east-1}.
     */
    public Optional<String> region() {
        return region;
    }

    /** An endpoint override for S3-compatible stores ({@code http://127.0.0.1:9000}); empty: AWS. */
    public Optional<URI> endpoint() {
        return endpoint;
    }

    /**
     * Address buckets as {@code endpoint/bucket/key} rather than {@code bucket.endpoint/key} (MinIO,
     * Ceph, s3proxy need it).
     */
    public boolean pathStyle() {
        return pathStyle;
    }

    /** Where the keys come from (the SDK's default chain unless told). */
    public S3Credentials credentials() {
        return credentials;
    }

    /** Which SDK behaviours a store needs turned off. */
    public Compatibility compatibility() {
        return compatibility;
    }

    /** Objects up to this size go in one PUT; larger ones are uploaded in parts of {@code partSize}. */
    public long multipartThreshold() {
        return multipartThreshold;
    }

    /**
     * The size of an upload's parts (at least 5 MiB, S3's minimum): of its first 5,000; later
     * ones double every 1,000 up to 32 times this (never past 1 GiB unless this is), so that
     * S3's 10,000 parts hold 523 GiB at the default 8 MiB.
     */
    public int partSize() {
        return partSize;
    }

    /** How many parts of one object are uploaded at once. */
    public int uploadConcurrency() {
        return uploadConcurrency;
    }

    /**
     * Retries of a failed request (throttling, 5xx, connection errors); empty: the SDK's standard
     * retry strategy.
     */
    public Optional<Integer> maxRetries() {
        return maxRetries;
    }

    /** How long one request may take in all, retries included. */
    public Duration apiCallTimeout() {
        return apiCallTimeout;
    }

    /**
     * Whether a listed single-part ETag may be taken as the content's MD5 (true for plain and SSE-S3
     * objects; turn off for buckets whose default encryption is SSE-KMS or SSE-C, where it is not).
     */
    public boolean etagIsMd5() {
        return etagIsMd5;
    }

    /**
     * Server-side copies of objects larger than this are made part by part ({@code UploadPartCopy},
     * parts of {@code partSize} or more); 5 GiB, CopyObject's limit, by default.
     */
    public long multipartCopyThreshold() {
        return multipartCopyThreshold;
    }

    /**
     * Applied last to the SDK client builder: for this module's tests (an {@code
     * ExecutionInterceptor} counting or breaking requests); not public, so no SDK type is part of
     * the API.
     */
    Consumer<S3ClientBuilder> clientCustomizer() {
        return clientCustomizer;
    }

    /**
     * How long one attempt of a request may wait for the store: the attempt as a whole, and each
     * read of a streamed body (60 s); a store that stops answering fails each request within it
     * (times its retries).
     */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /**
     * The store honours {@code If-None-Match: *} on PUT and CompleteMultipartUpload (AWS since 2024,
     * MinIO, Ceph, R2, S3Mock): a create-only write ({@code CREATE_NEW}) is then that one request,
     * and of two writers only one wins. Off, the header is still sent but a HEAD checks first, for
     * stores that ignore it (s3proxy). Default: on for {@link Compatibility#AWS}, off otherwise.
     */
    public boolean conditionalWrites() {
        return conditionalWrites;
    }

    /**
     * The store honours {@code If-None-Match: *} on CopyObject too (AWS since 2025): a server-side
     * copy that must not replace is then that one request. Stores that honour it on PUT often ignore
     * it on CopyObject and replace the target (S3Mock 4 does), so it is an option of its own. Off, a
     * HEAD checks first. Default: on for {@link Compatibility#AWS}, off otherwise.
     */
    public boolean conditionalCopies() {
        return conditionalCopies;
    }

    /**
     * Before a multipart upload of a key, abort the unfinished uploads of that same key that a
     * writer before it left behind (a process killed mid-upload); on by default. Such uploads are
     * invisible to listings and billed for their parts until aborted. Turn off where another tool
     * uploads the same keys at the same time as this one.
     */
    public boolean abortStaleUploads() {
        return abortStaleUploads;
    }

    /**
     * Whole trees are listed flat ({@code ListObjectsV2} without a delimiter, {@code
     * Capability.FLAT_LISTING}) by the syncer, recursive deletes and {@code ls -R}: 1,000 keys a
     * request whatever the directories, a large tree by its first level ({@link
     * #flatListingsByFirstLevel()}). On by default; turn off for a store whose recursive listing
     * is slower than its per-prefix one (s3proxy's filesystem provider rescans the prefix for every
     * page: a T1 no-op sync took 9.8 s page by page against 3.0 s per directory; by the first
     * level it rescans one directory a request).
     */
    public boolean flatListings() {
        return flatListings;
    }

    /**
     * A flat listing of more than one page whose first page reaches below the first level goes
     * on by the first level (on by default): one delimited request names the directories
     * directly below, and each is listed flat on its own, eight requests at once, instead of
     * page after page in a row. A T1 no-op sync (10,000 keys and 100 markers in 100 directories) then
     * asks 102 requests instead of 11, and answers sooner where a round trip or the store's own page
     * costs more than a small request (s3proxy's filesystem store rescans the whole bucket for
     * every page of a flat listing). The delimited page is trusted only where it names every
     * directory the first flat page reaches into and no deeper key; a store that answers
     * otherwise is listed page by page. Off: 1,000 keys a request, one after another.
     */
    public boolean flatListingsByFirstLevel() {
        return flatListingsByFirstLevel;
    }

    /**
     * The bytes of part buffers across all of this file system's writers (32 MiB by default: four
     * 8 MiB parts), whatever the number of concurrent transfers: the parts in flight, the parts
     * being filled and those held back below {@link #multipartThreshold()} each take their bytes of
     * it, and a writer waits for room. At least one part always goes (a grown part larger than the
     * whole budget goes alone, and memory is then that part). Memory of uploads is therefore
     * {@code uploadMemory} plus, per writer, a buffer smaller than {@code partSize} while an object
     * is small. A writer holding parts back that finds no place starts its multipart upload rather
     * than wait, so an object may then be multipart below the threshold.
     */
    public long uploadMemory() {
        return uploadMemory;
    }

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof S3Options o && region.equals(o.region)
                && endpoint.equals(o.endpoint) && pathStyle == o.pathStyle && credentials.equals(o.credentials)
                && compatibility.equals(o.compatibility) && multipartThreshold == o.multipartThreshold
                && partSize == o.partSize && uploadConcurrency == o.uploadConcurrency
                && maxRetries.equals(o.maxRetries) && apiCallTimeout.equals(o.apiCallTimeout)
                && etagIsMd5 == o.etagIsMd5 && multipartCopyThreshold == o.multipartCopyThreshold
                && clientCustomizer.equals(o.clientCustomizer) && requestTimeout.equals(o.requestTimeout)
                && conditionalWrites == o.conditionalWrites && conditionalCopies == o.conditionalCopies
                && abortStaleUploads == o.abortStaleUploads && flatListings == o.flatListings
                && flatListingsByFirstLevel == o.flatListingsByFirstLevel
                && uploadMemory == o.uploadMemory;
    }

    @Override
    public int hashCode() {
        return Objects.hash(region, endpoint, pathStyle, credentials, compatibility, multipartThreshold, partSize,
                uploadConcurrency, maxRetries, apiCallTimeout, etagIsMd5, multipartCopyThreshold, clientCustomizer,
                requestTimeout, conditionalWrites, conditionalCopies, abortStaleUploads, flatListings, flatListingsByFirstLevel,
                uploadMemory);
    }

    /** Every option but the customizer; the credentials say where keys come from, never the keys. */
    @Override
    public String toString() {
        return "S3Options[region=" + region + ", endpoint=" + endpoint + ", pathStyle=" + pathStyle
                + ", credentials=" + credentials + ", compatibility=" + compatibility + ", multipartThreshold="
                + multipartThreshold + ", partSize=" + partSize + ", uploadConcurrency=" + uploadConcurrency
                + ", maxRetries=" + maxRetries + ", apiCallTimeout=" + apiCallTimeout + ", etagIsMd5="
                + etagIsMd5 + ", multipartCopyThreshold=" + multipartCopyThreshold + ", requestTimeout="
                + requestTimeout + ", conditionalWrites=" + conditionalWrites + ", conditionalCopies="
                + conditionalCopies + ", abortStaleUploads=" + abortStaleUploads + ", flatListings="
                + flatListings + ", flatListingsByFirstLevel=" + flatListingsByFirstLevel + ", uploadMemory=" + uploadMemory + "]";
    }

    public static S3Options defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link S3Options}; the defaults suit AWS S3 with the SDK's credential chain. */
    public static final class Builder {
        private String region;
        private URI endpoint;
        private boolean pathStyle;
        private boolean flatListings = true;
        private boolean flatListingsByFirstLevel = true;
        private S3Credentials credentials = S3Credentials.defaultChain();
        private Compatibility compatibility;
        private long multipartThreshold = 16L * 1024 * 1024;
        private int partSize = 8 * 1024 * 1024;
        private int uploadConcurrency = 4;
        private long uploadMemory = 32L * 1024 * 1024;
        private Integer maxRetries;
        private Duration apiCallTimeout = Duration.ofMinutes(15);
        private Duration requestTimeout = Duration.ofSeconds(60);
        private boolean etagIsMd5 = true;
        private long multipartCopyThreshold = MAX_SINGLE_COPY;
        private Consumer<S3ClientBuilder> clientCustomizer = b -> { };
        private boolean abortStaleUploads = true;
        private Boolean conditionalWrites;
        private Boolean conditionalCopies;

        public Builder region(String r) {
            this.region = r;
            return this;
        }

        /** An S3-compatible endpoint; unless told otherwise, also selects {@link Compatibility#GENERIC}. */
        public Builder endpoint(URI e) {
            this.endpoint = e;
            return this;
        }

        public Builder pathStyle(boolean p) {
            this.pathStyle = p;
            return this;
        }

        public Builder credentials(S3Credentials c) {
            this.credentials = c;
            return this;
        }

        public Builder compatibility(Compatibility c) {
            this.compatibility = c;
            return this;
        }

        public Builder multipartThreshold(long bytes) {
            this.multipartThreshold = bytes;
            return this;
        }

        public Builder partSize(int bytes) {
            this.partSize = bytes;
            return this;
        }

        public Builder uploadConcurrency(int n) {
            this.uploadConcurrency = n;
            return this;
        }

        /** Bytes of parts in flight across all writers of the file system (default 32 MiB). */
        public Builder uploadMemory(long bytes) {
            this.uploadMemory = bytes;
            return this;
        }

        public Builder maxRetries(int n) {
            this.maxRetries = n;
            return this;
        }

        public Builder requestTimeout(Duration d) {
            this.requestTimeout = d;
            return this;
        }

        public Builder apiCallTimeout(Duration d) {
            this.apiCallTimeout = d;
            return this;
        }

        public Builder etagIsMd5(boolean b) {
            this.etagIsMd5 = b;
            return this;
        }

        /** Server-side copies above this size go part by part (default 5 GiB; some stores want less). */
        public Builder multipartCopyThreshold(long bytes) {
            this.multipartCopyThreshold = bytes;
            return this;
        }

        /**
         * A last say over the SDK client, for this module's tests (an {@code ExecutionInterceptor});
         * applied after the options above. Not public: no SDK type is part of the API.
         */
        Builder clientCustomizer(Consumer<S3ClientBuilder> c) {
            this.clientCustomizer = c;
            return this;
        }

        /** Whether a multipart upload first aborts the same key's unfinished uploads of earlier writers (default on). */
        public Builder abortStaleUploads(boolean abort) {
            this.abortStaleUploads = abort;
            return this;
        }

        /** Whether the store honours If-None-Match: * on PUT and CompleteMultipartUpload (default: on for AWS, off for other stores). */
        public Builder conditionalWrites(boolean honoured) {
            this.conditionalWrites = honoured;
            return this;
        }

        /** Whether the store honours If-None-Match: * on CopyObject (default: on for AWS, off for other stores). */
        public Builder conditionalCopies(boolean honoured) {
            this.conditionalCopies = honoured;
            return this;
        }

        /** Whether whole trees are listed flat, 1,000 keys a request (default on; see {@link S3Options}). */
        public Builder flatListings(boolean on) {
            this.flatListings = on;
            return this;
        }

        /** Whether a flat listing past its first page goes on by the first level, several at once (default on; see {@link S3Options#flatListingsByFirstLevel()}). */
        public Builder flatListingsByFirstLevel(boolean on) {
            this.flatListingsByFirstLevel = on;
            return this;
        }

        public S3Options build() {
            Compatibility c = compatibility != null ? compatibility
                    : endpoint != null ? Compatibility.GENERIC : Compatibility.AWS;
            return new S3Options(Optional.ofNullable(region), Optional.ofNullable(endpoint), pathStyle, credentials, c,
                    multipartThreshold, partSize, uploadConcurrency, Optional.ofNullable(maxRetries), apiCallTimeout,
                    etagIsMd5, multipartCopyThreshold, clientCustomizer, requestTimeout,
                    conditionalWrites != null ? conditionalWrites : c == Compatibility.AWS,
                    conditionalCopies != null ? conditionalCopies : c == Compatibility.AWS, abortStaleUploads,
                    flatListings, flatListingsByFirstLevel, uploadMemory);
        }
    }
}
