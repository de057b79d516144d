package dev.remotepath.s3;

import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.LegacyMd5Plugin;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;

/** The SDK client {@link S3Options} describe: HTTP client, timeouts, retries, credentials, region, store profile. */
final class S3Clients {

    private S3Clients() {
    }

    static S3Client newClient(S3Options o) {
        S3ClientBuilder b = S3Client.builder()
                .httpClientBuilder(Apache5HttpClient.builder()
                        .maxConnections(64)
                        .connectionTimeout(Duration.ofSeconds(10))
                        .socketTimeout(o.requestTimeout()))
                .credentialsProvider(credentials(o.credentials()))
                .region(region(o))
                .overrideConfiguration(c -> {
                    c.apiCallTimeout(o.apiCallTimeout());
                    // Per attempt too: a silent store fails each attempt, not only the whole call.
                    c.apiCallAttemptTimeout(o.requestTimeout());
                    o.maxRetries().ifPresent(n -> c.retryStrategy(r -> r.maxAttempts(n + 1)));
                });
        o.endpoint().ifPresent(b::endpointOverride);
        S3Configuration.Builder service = S3Configuration.builder().pathStyleAccessEnabled(o.pathStyle());
        if (o.compatibility() != S3Options.Compatibility.AWS) {
            // Stores other than AWS reject the SDK's aws-chunked uploads with CRC trailers.
            b.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
            service.chunkedEncodingEnabled(false);
        }
        if (o.compatibility() == S3Options.Compatibility.GENERIC_WITH_MD5) {
            b.addPlugin(LegacyMd5Plugin.create());
        }
        b.serviceConfiguration(service.build());
        o.clientCustomizer().accept(b);
        return b.build();
    }

    private static AwsCredentialsProvider credentials(S3Credentials c) {
        return switch (c) {
            case S3Credentials.DefaultChain d -> DefaultCredentialsProvider.builder().build();
            case S3Credentials.Anonymous a -> AnonymousCredentialsProvider.create();
            case S3Credentials.Profile p -> ProfileCredentialsProvider.create(p.name());
            case S3Credentials.Static s -> StaticCredentialsProvider.create(s.sessionToken().isEmpty()
                    ? AwsBasicCredentials.create(s.accessKeyId(), s.secretAccessKey())
                    : AwsSessionCredentials.create(s.accessKeyId(), s.secretAccessKey(), s.sessionToken()));
        };
    }

    private static Region region(S3Options o) {
        if (o.region().isPresent()) {
            return Region.of(o.region().get());
        }
        try {
            return DefaultAwsRegionProviderChain.builder().build().getRegion();
        } catch (SdkException none) {
            return Region.US_EAST_1; // S3's home region; compatible stores mostly ignore it
        }
    }
}
