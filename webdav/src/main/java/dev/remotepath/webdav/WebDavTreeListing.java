package dev.remotepath.webdav;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.eclipse.jetty.http.HttpFields;

/**
 * A whole tree listed by one {@code PROPFIND Depth: infinity} ({@link WebDavFileSystem#listTree}),
 * read as it streams: each response is an entry named by its path below the directory
 * ({@code a/b.txt}), with the same checks as a {@code Depth: 1} listing's members (an href outside
 * the directory, a name holding an encoded {@code /}, a member the server cannot describe: the
 * listing fails). The api validates every name and bounds the entries
 * ({@link dev.remotepath.tree.FlatIndex}); the answer's bytes are bounded here by
 * {@code maxListingBytes}.
 *
 * <p>Whatever makes the answer unfit to stand for the whole tree ends it with
 * {@link UnsupportedOperationException}, so the caller lists directory by directory as without a
 * flat listing: an answer larger than {@code maxListingBytes} or slower than
 * {@code listingTimeout}, and one that may have stopped short. Some servers answer
 * {@code Depth: infinity} as a lesser depth without saying so (sabre/dav, behind Nextcloud, as
 * {@code Depth: 1}), and such an answer looks like a tree whose deepest directories are empty.
 * So where the deepest entries include directories, those are listed with {@code Depth: 1}
 * (at most {@value #MAX_CHECKED}): any member there means the server cut the tree short, and
 * the file system stops asking it for trees. Taking the cut answer for the tree would tell a
 * sync that those directories are empty, and make it delete their counterparts.
 */
final class WebDavTreeListing implements DirectoryListing {

    /** The deepest directories checked by their own listing at most; more, and the tree is walked. */
    static final int MAX_CHECKED = 16;

    private final WebDavFileSystem fs;
    private final WebDavWire.Exchange exchange;
    private final Multistatus.Reader reader;
    private final WebDavMtimes mtimes;
    private final RemotePath directory;
    private final URI uri;
    private final String dir;
    private final String prefix;
    private ListedEntry next;
    private boolean ended;
    /** The greatest depth of any entry; the directory itself is at 0. */
    private int deepest;
    /** The greatest depth of any directory, and those at it (up to one more than {@link #MAX_CHECKED}). */
    private int deepestDirectory;
    private final List<String> deepestDirectories = new ArrayList<>();

    /**
     * Sends the PROPFIND of {@code directory}'s tree; its answer is read as the listing is. A
     * missing directory (or one below a file) fails as its listing does; any other refusal
     * ends in {@link UnsupportedOperationException}, and the file system asks no more trees.
     */
    static DirectoryListing open(WebDavFileSystem fs, WebDavWire wire, WebDavMtimes mtimes, RemotePath directory,
            byte[] propfind, long maxBytes) throws IOException {
        URI uri = fs.uriOf(directory, true);
        HttpFields extra = HttpFields.build().put("Depth", "infinity");
        WebDavWire.Exchange ex = wire.send("PROPFIND", uri, extra, propfind, "application/xml; charset=utf-8");
        int status = ex.status();
        if (status == 207) {
            return new WebDavTreeListing(fs, ex, mtimes, directory, uri, maxBytes);
        }
        ex.close();
        if (status == 404 || status == 410) {
            // NoSuchFileException, or NotDirectoryException below a file, as the listing says
            try (DirectoryListing appeared = fs.list(directory, ListDetail.TYPES)) {
                throw new UnsupportedOperationException(directory + " appeared while its tree was listed");
            }
        }
        throw fs.treeListingRefused("PROPFIND Depth: infinity of " + directory + " answered HTTP " + status);
    }

    private WebDavTreeListing(WebDavFileSystem fs, WebDavWire.Exchange exchange, WebDavMtimes mtimes, RemotePath directory,
            URI uri, long maxBytes) throws IOException {
        this.fs = fs;
        this.exchange = exchange;
        this.mtimes = mtimes;
        this.directory = directory;
        this.uri = uri;
        this.dir = directory.pathString();
        this.prefix = dir.endsWith("/") ? dir : dir + "/";
        this.deepestDirectories.add(""); // the directory itself, until something deeper is listed
        try {
            this.reader = new Multistatus.Reader(new Bounded(exchange.body().getInputStream(), maxBytes));
        } catch (Multistatus.MalformedException e) {
            exchange.close();
            throw new FileSystemException(directory.toString(), null, "PROPFIND " + uri + ": " + e.getMessage());
        } catch (Bounded.TooLarge e) {
            exchange.close();
            throw tooLarge(e);
        } catch (IOException e) {
            exchange.close();
            throw streamFailure(e);
        } catch (RuntimeException e) {
            exchange.close();
            throw e;
        }
    }

    @Override
    public boolean hasNext() throws IOException {
        if (next != null) {
            return true;
        }
        if (ended) {
            return false;
        }
        while (true) {
            Multistatus.Response r = read();
            if (r == null) {
                ended = true;
                exchange.close();
                checkNotCutShort();
                return false;
            }
            ListedEntry e = entry(r);
            if (e != null) {
                next = e;
                return true;
            }
        }
    }

    /** The answer's next response, or null at its end. */
    private Multistatus.Response read() throws IOException {
        try {
            return reader.next();
        } catch (Multistatus.MalformedException e) {
            throw new FileSystemException(directory.toString(), null, "PROPFIND " + uri + ": " + e.getMessage());
        } catch (Bounded.TooLarge e) {
            throw tooLarge(e);
        } catch (IOException e) {
            throw streamFailure(e);
        }
    }

    /** The answer's stream failed: past {@code listingTimeout} the tree is left to the walk; else it fails. */
    private IOException streamFailure(IOException e) {
        IOException failure = WebDavWire.transportFailure("PROPFIND", uri, e);
        if (failure instanceof SocketTimeoutException) {
            throw fs.treeListingRefused("PROPFIND Depth: infinity of " + directory
                    + " took longer than WebDavOptions.listingTimeout");
        }
        return failure;
    }

    private UnsupportedOperationException tooLarge(Bounded.TooLarge e) {
        return new UnsupportedOperationException("PROPFIND Depth: infinity of " + directory
                + ": the answer is larger than WebDavOptions.maxListingBytes (" + e.max + ")");
    }

    @Override
    public ListedEntry next() throws IOException {
        if (!hasNext()) {
            throw new java.util.NoSuchElementException();
        }
        ListedEntry e = next;
        next = null;
        return e;
    }

    /** The entry a response stands for, or null for the directory's own response. */
    private ListedEntry entry(Multistatus.Response r) throws IOException {
        String p = Hrefs.path(r.href(), uri, directory);
        if (p.equals(dir)) {
            if (!r.collection()) {
                throw new NotDirectoryException(directory.toString());
            }
            return null;
        }
        if (!p.startsWith(prefix)) {
            throw new FileSystemException(directory.toString(), null, "the server listed " + r.href()
                    + ", which is not below this directory: refusing the listing");
        }
        if (r.href().toLowerCase(Locale.ROOT).contains("%2f")) {
            // decoded, it would read as a path one level further down, under a directory that is not there
            throw new FileSystemException(directory.toString(), null, "the server listed " + r.href()
                    + ", whose name holds an encoded '/': refusing the listing");
        }
        if (r.status() >= 300) {
            throw WebDavErrors.undescribedMember(directory, r.href(), r.status());
        }
        String rel = p.substring(prefix.length());
        int depth = 1;
        for (int i = rel.indexOf('/'); i >= 0; i = rel.indexOf('/', i + 1)) {
            depth++;
        }
        deepest = Math.max(deepest, depth);
        if (r.collection() && depth >= deepestDirectory) {
            if (depth > deepestDirectory) {
                deepestDirectory = depth;
                deepestDirectories.clear();
            }
            if (deepestDirectories.size() <= MAX_CHECKED) {
                deepestDirectories.add(rel);
            }
        }
        return new ListedEntry(rel, mtimes.stat(r));
    }

    /**
     * Where the deepest entries include directories, each is listed on its own: one with
     * members means the answer stopped short of them.
     */
    private void checkNotCutShort() throws IOException {
        if (deepestDirectory < deepest) {
            return; // every directory has something below it, or is empty above the deepest entries
        }
        if (deepestDirectories.size() > MAX_CHECKED) {
            throw new UnsupportedOperationException("PROPFIND Depth: infinity of " + directory + " ends in more than "
                    + MAX_CHECKED + " directories with nothing listed below them: listing directory by directory");
        }
        for (String rel : deepestDirectories) {
            RemotePath d = rel.isEmpty() ? directory : directory.resolve(rel);
            boolean members;
            try (DirectoryListing own = fs.list(d, ListDetail.TYPES)) {
                members = own.hasNext();
            } catch (NoSuchFileException | NotDirectoryException gone) {
                throw new UnsupportedOperationException(d + " changed while its tree was listed", gone);
            }
            if (members) {
                throw fs.treeListingRefused("PROPFIND Depth: infinity of " + directory + " stopped short of the members of "
                        + d + ": the server answers it as a lesser depth");
            }
        }
    }

    @Override
    public void close() throws IOException {
        reader.close();
        exchange.close(); // before the end: the rest of the answer is not read, the connection is dropped
    }

    /** The answer's bytes, at most {@code max}: past that, {@link TooLarge}. */
    private static final class Bounded extends FilterInputStream {
        private final long max;
        private long read;

        Bounded(InputStream in, long max) {
            super(in);
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws TooLarge {
            read += n;
            if (read > max) {
                throw new TooLarge(max);
            }
        }

        /** The answer passed {@code maxListingBytes}. */
        static final class TooLarge extends IOException {
            final long max;

            TooLarge(long max) {
                super("the answer is larger than WebDavOptions.maxListingBytes (" + max + ")");
                this.max = max;
            }
        }
    }
}
