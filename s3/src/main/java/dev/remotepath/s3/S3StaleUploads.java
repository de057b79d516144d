package dev.remotepath.s3;

import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * Aborts the unfinished multipart uploads a writer killed mid-upload left for a key, before a new
 * upload of that key starts. Such an upload is invisible to listings, is billed for its parts
 * until aborted, and on some stores (s3proxy's file system backend) shows as stray objects.
 *
 * <p>Run before this writer creates its own upload, so every upload of the key it finds was
 * started before it (by a dead process, or by a concurrent writer of the same key, whose result
 * the new upload would replace anyway); uploads this file system itself has under way are
 * spared. Best effort: a store that refuses ListMultipartUploads (no
 * {@code s3:ListBucketMultipartUploads} permission) or fails is logged and the write goes on.
 */
final class S3StaleUploads {

    private static final Logger LOG = LoggerFactory.getLogger(S3StaleUploads.class);

    /**
     * Listing rounds at most: some stores (s3proxy's transient backend) list one upload per key
     * at a time, so the listing is repeated until it shows no more of the key's uploads.
     */
    private static final int ROUNDS = 16;

    private S3StaleUploads() {
    }

    /** Aborts the key's unfinished uploads but {@code ours}; returns how many were aborted. */
    static int abort(S3Client client, String bucket, String key, Set<String> ours) {
        int aborted = 0;
        try {
            for (int round = 0; round < ROUNDS; round++) {
                List<MultipartUpload> stale = staleOf(client, bucket, key, ours);
                if (stale.isEmpty()) {
                    break;
                }
                for (MultipartUpload u : stale) {
                    client.abortMultipartUpload(a -> a.bucket(bucket).key(key).uploadId(u.uploadId()));
                    aborted++;
                    LOG.info("aborted an unfinished upload of s3://{}/{} started {} (upload id {})", bucket, key,
                            u.initiated(), u.uploadId());
                }
            }
        } catch (SdkException e) {
            LOG.debug("could not look for unfinished uploads of s3://{}/{}: {}", bucket, key, e.toString());
        }
        return aborted;
    }

    /** The key's uploads in a listing that may hold other keys sharing its prefix, page by page. */
    private static List<MultipartUpload> staleOf(S3Client client, String bucket, String key, Set<String> ours) {
        List<MultipartUpload> stale = new java.util.ArrayList<>();
        String keyMarker = null;
        String idMarker = null;
        for (int page = 0; page < 100; page++) {
            String k = keyMarker;
            String i = idMarker;
            ListMultipartUploadsResponse r = client.listMultipartUploads(l -> {
                l.bucket(bucket).prefix(key);
                if (k != null) {
                    l.keyMarker(k).uploadIdMarker(i);
                }
            });
            boolean pastKey = false;
            for (MultipartUpload u : r.uploads()) {
                if (u.key().equals(key)) {
                    if (!ours.contains(u.uploadId())) {
                        stale.add(u);
                    }
                } else if (u.key().compareTo(key) > 0) {
                    pastKey = true; // listed in key order: the rest are longer keys with this prefix
                }
            }
            if (pastKey || !Boolean.TRUE.equals(r.isTruncated()) || r.nextKeyMarker() == null) {
                break;
            }
            keyMarker = r.nextKeyMarker();
            idMarker = r.nextUploadIdMarker();
        }
        return stale;
    }
}
