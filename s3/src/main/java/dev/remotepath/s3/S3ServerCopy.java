package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Server-side copies within one bucket: {@code CopyObject}, or {@code UploadPartCopy} part by
 * part beyond {@link S3Options#multipartCopyThreshold()} (CopyObject stops at 5 GiB), the
 * upload aborted on any failure.
 */
final class S3ServerCopy {

    /** S3 allows at most this many parts in one multipart upload. */

    private final S3FileSystem fs;

    S3ServerCopy(S3FileSystem fs) {
        this.fs = fs;
    }

    /** A copy's If-Match on the source's ETag was refused. */
    static final class PreconditionFailed extends IOException {
        PreconditionFailed(Throwable cause) {
            super("precondition failed", cause);
        }
    }

    /**
     * CopyObject, or UploadPartCopy in parts for objects beyond CopyObject's 5 GiB.
     * {@code ifMatch}: only while the source has that ETag; {@code createOnly}: only if the
     * target does not exist.
     */
    void copy(RemotePath source, String sourceKey, RemotePath target, String targetKey, long size,
            Optional<Map<String, String>> metadata, Optional<String> contentType, String ifMatch, boolean createOnly)
            throws IOException {
        try {
            if (size <= fs.options().multipartCopyThreshold()) {
                CopyObjectRequest.Builder c = CopyObjectRequest.builder().sourceBucket(fs.bucket()).sourceKey(sourceKey)
                        .destinationBucket(fs.bucket()).destinationKey(targetKey);
                if (ifMatch != null) {
                    c.copySourceIfMatch(ifMatch);
                }
                if (createOnly) {
                    c.ifNoneMatch("*");
                }
                if (metadata.isPresent()) {
                    c.metadataDirective(MetadataDirective.REPLACE).metadata(metadata.get());
                    contentType.ifPresent(c::contentType);
                }
                fs.client().copyObject(c.build());
                return;
            }
            copyInParts(source, sourceKey, target, targetKey, size, metadata, contentType, ifMatch, createOnly);
        } catch (S3Exception e) {
            if (createOnly && S3Errors.isCreateOnlyRefusal(e)) {
                throw S3Errors.createOnlyRefused(e, target.toString());
            }
            if (e.statusCode() == 412 && ifMatch != null) {
                throw new PreconditionFailed(e);
            }
            if (S3Errors.isNotFound(e)) {
                throw new NoSuchFileException(source.toString(), target.toString(), "copy source is missing");
            }
            throw fs.translate(e, target);
        } catch (SdkException e) {
            throw fs.translate(e, target);
        }
    }

    private void copyInParts(RemotePath source, String sourceKey, RemotePath target, String targetKey, long size,
            Optional<Map<String, String>> metadata, Optional<String> contentType, String ifMatch, boolean createOnly)
            throws IOException {
        Map<String, String> meta = metadata.isPresent() ? metadata.get()
                : fs.head(source, false).map(HeadObjectResponse::metadata).orElse(Map.of());
        fs.streams.abortStaleUploads(targetKey);
        String uploadId = fs.client().createMultipartUpload(c -> c.bucket(fs.bucket()).key(targetKey).metadata(meta)
                .contentType(contentType.orElse(S3FileSystem.OCTET_STREAM))).uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            int number = 1;
            long part = Math.max(fs.options().partSize(), (size + S3Options.MAX_PARTS - 1) / S3Options.MAX_PARTS);
            for (long from = 0; from < size; from += part, number++) {
                long to = Math.min(size, from + part) - 1;
                int n = number;
                String range = "bytes=" + from + "-" + to;
                var r = fs.client().uploadPartCopy(u -> {
                    u.sourceBucket(fs.bucket()).sourceKey(sourceKey).destinationBucket(fs.bucket()).destinationKey(targetKey)
                            .uploadId(uploadId).partNumber(n).copySourceRange(range);
                    if (ifMatch != null) {
                        u.copySourceIfMatch(ifMatch);
                    }
                });
                parts.add(CompletedPart.builder().partNumber(n).eTag(r.copyPartResult().eTag()).build());
            }
            fs.client().completeMultipartUpload(c -> {
                c.bucket(fs.bucket()).key(targetKey).uploadId(uploadId).multipartUpload(m -> m.parts(parts));
                if (createOnly) {
                    c.ifNoneMatch("*");
                }
            });
        } catch (RuntimeException e) {
            fs.streams.abortUpload(targetKey, uploadId, e);
            throw e;
        }
    }

    /**
     * Sets a file's stored mtime: S3 metadata is immutable, so a copy onto itself with the
     * metadata replaced, guarded by the ETag its HEAD ({@code h}) gave, so that content replaced
     * meanwhile is not stamped with this time.
     */
    void restamp(RemotePath path, String key, HeadObjectResponse h, java.time.Instant time) throws IOException {
        Map<String, String> metadata = new java.util.HashMap<>(h.metadata());
        metadata.put(S3FileSystem.MTIME_KEY, S3ObjectStats.formatMtime(time));
        Optional<String> type = Optional.ofNullable(h.contentType()).or(() -> Optional.of(S3FileSystem.OCTET_STREAM));
        String etag = h.eTag() == null ? null : S3ObjectStats.unquote(h.eTag());
        try {
            copy(path, key, path, key, h.contentLength(), Optional.of(metadata), type, etag, false);
        } catch (PreconditionFailed refused) {
            // Some stores (s3proxy after a multipart upload) refuse If-Match with the very ETag
            // their HEAD reports; only a changed ETag means the object changed.
            HeadObjectResponse again = fs.head(path, false).orElseThrow(() -> new NoSuchFileException(path.toString()));
            if (!java.util.Objects.equals(h.eTag(), again.eTag())) {
                throw new java.nio.file.FileSystemException(path.toString(), null,
                        "replaced on the server while its modification time was being set");
            }
            copy(path, key, path, key, h.contentLength(), Optional.of(metadata), type, null, false);
        }
    }
}
