package dev.remotepath.s3;

import java.net.URI;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** An S3 store a test runs against (s3proxy in process, S3Mock in a network namespace): where it is, and its keys. */
public interface S3TestStore extends AutoCloseable {

    /** Where the store answers, on 127.0.0.1. */
    URI endpoint();

    /** The access key id the store accepts. */
    String accessKey();

    /** The secret of {@link #accessKey()}. */
    String secretKey();

    /** Creates a bucket; returns its name. */
    String createBucket(String name);

    /**
     * Whether the store refuses a PUT with {@code If-None-Match: *} over an existing key (S3Mock
     * does, s3proxy ignores the header): its options then let that header decide alone.
     */
    default boolean honoursConditionalWrites() {
        return false;
    }

    /** Options reaching this store with the right keys. */
    default S3Options options() {
        return options(b -> { });
    }

    /** Options reaching this store, adjusted. */
    default S3Options options(Consumer<S3Options.Builder> adjust) {
        S3Options.Builder b = S3Options.builder().endpoint(endpoint()).pathStyle(true).region("us-east-1")
                .credentials(S3Credentials.of(accessKey(), secretKey())).conditionalWrites(honoursConditionalWrites());
        adjust.accept(b);
        return b.build();
    }

    /** A plain SDK client for this store, to seed and inspect it behind RemotePath's back. */
    default S3Client rawClient() {
        return S3Client.builder().endpointOverride(endpoint()).forcePathStyle(true).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(accessKey(), secretKey())))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .build();
    }
}
