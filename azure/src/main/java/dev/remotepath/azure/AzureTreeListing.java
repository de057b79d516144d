package dev.remotepath.azure;

import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobItemProperties;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A flat listing (List Blobs without a delimiter, 5,000 blobs a page, fetched as the caller
 * reads): every blob below a prefix, named by its path below it; a marker blob as its
 * directory. When it has run to its end, every directory it saw counts as listed to the end.
 */
final class AzureTreeListing implements DirectoryListing {

    private final AzureFileSystem fs;
    private final RemotePath directory;
    private final String prefix;
    private final AzurePages pages;
    private final ArrayDeque<ListedEntry> ready = new ArrayDeque<>();
    private final Set<String> directories = new HashSet<>();
    private boolean finished;

    AzureTreeListing(AzureFileSystem fs, RemotePath directory, String prefix, AzurePages pages, List<BlobItem> first)
            throws IOException {
        this.fs = fs;
        this.directory = directory;
        this.prefix = prefix;
        this.pages = pages;
        directories.add(prefix);
        take(first);
    }

    private void take(List<BlobItem> page) throws IOException {
        for (BlobItem item : page) {
            String name = item.getName();
            if (prefix.equals(name)) {
                continue; // this directory's own marker
            }
            AzurePages.requireUnder(directory, prefix, name);
            String rel = name.substring(prefix.length());
            int slash = name.lastIndexOf('/');
            if (slash >= prefix.length()) {
                directories.add(name.substring(0, slash + 1));
            }
            BlobItemProperties p = item.getProperties();
            long size = p == null || p.getContentLength() == null ? 0 : p.getContentLength();
            if (AzureBlobStats.isMarker(name, size, item.getMetadata())) {
                String dir = rel.endsWith("/") ? rel.substring(0, rel.length() - 1) : rel;
                directories.add(prefix + dir + "/");
                // as a listing of its parent reports it: a "dir/" marker is a prefix there, type only
                ready.add(new ListedEntry(dir, rel.endsWith("/") ? FileStat.ofType(FileType.DIRECTORY)
                        : AzureBlobStats.directoryStat(item.getMetadata(), p == null ? null : p.getLastModified())));
            } else {
                ready.add(new ListedEntry(rel, AzureBlobStats.fileStat(size, item.getMetadata(),
                        p == null ? null : p.getLastModified(), p == null ? null : p.getETag(),
                        p == null ? null : p.getContentMd5())));
            }
        }
    }

    @Override
    public boolean hasNext() throws IOException {
        while (ready.isEmpty() && !finished) {
            List<BlobItem> page = pages.next();
            if (page == null) {
                finished = true;
                fs.directories.treeListedToTheEnd(prefix, directories); // every directory seen, and those between
            } else {
                take(page);
            }
        }
        return !ready.isEmpty();
    }

    @Override
    public ListedEntry next() {
        return ready.remove();
    }
}
