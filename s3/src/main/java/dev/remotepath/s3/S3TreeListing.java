package dev.remotepath.s3;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ContinuationGuard;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A flat listing ({@code ListObjectsV2} without a delimiter, 1,000 keys a page, fetched as
 * the caller reads): every object below a prefix, named by its key below it; a directory
 * marker ({@code a/b/}) as the directory {@code a/b}. When it has run to its end, every
 * directory it saw counts as listed to the end, as a per-directory listing's would (writes
 * into them then need no probe for a shadowing object).
 *
 * <p>A tree of one page is one request. A larger one with directories in its first page is
 * listed by its first level instead: one delimited page names the files and the directories
 * directly below, and each of those directories is listed flat on its own, several at once
 * ({@link S3ShardPrefetch}). Pages of one listing follow each other, so a tree of 10,000 keys
 * listed whole takes ten round trips in a row, and a store that answers each page by walking
 * the whole bucket (s3proxy's filesystem store) walks it ten times; by its first level the
 * pages go out together and each walks one directory. The delimited page and the prefixes
 * cover every key by construction (a key directly below is a file of that page, any other lies
 * under exactly one of its common prefixes), whatever order the store lists in; the first page
 * is dropped, so no key is listed twice. Where the first level does not fit in one page, or the
 * first page holds files only, or the delimited page does not account for every directory the
 * first page reaches into (a store that does not honour the delimiter as S3 does), the flat
 * listing simply goes on.
 */
final class S3TreeListing implements DirectoryListing {

    private static final Logger LOG = LoggerFactory.getLogger(S3TreeListing.class);
    private static final FileStat DIRECTORY = FileStat.ofType(FileType.DIRECTORY);
    private static final int PAGE = 1000;

    private final S3FileSystem fs;
    private final RemotePath directory;
    private final String prefix;
    private final ArrayDeque<ListedEntry> ready = new ArrayDeque<>();
    private final Set<String> directories = new HashSet<>();
    /** Keys the delimited page listed: a directory's marker among them names it already. */
    private final Set<String> markersListed = new HashSet<>();
    /** The prefix the pages now read lie under: the tree's, or one directory's below it. */
    private String pagePrefix;
    private String continuation;
    private ContinuationGuard guard;
    private S3ShardPrefetch shards;
    private boolean finished;

    S3TreeListing(S3FileSystem fs, RemotePath directory, String prefix, ListObjectsV2Response first) throws IOException {
        this.fs = fs;
        this.directory = directory;
        this.prefix = prefix;
        this.pagePrefix = prefix;
        this.guard = new ContinuationGuard(directory.toString());
        directories.add(prefix);
        if (fs.options().flatListingsByFirstLevel() && truncated(first) && holdsADirectory(first)) {
            ListObjectsV2Response level = fs.listPage(directory, prefix, null, PAGE, true);
            if (!truncated(level)) {
                List<String> below = directoriesBelow(level);
                if (coversTheFirstPage(first, below)) {
                    take(level, prefix);
                    for (S3Object o : level.contents()) {
                        markersListed.add(o.key()); // a directory's marker listed as a key is named here
                    }
                    shards = new S3ShardPrefetch(fs, directory, below);
                    return;
                }
                LOG.debug("{}: the store's delimited listing of '{}' does not account for its flat listing's first page;"
                        + " listing it page after page", directory, prefix);
            }
        }
        take(first, prefix);
    }

    private static boolean truncated(ListObjectsV2Response page) {
        return Boolean.TRUE.equals(page.isTruncated());
    }

    /** Whether a page of the flat listing reaches below the first level. */
    private boolean holdsADirectory(ListObjectsV2Response page) {
        for (S3Object o : page.contents()) {
            if (o.key().indexOf('/', prefix.length()) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The directories a delimited page names directly below the tree, or nothing if the page is
     * not one S3 would give: each common prefix, checked (one level below the tree's prefix,
     * ending in the delimiter: a deeper one would be listed alone and hide its siblings), and each
     * directory marker listed as a key ({@code a/b/}, which S3 rolls into the prefix {@code a/b/}
     * and s3proxy's transient store lists as an object). A key deeper than the first level means
     * the store ignored the delimiter: empty, so the flat listing goes on.
     */
    private List<String> directoriesBelow(ListObjectsV2Response level) throws IOException {
        Set<String> below = new LinkedHashSet<>(); // a store that names a prefix twice gets it listed once
        for (CommonPrefix p : level.commonPrefixes()) {
            String sub = p.prefix();
            if (sub == null || !sub.startsWith(prefix) || sub.length() == prefix.length()) {
                throw new IOException(directory + ": the store listed the common prefix '" + sub
                        + "', which is not below '" + prefix + "'");
            }
            if (sub.indexOf('/', prefix.length()) != sub.length() - 1) {
                throw new IOException(directory + ": the store listed the common prefix '" + sub
                        + "', which is not one level below '" + prefix + "' ending in the delimiter '/'");
            }
            below.add(sub);
        }
        for (S3Object o : level.contents()) {
            int slash = o.key().indexOf('/', prefix.length());
            if (slash == o.key().length() - 1 && o.key().startsWith(prefix)) {
                below.add(o.key());
            } else if (slash >= 0) {
                return List.of();
            }
        }
        return List.copyOf(below);
    }

    /**
     * Whether the directories of a delimited page account for every key of the first flat page
     * below the first level, as S3 promises. A store whose delimited page leaves a directory
     * out (or whose first page holds a foreign key, which taking it then reports) would have
     * the directory missed: every file below it unlisted, copied again by a sync and never
     * deleted there.
     */
    private boolean coversTheFirstPage(ListObjectsV2Response first, List<String> below) {
        if (below.isEmpty()) {
            return false; // the first page reaches below the first level, so a directory is there
        }
        Set<String> named = Set.copyOf(below);
        for (S3Object o : first.contents()) {
            if (!o.key().startsWith(prefix)) {
                return false;
            }
            int slash = o.key().indexOf('/', prefix.length());
            if (slash >= 0 && !named.contains(o.key().substring(0, slash + 1))) {
                return false;
            }
        }
        return true;
    }

    /** Takes a page of keys, each of which must lie under {@code under}, but the marker of {@code under} itself. */
    private void take(ListObjectsV2Response page, String under) throws IOException {
        for (S3Object o : page.contents()) {
            String key = o.key();
            if (key.equals(prefix) || key.equals(under)) {
                continue; // the tree's marker, or a first-level directory's, which is named with its listing
            }
            if (!key.startsWith(under)) {
                // A listing that lies is no evidence: nothing below may be compared or deleted on it.
                throw new IOException(directory + ": the store listed the key '" + key + "', which is not under '" + under + "'");
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
        continuation = truncated(page) ? page.nextContinuationToken() : null;
        guard.page(page.contents().size(), continuation); // a lying store must not list forever
    }

    @Override
    public boolean hasNext() throws IOException {
        while (ready.isEmpty()) {
            fs.requireOpen();
            if (continuation != null) {
                guard.asking(); // the reader's time between pages is not the store's
                take(fs.listPage(directory, pagePrefix, continuation, PAGE, false), pagePrefix);
            } else if (shards != null && shards.hasNext()) {
                S3ShardPrefetch.Shard shard = shards.next();
                pagePrefix = shard.prefix();
                guard = new ContinuationGuard(directory + " (" + shard.prefix() + ")"); // tokens are per listing
                directories.add(shard.prefix()); // listed to its end here, even when it holds only its marker
                if (!markersListed.contains(shard.prefix())) {
                    // Named once here, by the delimited page's word: a store may or may not list
                    // a directory's marker in its own listing, or keep one at all.
                    String name = shard.prefix().substring(prefix.length(), shard.prefix().length() - 1);
                    ready.add(new ListedEntry(name, DIRECTORY));
                }
                take(shard.firstPage(), pagePrefix);
            } else {
                break;
            }
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

    @Override
    public void close() {
        if (shards != null) {
            shards.close();
        }
    }
}
