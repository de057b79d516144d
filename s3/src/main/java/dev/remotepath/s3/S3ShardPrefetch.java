package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;

/**
 * The first pages of a tree's first-level directories, each listed flat, fetched ahead of the
 * reader: at most {@link #IN_FLIGHT} requests at once and {@link #AHEAD} directories beyond
 * the one being read, so what waits in memory is bounded (at most {@code AHEAD} pages of
 * 1,000 keys) however large the tree. Handed out in the order given; later pages of a directory
 * are the reader's to fetch. {@link #close()} abandons what is still under way.
 */
final class S3ShardPrefetch implements AutoCloseable {

    /** Listing requests under way at once. */
    static final int IN_FLIGHT = 8;
    /** First pages fetched, or being fetched, beyond the one the reader takes. */
    static final int AHEAD = 16;

    /** One directory below the tree and the first page of its flat listing. */
    record Shard(String prefix, ListObjectsV2Response firstPage) {
    }

    private final S3FileSystem fs;
    private final RemotePath directory;
    private final List<String> prefixes;
    private final List<Future<ListObjectsV2Response>> pages = new ArrayList<>();
    private final Semaphore requests = new Semaphore(IN_FLIGHT);
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private int taken;

    S3ShardPrefetch(S3FileSystem fs, RemotePath directory, List<String> prefixes) {
        this.fs = fs;
        this.directory = directory;
        this.prefixes = prefixes;
        startUpTo(AHEAD);
    }

    private void startUpTo(int count) {
        while (pages.size() < Math.min(count, prefixes.size())) {
            String prefix = prefixes.get(pages.size());
            pages.add(threads.submit(() -> {
                requests.acquire();
                try {
                    return fs.listPage(directory, prefix, null, 1000, false);
                } finally {
                    requests.release();
                }
            }));
        }
    }

    boolean hasNext() {
        return taken < prefixes.size();
    }

    /** The next directory's first page, waiting for it if it has not come yet. */
    Shard next() throws IOException {
        int i = taken++;
        startUpTo(i + 1 + AHEAD);
        Future<ListObjectsV2Response> page = pages.get(i);
        pages.set(i, null); // taken: the page is the reader's now
        try {
            return new Shard(prefixes.get(i), page.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new InterruptedIOException(directory + ": interrupted while listing " + prefixes.get(i));
        } catch (ExecutionException | CancellationException e) {
            close();
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(directory + ": listing " + prefixes.get(i) + " failed: " + cause, cause);
        }
    }

    /** Abandons every page not taken yet: their requests are interrupted, their threads end. */
    @Override
    public void close() {
        for (Future<ListObjectsV2Response> page : pages) {
            if (page != null) {
                page.cancel(true);
            }
        }
        threads.shutdownNow();
    }
}
