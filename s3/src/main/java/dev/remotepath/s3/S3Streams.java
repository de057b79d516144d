package dev.remotepath.s3;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What an {@link S3FileSystem}'s streams hold while they are open: how many are open, the
 * uploads' part buffers within {@link S3Options#uploadMemory()}, the threads parts are sent on,
 * and the multipart uploads under way, so that closing the file system (the JVM ending) aborts
 * them rather than leave unfinished uploads in the bucket.
 */
final class S3Streams {

    private final S3Client client;
    private final String bucket;
    private final S3Options options;

    /** The threads each part is sent on. */
    final ExecutorService partUploads = Executors.newVirtualThreadPerTaskExecutor();

    /** The uploads' part buffers, within {@link S3Options#uploadMemory()} (S3PartBuffers). */
    final S3PartBuffers partBuffers;

    /** Multipart uploads started and neither completed nor aborted yet. */
    private final Set<S3UploadStream> uploadsUnderWay = ConcurrentHashMap.newKeySet();

    /** Read and write streams handed out and not yet closed (or aborted): each holds a connection or buffers. */
    private final AtomicInteger openStreams = new AtomicInteger();

    S3Streams(S3Client client, String bucket, S3Options options) {
        this.client = client;
        this.bucket = bucket;
        this.options = options;
        this.partBuffers = new S3PartBuffers(options);
    }

    void streamOpened() {
        openStreams.incrementAndGet();
    }

    void streamEnded() {
        if (openStreams.decrementAndGet() == 0) {
            partBuffers.dropSpares(); // an idle file system keeps no part buffers
        }
    }

    /** Streams open now; none once callers have closed what they opened (the tests' leak check). */
    int openStreams() {
        return openStreams.get();
    }

    /** Gives a part buffer's room ({@code size} bytes) back, the buffer kept as a spare while streams are open. */
    void partBufferDone(byte[] buffer, int size, boolean reusable) {
        partBuffers.done(buffer, size, reusable, openStreams.get() > 0);
    }

    void uploadStarted(S3UploadStream upload) {
        uploadsUnderWay.add(upload);
    }

    void uploadEnded(S3UploadStream upload) {
        uploadsUnderWay.remove(upload);
    }

    /** Before a multipart upload of {@code key}: its unfinished uploads of earlier writers go (S3StaleUploads). */
    void abortStaleUploads(String key) {
        if (options.abortStaleUploads()) {
            Set<String> ours = new HashSet<>();
            for (S3UploadStream u : uploadsUnderWay) {
                u.uploadId().ifPresent(ours::add);
            }
            S3StaleUploads.abort(client, bucket, key, ours);
        }
    }

    /** Aborts one multipart upload; a failure to do so rides on {@code failure}. */
    void abortUpload(String key, String uploadId, Throwable failure) {
        try {
            client.abortMultipartUpload(a -> a.bucket(bucket).key(key).uploadId(uploadId));
        } catch (SdkException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Aborts the uploads still under way (the JVM is ending: SIGTERM, Ctrl-C) while the client
     * can still say so, and stops the part threads. Called as the file system closes.
     */
    void abortAll() {
        for (S3UploadStream upload : uploadsUnderWay) {
            try {
                upload.abort();
            } catch (IOException | RuntimeException e) {
                // best effort: the store may be unreachable, and the JVM is ending
            }
        }
        partUploads.shutdownNow();
    }
}
