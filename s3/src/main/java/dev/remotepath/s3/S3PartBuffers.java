package dev.remotepath.s3;

import java.io.InterruptedIOException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The part buffers of one file system's uploads, within {@link S3Options#uploadMemory()}: one
 * place per buffer of {@code partSize} bytes, whether it is being filled, held back below the
 * multipart threshold or in flight. With one budget per writer, four transfers of large files held
 * 4 x 5 parts of 8 MiB and the command's RSS grew past 400 MB; with only parts in flight counted,
 * the buffers being filled and held back doubled the budget. Buffers whose part was sent are kept
 * as spares for the next part of any writer, and dropped when no stream is open.
 */
final class S3PartBuffers {

    private final int partSize;
    private final Semaphore places;
    private final ConcurrentLinkedQueue<byte[]> spares = new ConcurrentLinkedQueue<>();
    private final AtomicInteger spareCount = new AtomicInteger();
    private final AtomicInteger made = new AtomicInteger();

    S3PartBuffers(S3Options options) {
        this.partSize = options.partSize();
        this.places = new Semaphore((int) Math.max(1, Math.min(Integer.MAX_VALUE, options.uploadMemory() / partSize)));
    }

    /** Takes a place if one is free now. */
    boolean tryTakePlace() {
        return places.tryAcquire();
    }

    /** Waits for a place. */
    void takePlace() throws InterruptedIOException {
        try {
            places.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for room in uploadMemory");
        }
    }

    /** A buffer of {@code partSize} bytes for a place already taken, reused where one is spare. */
    byte[] buffer() {
        byte[] b = spares.poll();
        if (b != null) {
            spareCount.decrementAndGet();
            return b;
        }
        made.incrementAndGet();
        return new byte[partSize];
    }

    /**
     * Gives a buffer's place back, the buffer kept as a spare when {@code reusable} (nothing reads
     * it any more) and a stream is still open. Spares are kept only while the budget has room for
     * them to go out again, so buffers in use and spares together never exceed it; the spare is
     * offered before the place is released, so a writer waiting for that place finds it instead
     * of allocating another.
     */
    void done(byte[] buffer, boolean reusable, boolean streamsOpen) {
        if (reusable && buffer.length == partSize && streamsOpen && spareCount.get() <= places.availablePermits()) {
            spareCount.incrementAndGet();
            spares.offer(buffer);
        }
        places.release();
    }

    /** Drops the spares: an idle file system keeps no part buffers. */
    void dropSpares() {
        while (spares.poll() != null) {
            spareCount.decrementAndGet();
        }
    }

    /** Places free now (the tests' view: all of them once every writer is done). */
    int freePlaces() {
        return places.availablePermits();
    }

    /** Buffers allocated so far, not taken from the spares (the tests' view of the budget). */
    int made() {
        return made.get();
    }
}
