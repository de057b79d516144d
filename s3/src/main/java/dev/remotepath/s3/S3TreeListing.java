package dev.remotepath.s3;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A flat listing ({@code ListObjectsV2} without a delimiter, 1,000 keys a page, fetched as
 * the caller reads): every object below a prefix, named by its key below it; a directory
 * marker ({@code a/b/}) as the directory {@code a/b}. When it has run to its end, every
 * directory it saw counts as listed to the end, as a per-directory listing's would (writes
 * into them then need no probe for a shadowing object).
 */
final class S3TreeListing implements DirectoryListing {

    private static final FileStat DIRECTORY = FileStat.ofType(FileType.DIRECTORY);

    private final S3FileSystem fs;
    private final RemotePath directory;
    private final String prefix;
    private final ArrayDeque<ListedEntry> ready = new ArrayDeque<>();
    private final Set<String> directories = new HashSet<>();
    private String continuation;
    private final dev.remotepath.spi.ContinuationGuard guard;
    private boolean finished;

    S3TreeListing(S3FileSystem fs, RemotePath directory, String prefix, ListObjectsV2Response first) throws IOException {
        this.fs = fs;
        this.directory = directory;
        this.prefix = prefix;
        this.guard = new dev.remotepath.spi.ContinuationGuard(directory.toString());
        directories.add(prefix);
        take(first);
    }

    private void take(ListObjectsV2Response page) throws IOException {
        for (S3Object o : page.contents()) {
            String key = o.key();
            if (key.equals(prefix)) {
                continue; // this directory's marker
            }
            if (!key.startsWith(prefix)) {
                // A listing that lies is no evidence: nothing below may be compared or deleted on it.
                throw new IOException(directory + ": the store listed the key '" + key + "', which is not under '" + prefix + "'");
            }
            String rel = key.substring(prefix.length());
            int slash = key.lastIndexOf('/');
            if (slash >= prefix.length()) {
                directories.add(key.substring(0, slash + 1));
            }
            if (rel.endsWith("/")) {
                ready.add(new ListedEntry(rel.substring(0, rel.length() - 1), DIRECTORY));
            } else {
                ready.add(new ListedEntry(rel, fs.stats.listedFileStat(o)));
            }
        }
        continuation = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        guard.page(page.contents().size(), continuation); // a lying store must not list forever
    }

    @Override
    public boolean hasNext() throws IOException {
        while (ready.isEmpty() && continuation != null) {
            fs.requireOpen();
            take(fs.listPage(directory, prefix, continuation, 1000, false));
        }
        if (ready.isEmpty() && !finished) {
            finished = true;
            // Every directory below, and every one above a key, was listed to its end here.
            fs.directories.treeListedToTheEnd(prefix, directories);
        }
        return !ready.isEmpty();
    }

    @Override
    public ListedEntry next() {
        return ready.remove();
    }
}
