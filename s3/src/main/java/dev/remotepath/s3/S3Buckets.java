package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A bucket made by {@code createDirectory} of its root: refused as existing when it is there
 * already (ours, or, by S3's own answer, another account's), with the region's location
 * constraint on AWS outside {@code us-east-1}; a name S3 refuses for new buckets is refused
 * before any request, naming the rule.
 */
final class S3Buckets {

    private S3Buckets() {
    }

    /** {@code mkdir s3://bucket/}: the bucket, as {@code rclone mkdir} makes it; an existing one is FileAlreadyExists. */
    static void create(S3FileSystem fs, RemotePath root) throws IOException {
        try {
            fs.client().headBucket(b -> b.bucket(fs.bucket()));
            throw new FileAlreadyExistsException(root.toString());
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                throw fs.translate(e, root);
            }
        } catch (SdkException e) {
            throw fs.translate(e, root);
        }
        String region = fs.client().serviceClientConfiguration().region().id();
        try {
            fs.client().createBucket(c -> {
                c.bucket(fs.bucket());
                if (!region.equals("us-east-1") && fs.options().endpoint().isEmpty()) {
                    c.createBucketConfiguration(b -> b.locationConstraint(region)); // AWS wants it outside us-east-1
                }
            });
        } catch (S3Exception e) {
            String code = S3FileSystem.errorCode(e);
            if (code.equals("BucketAlreadyOwnedByYou")) {
                throw new FileAlreadyExistsException(root.toString());
            }
            if (code.equals("BucketAlreadyExists")) {
                throw new FileAlreadyExistsException(root.toString(), null, "the bucket name is taken by another account");
            }
            throw fs.translate(e, root);
        } catch (SdkException e) {
            throw fs.translate(e, root);
        } catch (IllegalArgumentException e) {
            // The SDK checks a new bucket's name before sending (3 to 63 characters, lower case,
            // digits, '.' and '-'); an existing bucket of a legacy name may still be used.
            throw new java.nio.file.FileSystemException(root.toString(), null,
                    "cannot create a bucket of this name: " + e.getMessage());
        }
    }
}
