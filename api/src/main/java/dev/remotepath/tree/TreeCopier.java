package dev.remotepath.tree;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.RemoteCopyOption;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ListDetail;
import java.io.IOException;
import java.nio.file.CopyOption;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.LongConsumer;

/**
 * Copies a file or a whole tree between any two backends, reusing each listing's metadata:
 * a file's size and mtime come from its directory's listing, never from a stat of its own.
 * Files go through {@link FileTransfer#copyFile}, so each appears complete or not at all.
 *
 * <p>A tree is walked on the caller's thread, which creates each directory before its
 * children; the files of a tree are copied {@value #TRANSFERS} at a time (virtual threads),
 * so that remote targets, where each file costs round trips, are not copied one round trip
 * after another. The first failure stops the walk; the copies already under way finish, and
 * {@code copy} returns only when none is left running, throwing that failure with any later
 * ones suppressed.
 */
public final class TreeCopier {

    /** How many files of a tree are copied at once. */
    public static final int TRANSFERS = 4;

    private final boolean replace;
    private final boolean followInside;
    private final LongConsumer progress;
    private final Listener listener;
    private final Deque<String> ancestorKeys = new ArrayDeque<>();
    /** Fingerprints of the listings above the directory being copied (TraversalLimits). */
    private final Deque<Long> ancestorListings = new ArrayDeque<>();
    /** Where each directory being copied really is (links resolved): loop checks without file keys. */
    private final Deque<RemotePath> resolvedAncestors = new ArrayDeque<>();

    private final Semaphore slots = new Semaphore(TRANSFERS);
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    /** Runs the file copies of a tree; null while copying a single entry. */
    private ExecutorService transfers;
    /** Directories copied, with their source's time, set once every file below them is written. */
    private final List<Map.Entry<RemotePath, Instant>> directoryTimes = new ArrayList<>();

    private TreeCopier(boolean replace, boolean followInside, Listener listener) {
        this.replace = replace;
        this.followInside = followInside;
        this.listener = listener;
        this.progress = listener::bytesWritten;
    }

    private static Listener serialized(Listener l) {
        Object lock = new Object();
        return new Listener() {
            @Override
            public void fileScheduled(RemotePath source, long size) {
                synchronized (lock) {
                    l.fileScheduled(source, size);
                }
            }

            @Override
            public void bytesWritten(long n) {
                synchronized (lock) {
                    l.bytesWritten(n);
                }
            }

            @Override
            public void fileDone(RemotePath source) {
                synchronized (lock) {
                    l.fileDone(source);
                }
            }

            @Override
            public void walkFinished() {
                synchronized (lock) {
                    l.walkFinished();
                }
            }
        };
    }

    /** Copies {@code source} (file, link or tree) to {@code target}; see {@link RemotePath#copyTo}. */
    public static void copy(RemotePath source, RemotePath target, CopyOption... options) throws IOException {
        copy(source, target, n -> { }, options);
    }

    /**
     * What a copy reports as it goes, for a progress display: each file when the walk reaches
     * it (with its size), the bytes written, each file done, and the end of the walk (the totals
     * are final then). Called one call at a time, from the copy's threads.
     */
    public interface Listener {
        /** A file the walk found and will copy, of {@code size} bytes (0 when unknown). */
        default void fileScheduled(RemotePath source, long size) {
        }

        /** {@code n} more bytes were written. */
        default void bytesWritten(long n) {
        }

        /** A file is copied (or its copy failed). */
        default void fileDone(RemotePath source) {
        }

        /** Every file of the tree has been scheduled. */
        default void walkFinished() {
        }
    }

    /** As {@link #copy(RemotePath, RemotePath, CopyOption...)}, reporting each chunk of bytes written. */
    public static void copy(RemotePath source, RemotePath target, LongConsumer progress, CopyOption... options)
            throws IOException {
        copy(source, target, new Listener() {
            @Override
            public void bytesWritten(long n) {
                progress.accept(n);
            }
        }, options);
    }

    /** As {@link #copy(RemotePath, RemotePath, CopyOption...)}, reporting to {@code listener} as it goes. */
    public static void copy(RemotePath source, RemotePath target, Listener listener, CopyOption... options)
            throws IOException {
        Set<CopyOption> opts = Set.of(options);
        for (CopyOption o : opts) {
            if (o != StandardCopyOption.REPLACE_EXISTING && o != StandardCopyOption.COPY_ATTRIBUTES
                    && o != LinkOption.NOFOLLOW_LINKS && o != RemoteCopyOption.FOLLOW_LINKS) {
                throw new UnsupportedOperationException("copy option " + o + " is not supported");
            }
        }
        if (source.sameFileSystemAs(target) && target.startsWith(source)) {
            throw new FileSystemException(source.toString(), target.toString(),
                    source.equals(target) ? "source and target are the same" : "target lies inside the source tree");
        }
        // Progress is reported from several copies at once: callers get it one call at a time.
        Listener serial = serialized(listener);
        TreeCopier copier = new TreeCopier(opts.contains(StandardCopyOption.REPLACE_EXISTING),
                opts.contains(RemoteCopyOption.FOLLOW_LINKS), serial);
        FileStat stat = source.stat(opts.contains(LinkOption.NOFOLLOW_LINKS)
                ? new LinkOption[] {LinkOption.NOFOLLOW_LINKS} : new LinkOption[0]);
        if (!stat.isDirectory() && !(stat.isSymbolicLink() && copier.followInside)) {
            copier.copyEntry(new DirEntry(source, stat), target, source);
            serial.walkFinished();
            return;
        }
        // The same, through links: a target that is an alias inside the source tree would copy forever.
        Optional<String> inside = RealPaths.targetInside(source, target);
        if (inside.isPresent()) {
            throw new FileSystemException(source.toString(), target.toString(), inside.get());
        }
        copier.copyTreeInParallel(new DirEntry(source, stat), target,
                copier.followInside ? RealPaths.resolve(source) : source);
    }

    private void copyTreeInParallel(DirEntry root, RemotePath target, RemotePath resolved) throws IOException {
        Throwable walkFailure = null;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            transfers = pool;
            try {
                copyEntry(root, target, resolved);
                listener.walkFinished();
            } catch (IOException | RuntimeException | Error e) {
                walkFailure = e;
            }
        } // close() waits for every copy still under way: nothing runs on after copy returns
        Throwable first = walkFailure != null && !(walkFailure instanceof StoppedEarly) ? walkFailure : failures.poll();
        if (first == null) {
            // Writing a directory's entries changed its time: give each its source's, deepest first.
            for (int i = directoryTimes.size() - 1; i >= 0; i--) {
                Map.Entry<RemotePath, Instant> d = directoryTimes.get(i);
                d.getKey().fileSystem().setLastModifiedTime(d.getKey(), d.getValue());
            }
            return;
        }
        for (Throwable later : failures) {
            if (later != first) {
                first.addSuppressed(later);
            }
        }
        throw BoundedTraversal.rethrown(first);
    }

    /** Hands a file to the transfer pool, waiting for a free slot; stops the walk after a failure. */
    private void submitFile(DirEntry entry, RemotePath target) throws IOException {
        rethrowEarlierFailure();
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("copy of " + entry.path() + " interrupted");
        }
        listener.fileScheduled(entry.path(), entry.stat().size().orElse(0));
        transfers.execute(() -> {
            try {
                FileTransfer.copyFile(entry.path(), entry.stat(), target, replace, progress);
            } catch (IOException | RuntimeException | Error e) {
                failures.add(e);
            } finally {
                slots.release();
                listener.fileDone(entry.path());
            }
        });
    }

    private void rethrowEarlierFailure() throws IOException {
        if (!failures.isEmpty()) {
            throw new StoppedEarly();
        }
    }

    /** Ends the walk after a file copy failed; that failure is what {@code copy} throws. */
    private static final class StoppedEarly extends IOException {
        StoppedEarly() {
            super("the tree copy stopped after an earlier failure");
        }
    }

    /** Copies one entry; {@code resolved} is where it really is, links above it resolved. */
    private void copyEntry(DirEntry entry, RemotePath target, RemotePath resolved) throws IOException {
        switch (entry.type()) {
            case FILE -> {
                if (transfers != null) {
                    submitFile(entry, target);
                } else {
                    listener.fileScheduled(entry.path(), entry.stat().size().orElse(0));
                    try {
                        FileTransfer.copyFile(entry.path(), entry.stat(), target, replace, progress);
                    } finally {
                        listener.fileDone(entry.path());
                    }
                }
            }
            case DIRECTORY -> copyTree(entry, target, resolved);
            case SYMLINK -> {
                if (followInside) {
                    copyEntry(new DirEntry(entry.path(), entry.path().stat()), target, resolved);
                } else {
                    copyLink(entry.path(), entry.stat(), target);
                }
            }
            case OTHER -> throw new FileSystemException(entry.path().toString(), target.toString(),
                    "cannot copy a special file (device, socket or FIFO)");
        }
    }

    private void copyTree(DirEntry dir, RemotePath target, RemotePath resolved) throws IOException {
        Optional<String> key = followInside ? keyOf(dir) : Optional.empty();
        if (key.isPresent() && ancestorKeys.contains(key.get())) {
            throw new FileSystemLoopException(dir.path().toString());
        }
        // Without file keys (SFTP, S3, HTTP): a directory reached again, or one above, is a loop.
        if (followInside && key.isEmpty() && (resolvedAncestors.contains(resolved)
                || (!resolvedAncestors.isEmpty() && resolvedAncestors.peek().startsWith(resolved)))) {
            throw new FileSystemLoopException(dir.path().toString());
        }
        key.ifPresent(ancestorKeys::push);
        if (followInside) {
            resolvedAncestors.push(resolved);
        }
        TraversalLimits.checkDepth(dir.path(), ancestorListings.size());
        List<DirEntry> children = Listings.sorted(dir.path(), ListDetail.FILE_STATS);
        long fingerprint = TraversalLimits.fingerprint(dir.path(), children);
        if (fingerprint != 0 && ancestorListings.contains(fingerprint)) {
            throw TraversalLimits.repeated(dir.path());
        }
        ancestorListings.push(fingerprint);
        try {
            makeDirectory(target, dir.stat());
            if (FileTransfer.keepsDirectoryTimes(target.fileSystem())) {
                // From the listing (FILE_STATS carries directories' times); a source without
                // them (S3's implied directories) leaves the target's as they are.
                dir.stat().lastModified().ifPresent(t -> directoryTimes.add(Map.entry(target, t)));
            }
            refuseVariants(children, target);
            for (DirEntry child : children) {
                if (FileTransfer.isTemporary(child.name())) {
                    continue; // a killed copy's leftover is not part of the tree
                }
                RemotePath childResolved = followInside && child.isSymbolicLink()
                        ? LinkTargets.resolve(child.path(), resolved) : resolved.child(child.name());
                copyEntry(child, target.child(child.name()), childResolved);
            }
        } finally {
            ancestorListings.pop();
            key.ifPresent(k -> ancestorKeys.pop());
            if (followInside) {
                resolvedAncestors.pop();
            }
        }
    }

    /**
     * Refuses, before any of them is written, a directory whose names include two that the
     * target takes for one ({@code README} and {@code readme} on a case-insensitive target):
     * the second would be written over the first, as GNU cp refuses to overwrite a file it has
     * just created. Asks the target ({@link NameVariants#tellsApart}) only for such names.
     */
    private static void refuseVariants(List<DirEntry> children, RemotePath target) throws IOException {
        for (List<DirEntry> group : NameVariants.groups(children)) {
            String first = group.getFirst().name();
            for (DirEntry other : group.subList(1, group.size())) {
                if (!NameVariants.tellsApart(target, first, other.name()).orElse(true)) {
                    throw new FileAlreadyExistsException(target.child(other.name()).toString(), other.path().toString(),
                            "would be written over " + first + ", copied from the same directory: the target does not "
                                    + "tell apart names that differ only in case or Unicode normalization");
                }
            }
        }
    }

    private static Optional<String> keyOf(DirEntry dir) throws IOException {
        Optional<String> key = dir.stat().fileKey();
        return key.isPresent() ? key : dir.path().stat().fileKey();
    }

    /**
     * Creates {@code target}, or with {@code replace} merges into a real directory already there.
     * What is there is looked at without following links: a link (to anywhere) where the source
     * has a directory is refused, as GNU cp refuses it, because writing the children through it
     * would write outside the target.
     */
    private void makeDirectory(RemotePath target, FileStat source) throws IOException {
        try {
            FileTransfer.createDirectoryLike(target, source);
        } catch (FileAlreadyExistsException exists) {
            if (!replace) {
                throw exists;
            }
            FileStat there = target.fileSystem().stat(target, false);
            if (there.isSymbolicLink()) {
                throw new FileAlreadyExistsException(target.toString(), null,
                        "cannot overwrite non-directory with directory: it is a symbolic link, which the copy does not write through");
            }
            if (!there.isDirectory()) {
                throw new FileAlreadyExistsException(target.toString(), null,
                        "cannot overwrite non-directory with directory");
            }
        }
    }

    private void copyLink(RemotePath link, FileStat listed, RemotePath target) throws IOException {
        if (!target.fileSystem().capabilities().contains(Capability.SYMBOLIC_LINKS)) {
            throw new FileSystemException(link.toString(), target.toString(),
                    "the target cannot hold symbolic links; copy with RemoteCopyOption.FOLLOW_LINKS to copy what they point to");
        }
        String destination = LinkTargets.textOf(link, listed);
        if (replace) {
            try {
                if (target.stat(LinkOption.NOFOLLOW_LINKS).isDirectory()) {
                    throw new FileAlreadyExistsException(target.toString(), null, "exists and is a directory");
                }
                target.fileSystem().deleteFile(target);
            } catch (NoSuchFileException absent) {
                // Nothing to replace.
            }
        }
        target.fileSystem().createSymbolicLink(target, destination);
    }
}
