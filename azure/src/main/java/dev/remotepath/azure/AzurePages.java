package dev.remotepath.azure;

import com.azure.core.http.rest.PagedResponse;
import com.azure.storage.blob.models.BlobItem;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The pages of one List Blobs call, each fetched when asked for; SDK failures come out as the
 * {@code java.nio.file} exceptions {@link AzureErrors} gives, naming the listed directory.
 */
final class AzurePages {

    private final AzureFileSystem fs;
    private final RemotePath directory;
    private final Supplier<Iterator<PagedResponse<BlobItem>>> start;
    private Iterator<PagedResponse<BlobItem>> pages;
    private final dev.remotepath.spi.ContinuationGuard guard;

    /** @param start begins the listing; the SDK's iterator fetches the first page as it is made */
    AzurePages(AzureFileSystem fs, RemotePath directory, Supplier<Iterator<PagedResponse<BlobItem>>> start) {
        this.fs = fs;
        this.directory = directory;
        this.start = start;
        this.guard = new dev.remotepath.spi.ContinuationGuard(directory.toString());
    }

    /** The next page's items, or null after the last. */
    List<BlobItem> next() throws IOException {
        fs.requireOpen();
        try {
            guard.asking(); // the SDK's iterator asks when it is asked; the reader's time between pages is not the service's
            if (pages == null) {
                pages = start.get();
            }
            if (!pages.hasNext()) {
                return null;
            }
            PagedResponse<BlobItem> page = pages.next();
            guard.page(page.getValue().size(), page.getContinuationToken());
            return page.getValue();
        } catch (RuntimeException e) {
            throw AzureErrors.translate(e, directory.toString());
        }
    }

    /** A listing that names a blob outside its prefix lies: no evidence for anything below it. */
    static void requireUnder(RemotePath directory, String prefix, String name) throws IOException {
        if (name == null || !name.startsWith(prefix) || name.length() == prefix.length()) {
            throw new IOException(directory + ": the service listed '" + name + "', which is not below '" + prefix + "'");
        }
    }
}
