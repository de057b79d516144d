package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;

/**
 * Deletes keys by {@code DeleteObjects}, {@value #BATCH} a request (S3's limit). A key already
 * gone counts as deleted; every key the store refuses is reported, as the first failure with the
 * rest suppressed in it, after every batch was tried.
 */
final class S3BatchDelete {

    static final int BATCH = 1000;

    private S3BatchDelete() {
    }

    /** Deletes {@code keys}, {@code paths} naming them (the same order) in what is reported. */
    static void delete(S3FileSystem fs, List<RemotePath> paths, List<String> keys) throws IOException {
        Map<String, RemotePath> byKey = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            byKey.put(keys.get(i), paths.get(i));
        }
        IOException first = null;
        for (int from = 0; from < keys.size(); from += BATCH) {
            List<ObjectIdentifier> batch = new ArrayList<>();
            for (String k : keys.subList(from, Math.min(keys.size(), from + BATCH))) {
                batch.add(ObjectIdentifier.builder().key(k).build());
            }
            DeleteObjectsResponse r;
            try {
                r = fs.client().deleteObjects(d -> d.bucket(fs.bucket()).delete(Delete.builder().objects(batch).quiet(true).build()));
            } catch (SdkException e) {
                first = joined(first, fs.translate(e, paths.get(from)));
                continue;
            }
            for (S3Error err : r.errors()) {
                if ("NoSuchKey".equals(err.code())) {
                    continue; // already gone: the goal is reached
                }
                RemotePath p = byKey.get(err.key());
                String uri = p != null ? p.toString() : fs.uriPrefix() + "/" + err.key();
                String reason = "delete refused (" + err.code() + ": " + err.message() + ")";
                first = joined(first, "AccessDenied".equals(err.code()) ? new AccessDeniedException(uri, null, reason)
                        : new FileSystemException(uri, null, reason));
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static IOException joined(IOException first, IOException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
