package dev.remotepath.tree;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.WalkOptions;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A lazy depth-first walk: entries are listed one directory at a time, sorted by name, and
 * emitted before their children. The listing's metadata is what each entry carries; nothing
 * is stat'ed again, except a symbolic link's target when links are followed. Each directory's
 * listing stays open while its subtree is walked, so a backend can list children relative to
 * it ({@link RemoteFileSystem#listChild}); at most one listing per level is open.
 */
public final class TreeWalker implements Iterator<DirEntry>, Closeable {

    /** Symbolic-link hops allowed on one branch when the backend gives no file keys to detect loops with. */
    static final int MAX_LINK_HOPS = 40;

    /**
     * One directory being walked. {@code resolved} is where it really is, with the links
     * followed to reach it resolved lexically: the loop check of backends without file keys.
     */
    private record Frame(DirectoryListing listing, Iterator<DirEntry> entries, int depth, Optional<String> key,
            int linkHops, RemotePath resolved, long fingerprint) {
    }

    private final RemoteFileSystem fs;
    private final WalkOptions options;
    private final Predicate<RemotePath> descend;
    private final Deque<Frame> stack = new ArrayDeque<>();
    private DirEntry next;

    private TreeWalker(RemotePath root, WalkOptions options, Predicate<RemotePath> descend) throws IOException {
        this.fs = root.fileSystem();
        this.options = options;
        this.descend = descend;
        Optional<String> rootKey = options.followLinks() ? root.stat().fileKey() : Optional.empty();
        // The root's listing fails eagerly so that a missing start is an exception from walk() itself.
        DirectoryListing listing = fs.list(root, options.detail());
        push(listing, root, 1, rootKey, 0, options.followLinks() && rootKey.isEmpty() ? RealPaths.resolve(root) : root);
    }

    /** Walks below {@code root} as {@code options} say. */
    public static Stream<DirEntry> stream(RemotePath root, WalkOptions options) throws IOException {
        return stream(root, options, p -> true);
    }

    /** Walks below {@code root}, entering only directories {@code descend} accepts. */
    public static Stream<DirEntry> stream(RemotePath root, WalkOptions options, Predicate<RemotePath> descend)
            throws IOException {
        TreeWalker walker = new TreeWalker(root, options, descend);
        return StreamSupport.stream(
                        Spliterators.spliteratorUnknownSize(walker, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(walker::closeQuietly);
    }

    private void push(DirectoryListing listing, RemotePath dir, int depth, Optional<String> key, int hops,
            RemotePath resolved) throws IOException {
        List<DirEntry> entries;
        long fingerprint;
        try {
            entries = Listings.drain(listing, dir, true);
            fingerprint = TraversalLimits.fingerprint(dir, entries);
            if (fingerprint != 0 && stack.stream().anyMatch(f -> f.fingerprint == fingerprint)) {
                throw TraversalLimits.repeated(dir);
            }
        } catch (IOException | RuntimeException e) {
            try {
                listing.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        stack.push(new Frame(listing, entries.iterator(), depth, key, hops, resolved, fingerprint));
    }

    @Override
    public boolean hasNext() {
        try {
            return advance();
        } catch (IOException e) {
            closeQuietly();
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public DirEntry next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        DirEntry e = next;
        next = null;
        return e;
    }

    /** Releases the listings still open (when a stream is closed before its end). */
    @Override
    public void close() throws IOException {
        IOException first = null;
        while (!stack.isEmpty()) {
            try {
                stack.pop().listing.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException ignored) {
            // Closing a listing releases a handle; nothing useful to report after the walk ended.
        }
    }

    private boolean advance() throws IOException {
        while (next == null) {
            Frame top = stack.peek();
            if (top == null) {
                return false;
            }
            if (!top.entries.hasNext()) {
                stack.pop().listing.close();
                continue;
            }
            DirEntry entry = top.entries.next();
            int hops = top.linkHops;
            if (entry.type() == FileType.SYMLINK && options.followLinks()) {
                Optional<FileStat> target = targetOf(entry);
                if (target.isEmpty()) {
                    next = entry; // broken link: reported as the link itself
                    continue;
                }
                entry = new DirEntry(entry.path(), target.get());
                hops++;
            }
            next = entry;
            if (entry.isDirectory() && top.depth < options.maxDepth() && descend.test(entry.path())) {
                enter(top, entry, hops);
            }
        }
        return true;
    }

    private Optional<FileStat> targetOf(DirEntry link) throws IOException {
        try {
            return Optional.of(link.path().stat());
        } catch (NoSuchFileException | FileSystemLoopException e) {
            return Optional.empty(); // broken, or a loop of links: reported as the link itself
        }
    }

    private void enter(Frame parent, DirEntry dir, int hops) throws IOException {
        Optional<String> listedKey = dir.stat().fileKey();
        // Loop detection needs every ancestor's identity, and a types-only listing lacks it.
        Optional<String> key = options.followLinks() && listedKey.isEmpty() ? dir.path().stat().fileKey() : listedKey;
        boolean throughLink = hops > parent.linkHops;
        RemotePath resolved = throughLink ? LinkTargets.resolve(dir.path(), parent.resolved)
                : parent.resolved.child(dir.name());
        boolean loop = hops > MAX_LINK_HOPS
                || (options.followLinks() && key.isPresent() && stack.stream().anyMatch(f -> f.key.equals(key)))
                // Without file keys (SFTP, S3, HTTP): a link to this directory or one above it is a loop.
                || (throughLink && key.isEmpty() && (parent.resolved.startsWith(resolved)
                        || stack.stream().anyMatch(f -> f.resolved.equals(resolved))));
        if (loop) {
            options.errorHandler().onError(dir.path(), new FileSystemLoopException(dir.path().toString()));
            return;
        }
        try {
            TraversalLimits.checkDepth(dir.path(), parent.depth);
        } catch (FileSystemLoopException tooDeep) {
            options.errorHandler().onError(dir.path(), tooDeep);
            return;
        }
        DirectoryListing listing;
        try {
            // Through a followed link the child is not where the parent's handle says: list by path.
            listing = throughLink ? fs.list(dir.path(), options.detail())
                    : fs.listChild(parent.listing, dir.path(), options.detail());
            push(listing, dir.path(), parent.depth + 1, key, hops, resolved);
        } catch (IOException e) {
            options.errorHandler().onError(dir.path(), e);
        }
    }
}
