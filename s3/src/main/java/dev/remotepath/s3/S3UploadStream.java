package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.AbortableOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Uploads an object as it is written, visible to readers only once {@link #close()} succeeded.
 * Up to {@link S3Options#multipartThreshold()} bytes are buffered and sent in one PUT; beyond
 * that, a multipart upload sends {@link S3Options#partSize()} parts, up to
 * {@link S3Options#uploadConcurrency()} at once, the writer waiting when all are busy, so memory
 * stays bounded whatever the object's size. Any failure, and {@link #abort()}, aborts the
 * multipart upload so that no parts are left behind.
 */
final class S3UploadStream extends AbortableOutputStream {

    private final S3FileSystem fs;
    private final RemotePath file;
    private final String key;
    private final Map<String, String> metadata;
    private final int partSize;
    private final long threshold;
    private final Semaphore slots;
    /** Full parts held back until the object is known to exceed the threshold. */
    private final List<byte[]> held = new ArrayList<>();
    private final List<Future<CompletedPart>> parts = new ArrayList<>();
    private final List<Permit> permits = new ArrayList<>();
    private byte[] buffer = new byte[8 * 1024];
    private int count;
    private long total;
    private volatile String uploadId;
    private boolean finished;
    /** Publish only if no object has the key (If-None-Match: *): CREATE_NEW. */
    private final boolean createOnly;

    S3UploadStream(S3FileSystem fs, RemotePath file, String key, Map<String, String> metadata, boolean createOnly) {
        this.fs = fs;
        this.createOnly = createOnly;
        this.file = file;
        this.key = key;
        this.metadata = metadata;
        this.partSize = fs.options().partSize();
        this.threshold = fs.options().multipartThreshold();
        this.slots = new Semaphore(fs.options().uploadConcurrency());
        fs.streamOpened();
    }

    private boolean ended;

    /** Counted as ended once, however it ends: closed, failed or aborted. */
    private void ended() {
        if (!ended) {
            ended = true;
            fs.streamEnded();
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (finished) {
            throw new IOException(file + ": stream closed");
        }
        while (len > 0) {
            if (count == buffer.length) {
                if (count == partSize) {
                    partFull();
                } else {
                    buffer = Arrays.copyOf(buffer, (int) Math.min(partSize, (long) buffer.length * 2));
                }
            }
            int n = Math.min(len, buffer.length - count);
            System.arraycopy(b, off, buffer, count, n);
            count += n;
            total += n;
            off += n;
            len -= n;
            if (uploadId == null && total > threshold) {
                begin(); // past the threshold by a byte: an object of threshold bytes or fewer is one PUT
            }
        }
    }

    private void partFull() throws IOException {
        byte[] part = buffer;
        // Part buffers are reused from part to part and writer to writer (the file system's
        // spares): a fresh 8 MiB array per part left the heap, and the process's RSS, full of
        // dead ones until a full collection.
        buffer = fs.partBuffer();
        count = 0;
        if (uploadId == null) {
            held.add(part); // not yet past the threshold
            return;
        }
        submit(part, partSize);
    }

    /** Past the threshold: start the multipart upload and send what was held back. */
    private void begin() throws IOException {
        try {
            fs.abortStaleUploads(key);
            uploadId = fs.client().createMultipartUpload(c -> c.bucket(fs.bucket()).key(key).metadata(metadata)
                    .contentType(S3FileSystem.OCTET_STREAM)).uploadId();
        } catch (SdkException e) {
            finished = true;
            throw fs.translate(e, file);
        }
        fs.uploadStarted(this);
        for (byte[] part : held) {
            submit(part, part.length);
        }
        held.clear();
    }

    /** The multipart upload's id once it has begun. */
    java.util.Optional<String> uploadId() {
        return java.util.Optional.ofNullable(uploadId);
    }

    private void submit(byte[] content, int length) throws IOException {
        int number = parts.size() + 1;
        try {
            slots.acquire();
            try {
                fs.partsInFlight.acquire(); // after this writer's own slot: never held while waiting for it
            } catch (InterruptedException e) {
                slots.release();
                throw e;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abortQuietly(new InterruptedIOException(file + ": interrupted"));
            throw new InterruptedIOException(file + ": upload interrupted");
        }
        Permit permit = new Permit();
        try {
            failFast();
        } catch (IOException | RuntimeException e) {
            permit.release(); // the file system's budget outlives this writer
            throw e;
        }
        String id = uploadId;
        Future<CompletedPart> part;
        try {
            part = fs.partUploads.submit(() -> {
                try {
                    var r = fs.client().uploadPart(u -> u.bucket(fs.bucket()).key(key).uploadId(id).partNumber(number)
                            .contentLength((long) length), RequestBody.fromContentProvider(
                                    () -> new ByteArrayInputStream(content, 0, length), length, S3FileSystem.OCTET_STREAM));
                    return CompletedPart.builder().partNumber(number).eTag(r.eTag()).build();
                } finally {
                    if (permit.release()) {
                        fs.partDone(content); // the SDK is done with it: retries re-read it only within uploadPart
                    }
                }
            });
        } catch (RuntimeException rejected) { // the file system closed under the writer
            permit.release();
            throw rejected;
        }
        parts.add(part);
        permits.add(permit);
    }

    /**
     * One part's places in this writer's and the file system's budgets, given back exactly once:
     * by the part's task when it ends, or by an abort that cancelled it before it ran (whose
     * buffer then never goes back to the spares: the task may still be reading it).
     */
    private final class Permit {
        private final java.util.concurrent.atomic.AtomicBoolean held = new java.util.concurrent.atomic.AtomicBoolean(true);

        boolean release() {
            if (!held.compareAndSet(true, false)) {
                return false;
            }
            fs.partsInFlight.release();
            slots.release();
            return true;
        }
    }

    /** A part that already failed fails the writer now rather than after all the rest was sent. */
    private void failFast() throws IOException {
        for (Future<CompletedPart> f : parts) {
            if (f.isDone()) {
                try {
                    f.get();
                } catch (ExecutionException | InterruptedException e) {
                    IOException t = failure(e);
                    abortQuietly(t);
                    throw t;
                }
            }
        }
    }

    private IOException failure(Exception e) {
        Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
        if (cause instanceof SdkException sdk) {
            return fs.translate(sdk, file);
        }
        if (cause instanceof IOException io) {
            return io;
        }
        return new IOException(file + ": upload failed: " + cause, cause);
    }

    @Override
    public void close() throws IOException {
        if (finished) {
            return;
        }
        try {
            publish();
        } finally {
            ended();
        }
    }

    private void publish() throws IOException {
        fs.requireOpen();
        if (uploadId == null) {
            finished = true;
            byte[] whole = whole();
            fs.putObject(file, key, whole, whole.length, metadata, S3FileSystem.OCTET_STREAM, createOnly);
            fs.published(file);
            return;
        }
        try {
            if (count > 0) {
                submit(buffer, count);
            }
            List<CompletedPart> done = new ArrayList<>();
            for (Future<CompletedPart> f : parts) {
                done.add(f.get());
            }
            done.sort(Comparator.comparing(CompletedPart::partNumber));
            finished = true;
            fs.client().completeMultipartUpload(c -> {
                c.bucket(fs.bucket()).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(done));
                if (createOnly) {
                    c.ifNoneMatch("*");
                }
            });
            fs.uploadEnded(this);
            fs.published(file);
        } catch (ExecutionException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            IOException t = failure(e);
            abortQuietly(t);
            throw t;
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
            IOException t = createOnly ? S3Errors.createOnlyRefused(e, file.toString()) : fs.translate(e, file);
            abortQuietly(t);
            throw t;
        } catch (SdkException e) {
            IOException t = fs.translate(e, file);
            abortQuietly(t);
            throw t;
        } catch (IOException | RuntimeException e) {
            abortQuietly(e);
            throw e;
        }
    }

    private byte[] whole() {
        if (held.isEmpty()) {
            return count == buffer.length ? buffer : Arrays.copyOf(buffer, count);
        }
        byte[] all = new byte[Math.toIntExact(total)];
        int at = 0;
        for (byte[] part : held) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        System.arraycopy(buffer, 0, all, at, count);
        held.clear();
        return all;
    }

    @Override
    public void abort() throws IOException {
        if (finished) {
            return;
        }
        IOException reason = new IOException(file + ": upload abandoned");
        abortQuietly(reason);
        for (Throwable t : reason.getSuppressed()) {
            if (t instanceof SdkException e) {
                throw fs.translate(e, file);
            }
        }
    }

    private void abortQuietly(Throwable failure) {
        finished = true;
        ended();
        held.clear();
        buffer = new byte[0];
        if (uploadId == null) {
            return;
        }
        for (Future<CompletedPart> f : parts) {
            f.cancel(true);
        }
        for (Permit p : permits) {
            p.release(); // a part cancelled before it ran gives its places back here
        }
        for (Future<CompletedPart> f : parts) {
            try {
                f.get();
            } catch (Exception ignored) {
                // cancelled or failed: either way the part is discarded with the upload
            }
        }
        fs.abortUpload(key, uploadId, failure);
        fs.uploadEnded(this);
    }
}
