package dev.remotepath.azure;

import com.azure.core.util.Context;
import com.azure.storage.blob.batch.BlobBatchClient;
import com.azure.storage.blob.batch.BlobBatchClientBuilder;
import com.azure.storage.blob.batch.BlobBatchStorageException;
import com.azure.storage.blob.models.DeleteSnapshotsOptionType;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Deletes many blobs through Blob Batch (256 deletes a request). Blobs already gone are not
 * errors. Where a batch reports failures, its blobs are deleted one by one, so every failure
 * is reported with its own path (the first thrown, the rest suppressed by it); where the
 * service has no batch endpoint at all, every delete is sent on its own from then on.
 */
final class AzureBatchDelete {

    /** Blob Batch's limit on the sub-requests of one batch. */
    static final int MAX_BATCH = 256;

    private final AzureFileSystem fs;
    private final AtomicBoolean batchRefused = new AtomicBoolean();
    private volatile BlobBatchClient batch;

    AzureBatchDelete(AzureFileSystem fs) {
        this.fs = fs;
    }

    void delete(List<RemotePath> files) throws IOException {
        List<String> names = new ArrayList<>(files.size());
        for (RemotePath f : files) {
            names.add(fs.name(f));
        }
        IOException first = null;
        for (int from = 0; from < files.size(); from += MAX_BATCH) {
            int to = Math.min(files.size(), from + MAX_BATCH);
            List<RemotePath> paths = files.subList(from, to);
            List<String> chunk = names.subList(from, to);
            if (chunk.size() == 1 || batchRefused.get() || !deletedInOneBatch(chunk)) {
                first = collect(first, oneByOne(paths, chunk));
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** True when the batch deleted (or found gone) every blob; false when some must be retried alone. */
    private boolean deletedInOneBatch(List<String> names) throws IOException {
        List<String> urls = new ArrayList<>(names.size());
        for (String n : names) {
            urls.add(fs.blob(n).getBlobUrl());
        }
        try {
            for (var response : batchClient().deleteBlobs(urls, DeleteSnapshotsOptionType.INCLUDE, null, Context.NONE)) {
                response.getStatusCode(); // each sub-request's answer; failures throw from the iteration
            }
            return true;
        } catch (BlobBatchStorageException e) {
            for (var failure : e.getBatchExceptions()) {
                if (!AzureErrors.isNotFound(failure)) {
                    return false;
                }
            }
            return true;
        } catch (RuntimeException e) {
            if (e instanceof com.azure.core.exception.HttpResponseException h && h.getResponse() != null
                    && (h.getResponse().getStatusCode() == 400 || h.getResponse().getStatusCode() == 403
                    || h.getResponse().getStatusCode() == 404 || h.getResponse().getStatusCode() == 405
                    || h.getResponse().getStatusCode() == 501)) {
                // No Blob Batch here (a proxy, an emulator), or not for these credentials (a SAS
                // may allow deletes but not batches): one request each from now on, each
                // failure then reported with its own path.
                batchRefused.set(true);
                return false;
            }
            throw AzureErrors.translate(e, fs.uriPrefix() + "/ (batch delete)");
        }
    }

    private BlobBatchClient batchClient() {
        BlobBatchClient b = batch;
        if (b == null) {
            synchronized (this) {
                if (batch == null) {
                    // container-scoped (POST /container?comp=batch), which a container SAS can authorise
                    batch = new BlobBatchClientBuilder(fs.client).buildClient();
                }
                b = batch;
            }
        }
        return b;
    }

    /** Deletes each blob with its own request, 8 at once; the first failure, others suppressed by it. */
    private IOException oneByOne(List<RemotePath> paths, List<String> names) {
        IOException first = null;
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(8);
            List<Future<IOException>> results = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                RemotePath path = paths.get(i);
                String name = names.get(i);
                results.add(each.submit(() -> {
                    slots.acquire();
                    try {
                        fs.blob(name).deleteWithResponse(DeleteSnapshotsOptionType.INCLUDE, null, null, Context.NONE);
                        return null;
                    } catch (RuntimeException e) {
                        return AzureErrors.isNotFound(e) ? null : AzureErrors.translate(e, path.toString());
                    } finally {
                        slots.release();
                    }
                }));
            }
            for (Future<IOException> r : results) {
                try {
                    first = collect(first, r.get());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return collect(first, new java.io.InterruptedIOException("interrupted while deleting"));
                } catch (java.util.concurrent.ExecutionException e) {
                    first = collect(first, new IOException("deleting failed", e.getCause()));
                }
            }
        }
        return first;
    }

    private static IOException collect(IOException first, IOException next) {
        if (next == null) {
            return first;
        }
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
