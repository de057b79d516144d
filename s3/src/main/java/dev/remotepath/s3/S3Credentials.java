package dev.remotepath.s3;

import java.util.Objects;

/**
 * Where the S3 backend takes its keys from. Static keys are held only here and are never
 * shown by {@link #toString()}.
 */
public sealed interface S3Credentials {

    /** The SDK's default chain: environment, system properties, {@code ~/.aws}, container and instance roles. */
    static S3Credentials defaultChain() {
        return DefaultChain.INSTANCE;
    }

    /** A named profile of {@code ~/.aws/credentials} and {@code ~/.aws/config}. */
    static S3Credentials profile(String name) {
        return new Profile(name);
    }

    /** Fixed keys (tests, S3-compatible stores); an optional session token for temporary ones. */
    static S3Credentials of(String accessKeyId, String secretAccessKey) {
        return new Static(accessKeyId, secretAccessKey, "");
    }

    /** Anonymous access, for public buckets: requests are not signed. */
    static S3Credentials anonymous() {
        return Anonymous.INSTANCE;
    }

    /** The SDK's default credential chain. */
    enum DefaultChain implements S3Credentials {
        INSTANCE;

        @Override
        public String toString() {
            return "default chain";
        }
    }

    /** Unsigned requests. */
    enum Anonymous implements S3Credentials {
        INSTANCE;

        @Override
        public String toString() {
            return "anonymous";
        }
    }

    /** A named AWS profile. */
    record Profile(String name) implements S3Credentials {
        public Profile {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String toString() {
            return "profile " + name;
        }
    }

    /** Fixed keys; {@link #toString()} shows only the access key id. */
    record Static(String accessKeyId, String secretAccessKey, String sessionToken) implements S3Credentials {
        public Static {
            Objects.requireNonNull(accessKeyId, "accessKeyId");
            Objects.requireNonNull(secretAccessKey, "secretAccessKey");
            Objects.requireNonNull(sessionToken, "sessionToken");
            if (accessKeyId.isEmpty() || secretAccessKey.isEmpty()) {
                throw new IllegalArgumentException("static S3 credentials need an access key id and a secret");
            }
        }

        @Override
        public String toString() {
            return "static key " + accessKeyId + " (secret hidden)";
        }
    }
}
