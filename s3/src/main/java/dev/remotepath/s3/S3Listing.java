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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * One directory's entries from {@code ListObjectsV2} pages (delimiter {@code /}), the next page
 * fetched only when the previous one is used up. Common prefixes are directories; the
 * directory's own marker is left out. A key and a prefix of the same name (an object {@code a}
 * beside keys {@code a/...}) are both listed, a file and a directory, and logged: S3 allows it,
 * a file system cannot hold it, and merging them would hide one.
 */
final class S3Listing implements DirectoryListing {

    private static final Logger LOG = LoggerFactory.getLogger(S3Listing.class);
    private static final FileStat DIRECTORY = FileStat.ofType(FileType.DIRECTORY);

    private final S3FileSystem fs;
    private final RemotePath directory;
    private final String prefix;
    private final ArrayDeque<ListedEntry> ready = new ArrayDeque<>();
    private final Set<String> files = new HashSet<>();
    private final Set<String> directories = new HashSet<>();
    private String continuation;
    private final dev.remotepath.spi.ContinuationGuard guard;
    private boolean finished;

    S3Listing(S3FileSystem fs, RemotePath directory, String prefix, ListObjectsV2Response first) throws IOException {
        this.fs = fs;
        this.directory = directory;
        this.prefix = prefix;
        this.guard = new dev.remotepath.spi.ContinuationGuard(directory.toString());
        take(first);
    }

    private void take(ListObjectsV2Response page) throws IOException {
        for (S3Object o : page.contents()) {
            String key = o.key();
            if (key.equals(prefix)) {
                continue; // this directory's marker
            }
            requireUnder(key);
            String name = key.substring(prefix.length());
            if (name.endsWith("/") && name.indexOf('/') == name.length() - 1) {
                // A child's marker returned as an object rather than a common prefix (some
                // stores, s3proxy among them, do): it is that directory.
                directory(key, name.substring(0, name.length() - 1));
                continue;
            }
            files.add(name);
            if (directories.contains(name)) {
                clash(name);
            }
            ready.add(new ListedEntry(name, fs.stats.listedFileStat(o)));
        }
        for (CommonPrefix p : page.commonPrefixes()) {
            String sub = p.prefix();
            requireUnder(sub);
            if (!sub.endsWith("/")) {
                throw new IOException(directory + ": the store listed the common prefix '" + sub
                        + "', which does not end with the delimiter '/'");
            }
            directory(sub, sub.substring(prefix.length(), sub.length() - 1));
        }
        continuation = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        guard.page(page.contents().size() + page.commonPrefixes().size(), continuation); // a lying store must not list forever
    }

    /** A listing that names a key outside its prefix lies: no evidence for anything below it. */
    private void requireUnder(String key) throws IOException {
        if (!key.startsWith(prefix) || key.length() == prefix.length()) {
            throw new IOException(directory + ": the store listed '" + key + "', which is not below '" + prefix + "'");
        }
    }

    private void directory(String subPrefix, String name) {
        if (!directories.add(name)) {
            return; // seen as a marker and as a common prefix
        }
        if (files.contains(name)) {
            clash(name);
        }
        fs.directories.remember(subPrefix);
        ready.add(new ListedEntry(name, DIRECTORY));
    }

    private void clash(String name) {
        LOG.warn("{}: both an object and a directory are named '{}'; listing both", directory, name);
    }

    @Override
    public boolean hasNext() throws IOException {
        while (ready.isEmpty() && continuation != null) {
            fs.requireOpen();
            guard.asking(); // the reader's time between pages is not the store's
            take(fs.listPage(directory, prefix, continuation, 1000, true));
        }
        if (ready.isEmpty() && !finished) {
            finished = true;
            fs.directories.listedToTheEnd(prefix);
        }
        return !ready.isEmpty();
    }

    @Override
    public ListedEntry next() {
        return ready.remove();
    }
}
