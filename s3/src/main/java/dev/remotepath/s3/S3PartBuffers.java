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

    /**
     * A place and a buffer of {@code partSize} bytes for it (a spare where there is one), or
     * null when no place is free and {@code wait} is false. Taking the place and the spare is
     * one step, as {@link #done} is: a writer between the two would otherwise make a spare look
     * unwanted, and a finishing part would drop its buffer only for the writer to allocate
     * another.
     */
    synchronized byte[] take(boolean wait) throws InterruptedIOException {
        while (!places.tryAcquire()) {
            if (!wait) {
                return null;
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for room in uploadMemory");
            }
        }
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
     * it any more) and a stream is still open. Spares never outnumber the free places, so buffers
     * in use and spares together never exceed the budget; with places and spares changed only
     * under this object's lock that always holds, and no reusable buffer is dropped while a
     * stream is open.
     */
    synchronized void done(byte[] buffer, boolean reusable, boolean streamsOpen) {
        if (reusable && buffer.length == partSize && streamsOpen && spareCount.get() <= places.availablePermits()) {
            spareCount.incrementAndGet();
            spares.offer(buffer);
        }
        places.release();
        notifyAll();
    }

    /** Drops the spares: an idle file system keeps no part buffers. */
    synchronized void dropSpares() {
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
