package dev.remotepath.s3;

import java.io.InterruptedIOException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The part buffers of one file system's uploads, within {@link S3Options#uploadMemory()},
 * counted in bytes (whole KiB): a buffer holds its room whether it is being filled, held back
 * below the multipart threshold or in flight. With one budget per writer, four transfers of large
 * files held 4 x 5 parts of 8 MiB and the command's RSS grew past 400 MB; with only parts in
 * flight counted, the buffers being filled and held back doubled the budget. Parts grow past an
 * upload's first 5,000 (S3UploadStream); a part larger than the whole budget takes all of it, so
 * it goes alone and memory is then that part. Buffers of {@code partSize} whose part was sent are
 * kept as spares for the next part of any writer, and dropped when no stream is open.
 */
final class S3PartBuffers {

    /** The budget's unit: permits count KiB, so a budget of terabytes still fits an int. */
    private static final int UNIT = 1024;

    private final int partSize;
    /** The budget's permits in all. */
    private final int budget;
    private final Semaphore room;
    private final ConcurrentLinkedQueue<byte[]> spares = new ConcurrentLinkedQueue<>();
    private final AtomicInteger spareCount = new AtomicInteger();
    private final AtomicInteger made = new AtomicInteger();

    S3PartBuffers(S3Options options) {
        this.partSize = options.partSize();
        this.budget = (int) Math.max(permitsOf(partSize), Math.min(Integer.MAX_VALUE, options.uploadMemory() / UNIT));
        this.room = new Semaphore(budget);
    }

    private static int permitsOf(long bytes) {
        return (int) ((bytes + UNIT - 1) / UNIT);
    }

    /** The permits a buffer of {@code size} bytes holds: its KiB, at most the whole budget. */
    private int permits(int size) {
        return Math.min(budget, permitsOf(size));
    }

    /**
     * Room for a buffer of {@code size} bytes and the buffer (a spare where there is one of that
     * size), or null when there is no room and {@code wait} is false. Taking the room and the
     * spare is one step, as {@link #done} is: a writer between the two would otherwise make a
     * spare look unwanted, and a finishing part would drop its buffer only for the writer to
     * allocate another.
     */
    synchronized byte[] take(int size, boolean wait) throws InterruptedIOException {
        int n = permits(size);
        while (!room.tryAcquire(n)) {
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
        if (size == partSize) {
            byte[] b = spares.poll();
            if (b != null) {
                spareCount.decrementAndGet();
                return b;
            }
        }
        // A grown part's room may be what the spares stood in: they go, so that buffers in use
        // and spares together stay within the budget.
        while ((long) spareCount.get() * permits(partSize) > room.availablePermits() && spares.poll() != null) {
            spareCount.decrementAndGet();
        }
        made.incrementAndGet();
        return new byte[size];
    }

    /**
     * Gives back the room of a buffer of {@code size} bytes, the buffer kept as a spare when
     * {@code reusable} (nothing reads it any more), of {@code partSize} bytes and a stream is
     * still open. Spares never take more than the free room, so buffers in use and spares
     * together never exceed the budget; with room and spares changed only under this object's
     * lock that always holds, and no reusable buffer is dropped while a stream is open.
     */
    synchronized void done(byte[] buffer, int size, boolean reusable, boolean streamsOpen) {
        int n = permits(size);
        if (reusable && buffer.length == partSize && streamsOpen
                && (long) (spareCount.get() + 1) * permits(partSize) <= room.availablePermits() + (long) n) {
            spareCount.incrementAndGet();
            spares.offer(buffer);
        }
        room.release(n);
        notifyAll();
    }

    /** Drops the spares: an idle file system keeps no part buffers. */
    synchronized void dropSpares() {
        while (spares.poll() != null) {
            spareCount.decrementAndGet();
        }
    }

    /** Buffers of {@code partSize} the free room holds now (the tests' view: all of them once every writer is done). */
    int freePlaces() {
        return room.availablePermits() / permits(partSize);
    }

    /** Buffers allocated so far, not taken from the spares (the tests' view of the budget). */
    int made() {
        return made.get();
    }
}
