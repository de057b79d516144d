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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One directory's entries from List Blobs pages with delimiter {@code /} and metadata, the next
 * page fetched only when the previous one is used up. Prefixes and marker blobs are
 * directories; the directory's own marker is left out; every blob's stat, mtime included, comes
 * from the listing. A blob and a prefix of the same name are both listed, and logged: a file
 * system cannot hold both, and merging them would hide one.
 */
final class AzureListing implements DirectoryListing {

    private static final Logger LOG = LoggerFactory.getLogger(AzureListing.class);

    private final AzureFileSystem fs;
    private final RemotePath directory;
    private final String prefix;
    private final AzurePages pages;
    private final ArrayDeque<ListedEntry> ready = new ArrayDeque<>();
    private final Set<String> files = new HashSet<>();
    private final Set<String> directories = new HashSet<>();
    private boolean finished;

    AzureListing(AzureFileSystem fs, RemotePath directory, String prefix, AzurePages pages, List<BlobItem> first)
            throws IOException {
        this.fs = fs;
        this.directory = directory;
        this.prefix = prefix;
        this.pages = pages;
        take(first);
    }

    private void take(List<BlobItem> page) throws IOException {
        for (BlobItem item : page) {
            String name = item.getName();
            if (Boolean.TRUE.equals(item.isPrefix())) {
                AzurePages.requireUnder(directory, prefix, name);
                if (!name.endsWith("/")) {
                    throw new IOException(directory + ": the service listed the prefix '" + name
                            + "', which does not end with the delimiter '/'");
                }
                directory(name, name.substring(prefix.length(), name.length() - 1));
                continue;
            }
            if (prefix.equals(name)) {
                continue; // this directory's own marker
            }
            AzurePages.requireUnder(directory, prefix, name);
            String child = name.substring(prefix.length());
            BlobItemProperties p = item.getProperties();
            long size = p == null || p.getContentLength() == null ? 0 : p.getContentLength();
            if (AzureBlobStats.isMarker(name, size, item.getMetadata())) {
                String dir = child.endsWith("/") ? child.substring(0, child.length() - 1) : child;
                directory((dir.isEmpty() ? prefix : prefix + dir) + "/", dir, AzureBlobStats.directoryStat(
                        item.getMetadata(), p == null ? null : p.getLastModified()));
                continue;
            }
            files.add(child);
            if (directories.contains(child)) {
                clash(child);
            }
            ready.add(new ListedEntry(child, AzureBlobStats.fileStat(size, item.getMetadata(),
                    p == null ? null : p.getLastModified(), p == null ? null : p.getETag(),
                    p == null ? null : p.getContentMd5())));
        }
    }

    private void directory(String subPrefix, String name) {
        directory(subPrefix, name, FileStat.ofType(FileType.DIRECTORY));
    }

    private void directory(String subPrefix, String name, FileStat stat) {
        if (!directories.add(name)) {
            return; // seen as a marker and as a prefix
        }
        if (files.contains(name)) {
            clash(name);
        }
        fs.directories.remember(subPrefix);
        ready.add(new ListedEntry(name, stat));
    }

    private void clash(String name) {
        LOG.warn("{}: both a blob and a directory are named '{}'; listing both", directory, name);
    }

    @Override
    public boolean hasNext() throws IOException {
        while (ready.isEmpty() && !finished) {
            List<BlobItem> page = pages.next();
            if (page == null) {
                finished = true;
                fs.directories.listedToTheEnd(prefix);
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
