package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.AbortableOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileSystemException;
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
 * {@link S3Options#uploadConcurrency()} at once, the writer waiting when all are busy. S3 takes
 * 10,000 parts and a stream cannot know its size ahead, so past the first
 * {@value #FLAT_STEPS} x {@value #PARTS_PER_STEP} parts they double every
 * {@value #PARTS_PER_STEP}, up to {@value #MAX_GROWTH} times {@code partSize} (S3 lets an
 * upload's parts differ in size): 523 GiB at 8 MiB, where fixed parts held 78 GiB, and objects
 * below 39 GiB are sent as before. Every part buffer (the one being filled, parts held back below
 * the threshold, parts in flight) holds its bytes in the file system's
 * {@link S3Options#uploadMemory()} budget, so memory stays bounded whatever the objects' sizes
 * and the number of writers (a part larger than the budget goes alone). Any failure, and
 * {@link #abort()}, aborts the multipart upload so that no parts are left behind.
 */
final class S3UploadStream extends AbortableOutputStream {

    private final S3FileSystem fs;
    private final RemotePath file;
    private final String key;
    private final Map<String, String> metadata;
    /** The first parts' size, {@link S3Options#partSize()}; buffers smaller than it are not part buffers. */
    private final int partSize;
    /** Parts sent before their size doubles, past the first {@link #FLAT_STEPS} steps (tests make it small). */
    private final int partsPerStep;
    private final long threshold;
    private final Semaphore slots;
    /** Full parts held back until the object is known to exceed the threshold. */
    private final List<byte[]> held = new ArrayList<>();
    private final List<Future<CompletedPart>> parts = new ArrayList<>();
    private final List<Permit> permits = new ArrayList<>();
    /** Smaller than {@code partSize} while it grows (outside the budget), then a part buffer (inside it). */
    private byte[] buffer = new byte[8 * 1024];
    private int count;
    private long total;
    private volatile String uploadId;
    private boolean finished;
    /** Publish only if no object has the key (If-None-Match: *): CREATE_NEW. */
    private final boolean createOnly;

    /** Parts of a step: {@value} (so 5,000 parts of {@code partSize} before the first doubling). */
    static final int PARTS_PER_STEP = 1000;
    /** Steps of {@code partSize} parts before they grow. */
    static final int FLAT_STEPS = 5;
    /** The most a part grows: to 32 times {@code partSize} (256 MiB at 8 MiB), and never past 1 GiB unless {@code partSize} is. */
    static final int MAX_GROWTH = 32;
    private static final int MAX_GROWN_PART = 1 << 30;

    S3UploadStream(S3FileSystem fs, RemotePath file, String key, Map<String, String> metadata, boolean createOnly) {
        this(fs, file, key, metadata, createOnly, PARTS_PER_STEP);
    }

    S3UploadStream(S3FileSystem fs, RemotePath file, String key, Map<String, String> metadata, boolean createOnly,
            int partsPerStep) {
        this.fs = fs;
        this.partsPerStep = partsPerStep;
        this.createOnly = createOnly;
        this.file = file;
        this.key = key;
        this.metadata = metadata;
        this.partSize = fs.options().partSize();
        this.threshold = fs.options().multipartThreshold();
        this.slots = new Semaphore(fs.options().uploadConcurrency());
        fs.streams.streamOpened();
    }

    private boolean ended;

    /** Counted as ended once, however it ends: closed, failed or aborted. */
    private void ended() {
        if (!ended) {
            ended = true;
            fs.streams.streamEnded();
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
                if (count >= partSize) { // a part buffer, full
                    partFull();
                } else {
                    grow();
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

    /** Doubles the buffer; its last step takes a part buffer, and with it room in the budget. */
    private void grow() throws IOException {
        long doubled = Math.max(8 * 1024, (long) buffer.length * 2);
        if (doubled < partSize) { // the first part's size: a small object stays small
            buffer = Arrays.copyOf(buffer, (int) doubled);
            return;
        }
        byte[] part = takePartBuffer();
        System.arraycopy(buffer, 0, part, 0, count);
        buffer = part;
    }

    /** The buffer is full and more bytes follow. */
    private void partFull() throws IOException {
        byte[] part = buffer;
        buffer = NO_BUFFER;
        count = 0;
        if (uploadId == null) {
            held.add(part); // sent by begin(), or given back with the rest if it fails
            if (total >= threshold) {
                begin(); // more bytes follow, so the object is past the threshold: send rather than hold
            }
        } else {
            submit(part, part.length);
        }
        buffer = takePartBuffer();
    }

    private static final byte[] NO_BUFFER = new byte[0];

    /** The number (from 1) of the part being filled. */
    private int partNumber() {
        return parts.size() + held.size() + 1;
    }

    /**
     * The size of part {@code number} (from 1): {@code base} for the first {@link #FLAT_STEPS}
     * steps of {@code perStep} parts, then doubled every step up to {@link #MAX_GROWTH} times.
     */
    static int partSize(int base, int number, int perStep) {
        int steps = (number - 1) / perStep - FLAT_STEPS + 1;
        if (steps <= 0) {
            return base;
        }
        long grown = (long) base * Math.min(MAX_GROWTH, 1L << Math.min(30, steps));
        return (int) Math.min(grown, Math.max(base, MAX_GROWN_PART));
    }

    /** The most one upload's {@value S3Options#MAX_PARTS} parts hold. */
    static long capacity(int base, int perStep) {
        long total = 0;
        for (int n = 1; n <= S3Options.MAX_PARTS; n++) {
            total += partSize(base, n, perStep);
        }
        return total;
    }

    /**
     * A buffer for the part being filled, once the budget has room for it. Part buffers are
     * reused from part to part and writer to writer (the file system's spares): a fresh 8 MiB
     * array per part left the heap, and the process's RSS, full of dead ones until a full
     * collection. A writer holding parts back below the threshold does not wait for a place: every
     * place could be held back by writers each waiting for one more, with nothing in flight to
     * free one; it starts its multipart upload instead (the object is then multipart though it
     * may end below the threshold).
     */
    private byte[] takePartBuffer() throws IOException {
        int size = partSize(partSize, partNumber(), partsPerStep);
        byte[] b = fs.streams.partBuffers.take(size, false);
        if (b != null) {
            return b;
        }
        if (!held.isEmpty()) {
            begin();
        }
        try {
            return fs.streams.partBuffers.take(size, true);
        } catch (InterruptedIOException e) {
            abortQuietly(new InterruptedIOException(file + ": interrupted"));
            throw new InterruptedIOException(file + ": upload interrupted");
        }
    }

    /** Gives back the places of the buffers never sent: held parts and the one being filled. */
    private void dropBuffers() {
        held.forEach(this::giveBack);
        held.clear();
        giveBack(buffer);
        buffer = NO_BUFFER;
        count = 0;
    }

    /** Gives a part buffer's room back, and the buffer to the spares; a smaller buffer had none. */
    private void giveBack(byte[] b) {
        if (b.length >= partSize) {
            fs.streams.partBufferDone(b, b.length, true);
        }
    }

    /** Past the threshold: start the multipart upload and send what was held back. */
    private void begin() throws IOException {
        try {
            fs.streams.abortStaleUploads(key);
            uploadId = fs.client().createMultipartUpload(c -> c.bucket(fs.bucket()).key(key).metadata(metadata)
                    .contentType(S3FileSystem.OCTET_STREAM)).uploadId();
        } catch (SdkException e) {
            finished = true;
            dropBuffers();
            ended();
            throw fs.translate(e, file);
        }
        fs.streams.uploadStarted(this);
        while (!held.isEmpty()) {
            byte[] part = held.removeFirst(); // out of the list first: a failed submit has given its place back
            submit(part, part.length);
        }
    }

    /**
     * S3 takes at most {@value S3Options#MAX_PARTS} parts in an upload; the next one would fail
     * on the server after the rest were sent. A stream cannot know its size ahead, so a larger
     * object fails here, before the part is sent, saying which option lets it through.
     */
    static void requirePartNumber(int number, int partSize, int perStep, RemotePath file) throws IOException {
        if (number > S3Options.MAX_PARTS) {
            throw new FileSystemException(file.toString(), null, "larger than S3's " + S3Options.MAX_PARTS
                    + " parts hold (" + (capacity(partSize, perStep) >> 20) + " MiB in parts growing from " + partSize
                    + " to " + partSize(partSize, S3Options.MAX_PARTS, perStep) + " bytes); raise S3Options.partSize");
        }
    }

    /** The multipart upload's id once it has begun. */
    java.util.Optional<String> uploadId() {
        return java.util.Optional.ofNullable(uploadId);
    }

    private void submit(byte[] content, int length) throws IOException {
        int number = parts.size() + 1;
        try {
            requirePartNumber(number, partSize, partsPerStep, file);
        } catch (IOException tooLarge) {
            giveBack(content);
            abortQuietly(tooLarge);
            throw tooLarge;
        }
        try {
            slots.acquire(); // the part's place in the budget came with its buffer
        } catch (InterruptedException e) {
            giveBack(content);
            Thread.currentThread().interrupt();
            abortQuietly(new InterruptedIOException(file + ": interrupted"));
            throw new InterruptedIOException(file + ": upload interrupted");
        }
        Permit permit = new Permit(content.length >= partSize ? content.length : 0);
        try {
            failFast();
        } catch (IOException | RuntimeException e) {
            permit.release(); // the file system's budget outlives this writer
            throw e;
        }
        String id = uploadId;
        Future<CompletedPart> part;
        try {
            part = fs.streams.partUploads.submit(() -> {
                try {
                    var r = fs.client().uploadPart(u -> u.bucket(fs.bucket()).key(key).uploadId(id).partNumber(number)
                            .contentLength((long) length), RequestBody.fromContentProvider(
                                    () -> new ByteArrayInputStream(content, 0, length), length, S3FileSystem.OCTET_STREAM));
                    return CompletedPart.builder().partNumber(number).eTag(r.eTag()).build();
                } finally {
                    permit.release(content); // the SDK is done with it: retries re-read it only within uploadPart
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
     * One part's places in this writer's and (for a part buffer) the file system's budgets, given
     * back exactly once: by the part's task when it ends, or by an abort that cancelled it before
     * it ran (whose buffer then never goes back to the spares: the task may still be reading it).
     */
    private final class Permit {
        private final java.util.concurrent.atomic.AtomicBoolean held = new java.util.concurrent.atomic.AtomicBoolean(true);
        /** The bytes of room its part buffer holds in the file system's budget (0: a smaller buffer holds none). */
        private final int budgeted;

        Permit(int budgeted) {
            this.budgeted = budgeted;
        }

        /** Gives the places back, without the buffer: a task may still be reading it. */
        void release() {
            release(null);
        }

        /** Gives the places back, and {@code done} (no longer read) to the spares. */
        void release(byte[] done) {
            if (!held.compareAndSet(true, false)) {
                return;
            }
            if (budgeted > 0) {
                fs.streams.partBufferDone(done == null ? NO_BUFFER : done, budgeted, done != null);
            }
            slots.release();
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
            try {
                putWhole();
            } finally {
                dropBuffers();
            }
            fs.published(file);
            return;
        }
        try {
            byte[] last = buffer;
            int length = count;
            buffer = NO_BUFFER; // the place goes with the part now, or back here
            count = 0;
            if (length > 0) {
                submit(last, length);
            } else {
                giveBack(last);
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
            fs.streams.uploadEnded(this);
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

    /** One PUT of what was written, read from the held parts and the buffer as they are (no copy). */
    private void putWhole() throws IOException {
        if (held.isEmpty()) {
            fs.putObject(file, key, buffer, count, metadata, S3FileSystem.OCTET_STREAM, createOnly);
            return;
        }
        List<byte[]> chunks = List.copyOf(held);
        byte[] last = buffer;
        int lastLength = count;
        fs.putObject(file, key, () -> {
            List<java.io.InputStream> streams = new ArrayList<>();
            for (byte[] c : chunks) {
                streams.add(new ByteArrayInputStream(c));
            }
            streams.add(new ByteArrayInputStream(last, 0, lastLength));
            return new java.io.SequenceInputStream(java.util.Collections.enumeration(streams));
        }, total, metadata, S3FileSystem.OCTET_STREAM, createOnly);
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
        dropBuffers(); // never sent: no task reads them
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
        fs.streams.abortUpload(key, uploadId, failure);
        fs.streams.uploadEnded(this);
    }
}
