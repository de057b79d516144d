package dev.remotepath.syncer;

import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.tree.BoundedTraversal;
import dev.remotepath.tree.FileTransfer;
import dev.remotepath.tree.Listings;
import dev.remotepath.tree.RealPaths;
import dev.remotepath.tree.Retries;
import dev.remotepath.tree.TraversalLimits;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One run (or dry run) of a {@link PathSyncer}: walks the two trees in step, one directory
 * at a time, merging their sorted listings; decides each entry from the listings' metadata
 * ({@link QuickCheck}); hands each action to its {@link Execution} (carried out on a bounded
 * pool of virtual threads, or written down for a plan); and deletes only at the end
 * ({@link DeletionPhase}).
 */
final class SyncRun {

    private final RemotePath sourceRoot;
    final RemotePath targetRoot;
    final PathSyncer.Options options;
    /** Carries the traversal's actions out, or writes them down for a dry run. */
    private final Execution execution;
    private final Filters filters;
    final SyncListener listener;

    // Filled by several traversal threads; sorted before anyone reads them.
    final List<SyncAction> deferred = java.util.Collections.synchronizedList(new ArrayList<>());
    final Queue<SyncError> errors = new ConcurrentLinkedQueue<>();
    /** Directories listed at once: each listing is a round trip on a remote backend. */
    static final int LISTING_PARALLELISM = 8;
    /**
     * Directories waiting for a walker; beyond it a walker descends at once itself, so memory
     * stays bounded however many directories the trees hold (see {@link BoundedTraversal}).
     */
    static final int WAITING_DIRECTORIES = 1024;
    /** The traversal under way: its walkers take the subdirectories the merges find. */
    private BoundedTraversal traversal;

    /** Timeouts in a row after which the run stops: the server has stopped answering. */
    static final int GIVE_UP_AFTER = 3;
    final java.util.concurrent.atomic.AtomicInteger consecutiveTimeouts = new java.util.concurrent.atomic.AtomicInteger();
    /** Why the run stopped early, once it has. */
    volatile String gaveUp;

    /** Files, links and other non-directories of the source that the filters let through. */
    private final AtomicLong sourceEntriesToSync = new AtomicLong();
    final AtomicLong filesCopied = new AtomicLong();
    private final AtomicLong bytesCopied = new AtomicLong();
    private final AtomicLong filesSkipped = new AtomicLong();
    final AtomicLong filesDeleted = new AtomicLong();
    final AtomicLong directoriesDeleted = new AtomicLong();
    private final AtomicLong directoriesCreated = new AtomicLong();
    private final AtomicLong mtimesFixed = new AtomicLong();
    private final AtomicLong linksCreated = new AtomicLong();
    private final AtomicLong linksSkipped = new AtomicLong();
    private final AtomicLong contentBytesRead = new AtomicLong();
    /** The run's bytes per second across all its transfers ({@code bandwidthLimit}). */
    private final Bandwidth bandwidth;
    /** Compares the content of file pairs quick-check could not decide (and CHECKSUM's). */
    private final ContentComparison contents;

    /** A dry run's: what a run would do, nothing done. */
    static List<SyncAction> plan(RemotePath source, RemotePath target, PathSyncer.Options options) throws IOException {
        return new SyncRun(source, target, options, false).plan();
    }

    /** Syncs {@code target} to {@code source}. */
    static SyncReport run(RemotePath source, RemotePath target, PathSyncer.Options options) throws IOException {
        return new SyncRun(source, target, options, true).execute();
    }

    private SyncRun(RemotePath source, RemotePath target, PathSyncer.Options options, boolean carryOut) {
        this.sourceRoot = source;
        this.targetRoot = target;
        this.options = options;
        this.filters = new Filters(options.includes(), options.excludes());
        boolean flat = options.flatListingBudget() > 0 && !filters.mayPruneDirectories();
        this.sourceFlat = flat ? new FlatListings(sourceRoot, options.flatListingBudget()) : null;
        this.targetFlat = flat ? new FlatListings(targetRoot, options.flatListingBudget()) : null;
        this.listener = carryOut ? options.listener() : SyncListener.NONE;
        this.execution = carryOut ? new Execution.Run(this, options.transfers(), listener) : new Execution.Plan();
        this.contents = new ContentComparison(options.checksumAlgorithm(), contentBytesRead);
        this.bandwidth = new Bandwidth(options.bandwidthLimit());
    }

    // ------------------------------------------------------------------ entry points

    private List<SyncAction> plan() throws IOException {
        traverse();
        refuseEmptySource();
        List<SyncAction> all = sorted(execution.planned());
        all.addAll(sorted(deferred));
        return all;
    }

    /** Directories are walked in parallel: order the actions by path so a plan reads the same every time. */
    static List<SyncAction> sorted(List<SyncAction> actions) {
        List<SyncAction> copy;
        synchronized (actions) {
            copy = new ArrayList<>(actions);
        }
        // Not Comparator.comparing: its lambda's class is spun at run time, outside the AOT cache.
        copy.sort((a, b) -> {
            int byPath = a.relativePath().compareTo(b.relativePath());
            return byPath != 0 ? byPath : a.kind().compareTo(b.kind());
        });
        return copy;
    }

    private SyncReport execute() throws IOException {
        Instant start = Instant.now();
        try {
            traverse();
            listener.traversalFinished();
        } finally {
            execution.finish(); // waits for every transfer handed out
        }
        refuseEmptySource();
        Optional<String> refusal = gaveUp != null ? Optional.of(gaveUp) : new DeletionPhase(this).run();
        if (gaveUp == null) {
            directoryTimes.restore((rel, e) -> fail(rel, "set directory mtime", e));
        }
        return new SyncReport(filesCopied.get(), bytesCopied.get(), filesSkipped.get(), filesDeleted.get(),
                directoriesDeleted.get(),
                directoriesCreated.get(), mtimesFixed.get(), linksCreated.get(), linksSkipped.get(),
                contentBytesRead.get(), contents.checksumsNative(), contents.checksumsStreamed(), List.copyOf(errors), refusal,
                Duration.between(start, Instant.now()));
    }

    // ------------------------------------------------------------------ traversal

    private void traverse() throws IOException {
        // Decided on where the roots really are, before anything changes: a link that aliases
        // the target inside the source (or the other way round) must not make --delete eat the source.
        Optional<String> overlap = RealPaths.overlap(sourceRoot, targetRoot);
        if (overlap.isPresent()) {
            throw new SyncRefusedException(overlap.get() + ": refusing to sync");
        }
        PendingListing targetListing = new PendingListing(targetRoot, this::listed);
        List<DirEntry> sources;
        try {
            sources = listed(sourceRoot);
        } catch (NoSuchFileException e) {
            throw new SyncRefusedException("source " + sourceRoot + " does not exist: refusing to sync");
        } catch (NotDirectoryException e) {
            throw new SyncRefusedException("source " + sourceRoot + " is not a directory: refusing to sync");
        }
        if (sources.isEmpty() && options.deleteExtraneous() && !options.allowEmptySource()) {
            throw new SyncRefusedException("source " + sourceRoot + " is empty and extraneous files would be "
                    + "deleted: refusing to empty the target (PathSyncer.Builder.allowEmptySource overrides)");
        }
        List<DirEntry> targets;
        boolean rootExisted = true;
        try {
            targets = targetListing.get();
        } catch (NoSuchFileException e) {
            targets = List.of();
            rootExisted = false;
        } catch (NotDirectoryException e) {
            throw new SyncRefusedException("target " + targetRoot + " exists and is not a directory: refusing to sync");
        }
        boolean existed = rootExisted;
        if (!existed) {
            SyncAction mkdir = new SyncAction(SyncAction.Kind.MKDIR, "", Optional.empty(), targetRoot,
                    OptionalLong.empty(), "target root missing");
            if (!execution.now(mkdir, () -> FileTransfer.createDirectories(targetRoot))) {
                return;
            }
            directoriesCreated.incrementAndGet();
        }
        List<DirEntry> rootTargets = targets;
        List<String> rootAncestors = new ArrayList<>(2);
        long rootListing = TraversalLimits.fingerprint(sourceRoot, sources);
        if (rootListing != 0) {
            rootAncestors.add("listing:" + rootListing);
        }
        RemotePath resolvedRoot = sourceRoot;
        if (options.symlinks() == SymlinkPolicy.FOLLOW) {
            // The root is an ancestor too: a link inside to the root (a/up -> ..) is a loop
            // before it is entered, not one level of the tree copied again.
            resolvedRoot = RealPaths.resolve(sourceRoot);
            rootAncestors.add(statQuietly(sourceRoot).flatMap(FileStat::fileKey).orElse("path:" + resolvedRoot));
        }
        RemotePath resolved = resolvedRoot;
        List<String> ancestors = List.copyOf(rootAncestors);
        // Every subdirectory found is handed to the traversal's walkers; run returns when all are done.
        BoundedTraversal.run(LISTING_PARALLELISM, WAITING_DIRECTORIES, walk -> {
            traversal = walk;
            return () -> {
                boolean changed = merge("", targetRoot, sources, rootTargets, ancestors, resolved);
                keepRootTime(existed, changed);
            };
        });
    }

    /**
     * Walks a subdirectory on one of the traversal's walkers, or at once on this thread when
     * enough directories are already waiting.
     */
    private void descend(String rel, IoTask walk) {
        if (gaveUp != null) {
            return;
        }
        traversal.submit(() -> {
            try {
                walk.run();
            } catch (InterruptedIOException e) {
                record(new SyncError(rel, "list", "interrupted"));
            } catch (IOException | RuntimeException e) {
                fail(rel, "sync directory", e);
            }
        });
    }

    /**
     * @param ancestors   identities of the directories above (file keys, or resolved paths where the
     *                    backend has none), for loops when following links
     * @param resolvedDir where {@code srcDir} really is, links resolved (used when following links)
     */
    private boolean merge(String rel, RemotePath dstDir, List<DirEntry> sources, List<DirEntry> targets,
            List<String> ancestors, RemotePath resolvedDir) throws IOException {
        boolean[] outer = CHANGED_HERE.get();
        boolean[] changed = {false};
        CHANGED_HERE.set(changed);
        try {
            int i = 0;
            int j = 0;
            while (i < sources.size() || j < targets.size()) {
                DirEntry s = i < sources.size() ? sources.get(i) : null;
                DirEntry t = j < targets.size() ? targets.get(j) : null;
                int c = s == null ? 1 : t == null ? -1 : s.name().compareTo(t.name());
                if (c <= 0) {
                    i++;
                }
                if (c >= 0) {
                    j++;
                }
                pair(rel, dstDir, c > 0 ? null : s, c < 0 ? null : t, ancestors, resolvedDir);
            }
            return changed[0];
        } finally {
            CHANGED_HERE.set(outer); // a walk run inline returns to its parent's merge
        }
    }

    /**
     * Set by whatever the merge of a directory schedules that adds, replaces or removes one of
     * its entries (which changes the target directory's mtime): that directory's time is then
     * restored at the end. Per thread, because a directory is merged on one thread, and a
     * subdirectory walked inline (the traversal's queue full) saves and restores its parent's.
     */
    private static final ThreadLocal<boolean[]> CHANGED_HERE = ThreadLocal.withInitial(() -> new boolean[1]);

    private static void changedHere() {
        CHANGED_HERE.get()[0] = true;
    }

    /** Directory times restored at the end (see {@link DirectoryTimes}). */
    private final DirectoryTimes directoryTimes = new DirectoryTimes();

    /**
     * The roots have no listing above them to describe them: the root's time is restored
     * (one stat of the source root) only when this run created or changed the target root, so
     * a no-op run still stats nothing, and only from a source on this machine (local, mem).
     */
    private void keepRootTime(boolean existed, boolean changed) {
        if (!execution.carriesOut() || (existed && !changed) || !FileTransfer.keepsDirectoryTimes(targetRoot.fileSystem())
                || !sourceRoot.fileSystem().capabilities().contains(Capability.IN_PROCESS)) {
            return; // a remote root's stat would be a request of its own, for one directory's time
        }
        directoryTimes.add("", targetRoot, statQuietly(sourceRoot).flatMap(FileStat::lastModified), null, true);
    }

    /**
     * @param t the target directory's listed entry, null when this run created it
     */
    private void keepDirectoryTime(String rel, DirEntry s, RemotePath dst, DirEntry t, boolean changed) {
        if (!execution.carriesOut() || !FileTransfer.keepsDirectoryTimes(dst.fileSystem())) {
            return;
        }
        // The time is the listing's (FILE_STATS carries directories' times): a source without
        // them (S3's implied directories) leaves the target's as they are, at no request.
        directoryTimes.add(rel, dst, s.stat().lastModified(), t == null ? null : t.stat(), t == null || changed);
    }

    /**
     * One name of a directory: in the source, the target or both. (A method of its own, not the
     * loop's body: the loop runs once per directory, too few times for the JIT to compile it
     * early, while this runs once per entry and is compiled after the first few directories.)
     */
    private void pair(String rel, RemotePath dstDir, DirEntry s, DirEntry t, List<String> ancestors,
            RemotePath resolvedDir) throws IOException {
        String name = s != null ? s.name() : t.name();
        if (FileTransfer.isTemporary(name)) {
            // A killed copy's leftover: never synced as a file (said, not silent); on the target side it goes.
            if (s != null) {
                listener.skipped(rel.isEmpty() ? name : rel + "/" + name, "a temporary of an interrupted copy (.rptmp)");
            }
            if (t != null && !t.isDirectory()) {
                removeStaleTemporary(t.path());
                changedHere();
            }
            return;
        }
        String childRel = rel.isEmpty() ? name : rel + "/" + name;
        boolean directory = s != null ? s.isDirectory() : t.isDirectory();
        if (filters.active() && filters.ignored(List.of(childRel.split("/")), directory)) {
            return;
        }
        RemotePath dst = t != null ? t.path() : dstDir.child(name); // the target's listing already made it
        if (s != null && !s.isDirectory()) {
            sourceEntriesToSync.incrementAndGet();
        }
        if (s == null) {
            extraneous(childRel, t);
            return;
        }
        if (t == null) {
            changedHere(); // whatever it is, it is new here
        }
        try {
            handleSource(childRel, s, t, dst, ancestors, resolvedDir, options.symlinks() != SymlinkPolicy.FOLLOW ? s.path()
                    : s.isSymbolicLink() ? dev.remotepath.tree.LinkTargets.resolve(s.path(), resolvedDir)
                    : resolvedDir.child(s.name()));
        } catch (InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            // One entry's failure (a listed link that 404s, a stat refused) fails that entry only;
            // the run goes on, and its error keeps the deletion phase from running.
            fail(childRel, "sync", e);
        }
    }

    private void handleSource(String rel, DirEntry s, DirEntry t, RemotePath dst, List<String> ancestors,
            RemotePath resolvedParent, RemotePath resolved) throws IOException {
        switch (s.type()) {
            case FILE -> file(rel, s, t, dst);
            case DIRECTORY -> directory(rel, s, t, dst, ancestors, resolvedParent, resolved);
            case SYMLINK -> link(rel, s, t, dst, ancestors, resolvedParent, resolved);
            case OTHER -> record(new SyncError(rel, "copy", "special file (device, socket or FIFO) not copied"));
        }
    }

    /** Deletes a stale temporary of this library's naming in a target directory (not in a dry run). */
    private void removeStaleTemporary(RemotePath temporary) {
        if (!execution.carriesOut()) {
            return;
        }
        try {
            temporary.fileSystem().deleteFile(temporary);
        } catch (java.nio.file.NoSuchFileException gone) {
            // removed meanwhile
        } catch (IOException e) {
            fail(targetRoot.relativize(temporary).pathString(), "remove stale temporary", e);
        }
    }

    private void extraneous(String rel, DirEntry t) {
        if (options.deleteExtraneous()) {
            changedHere();
            deferred.add(new SyncAction(t.isDirectory() ? SyncAction.Kind.DELETE_DIRECTORY : SyncAction.Kind.DELETE_FILE,
                    rel, Optional.empty(), t.path(), OptionalLong.empty(), "extraneous"));
        }
    }

    private void directory(String rel, DirEntry s, DirEntry t, RemotePath dst, List<String> ancestors,
            RemotePath resolvedParent, RemotePath resolved) {
        if (t != null && !t.isDirectory()) {
            typeChange(rel, s, t, "source is a directory, target is a " + t.type().label());
            return;
        }
        descend(rel, () -> walkDirectory(rel, s, t, dst, ancestors, resolvedParent, resolved));
    }

    private void walkDirectory(String rel, DirEntry s, DirEntry t, RemotePath dst, List<String> ancestors,
            RemotePath resolvedParent, RemotePath resolved) throws IOException {
        Optional<String> key = Optional.empty();
        if (options.symlinks() == SymlinkPolicy.FOLLOW) {
            key = s.stat().fileKey().or(() -> statQuietly(s.path()).flatMap(FileStat::fileKey));
            // Without file keys (SFTP, S3, HTTP), the resolved path is the identity, and a link
            // to the directory above is a loop too.
            if (key.isEmpty()) {
                key = Optional.of("path:" + resolved);
                if (!resolved.equals(resolvedParent.child(s.name())) && resolvedParent.startsWith(resolved)) {
                    record(new SyncError(rel, "follow link", "directory loop: " + s.path() + " leads to " + resolved
                            + ", which is above it"));
                    return;
                }
            }
            if (ancestors.contains(key.get())) {
                record(new SyncError(rel, "follow link", "directory loop: " + s.path() + " is its own ancestor"));
                return;
            }
        }
        PendingListing targetListing = t == null ? null : new PendingListing(dst, this::listed);
        List<DirEntry> sources;
        long fingerprint;
        try {
            TraversalLimits.checkDepth(s.path(), rel.split("/").length);
            sources = listed(s.path());
            fingerprint = TraversalLimits.fingerprint(s.path(), sources);
            if (fingerprint != 0 && ancestors.contains("listing:" + fingerprint)) {
                throw TraversalLimits.repeated(s.path());
            }
        } catch (IOException e) {
            fail(rel, "list source", e);
            if (targetListing != null) {
                targetListing.cancel();
            }
            return;
        }
        List<DirEntry> targets = List.of();
        if (t == null) {
            SyncAction mkdir = new SyncAction(SyncAction.Kind.MKDIR, rel, Optional.of(s.path()), dst,
                    OptionalLong.empty(), "new directory");
            if (!execution.now(mkdir, () -> dst.fileSystem().createDirectory(dst))) {
                return;
            }
            directoriesCreated.incrementAndGet();
        } else {
            try {
                targets = targetListing.get();
            } catch (IOException e) {
                fail(rel, "list target", e);
                return;
            }
        }
        List<String> below = ancestors;
        if (key.isPresent() || fingerprint != 0) {
            below = new ArrayList<>(ancestors);
            key.ifPresent(below::add);
            if (fingerprint != 0) {
                below.add("listing:" + fingerprint);
            }
        }
        boolean changed = merge(rel, dst, sources, targets, List.copyOf(below), resolved);
        keepDirectoryTime(rel, s, dst, t, changed);
    }

    private Optional<FileStat> statQuietly(RemotePath p) {
        try {
            return Optional.of(p.stat());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private void link(String rel, DirEntry s, DirEntry t, RemotePath dst, List<String> ancestors,
            RemotePath resolvedParent, RemotePath resolved) throws IOException {
        switch (options.symlinks()) {
            case SKIP -> {
                linksSkipped.incrementAndGet();
                listener.skipped(rel, "symbolic link (links are skipped by policy)");
            }
            case FOLLOW -> {
                FileStat followed;
                try {
                    followed = s.path().stat();
                } catch (IOException e) {
                    fail(rel, "follow link", e);
                    return;
                }
                handleSource(rel, new DirEntry(s.path(), followed), t, dst, ancestors, resolvedParent, resolved);
            }
            case PRESERVE -> {
                if (!dst.fileSystem().capabilities().contains(Capability.SYMBOLIC_LINKS)) {
                    record(new SyncError(rel, "create link", "the target cannot hold symbolic links"));
                    return;
                }
                if (t != null && t.isDirectory()) {
                    typeChange(rel, s, t, "source is a link, target is a directory");
                    return;
                }
                String text;
                try {
                    text = dev.remotepath.tree.LinkTargets.textOf(s.path(), s.stat());
                    if (t != null && t.isSymbolicLink() && dev.remotepath.tree.LinkTargets.sameDestination(text, s.path(),
                            dev.remotepath.tree.LinkTargets.textOf(t.path(), t.stat()), t.path())) {
                        filesSkipped.incrementAndGet();
                        return;
                    }
                } catch (IOException e) {
                    fail(rel, "read link", e);
                    return;
                }
                boolean exists = t != null;
                SyncAction a = new SyncAction(SyncAction.Kind.LINK, rel, Optional.of(s.path()), dst, OptionalLong.empty(),
                        exists ? "link differs" : "new link");
                changedHere();
                execution.later(a, () -> {
                    if (exists) {
                        dst.fileSystem().deleteFile(dst);
                    }
                    dst.fileSystem().createSymbolicLink(dst, text);
                    linksCreated.incrementAndGet();
                });
            }
        }
    }

    private void typeChange(String rel, DirEntry s, DirEntry t, String what) {
        if (!options.deleteExtraneous()) {
            record(new SyncError(rel, "sync", "type changed (" + what + "); replacing it needs deleteExtraneous"));
            return;
        }
        changedHere();
        deferred.add(new SyncAction(SyncAction.Kind.REPLACE_TYPE, rel, Optional.of(s.path()), t.path(),
                s.stat().size(), "type changed: " + what));
    }

    // ------------------------------------------------------------------ files

    private void file(String rel, DirEntry s, DirEntry t, RemotePath dst) throws IOException {
        if (t != null && t.isDirectory()) {
            typeChange(rel, s, t, "source is a file, target is a directory");
            return;
        }
        if (t == null) {
            // A new file needs no mtime up front: the copy takes it from the read's response
            // (S3) or stats the source then, so only an inexact size is completed here.
            FileStat listed = s.stat().size().isPresent() && s.stat().sizeExact() ? s.stat() : complete(s);
            copy(new SyncAction(SyncAction.Kind.COPY_NEW, rel, Optional.of(s.path()), dst, listed.size(), "new"), listed);
            return;
        }
        FileStat src = complete(s);
        if (t.isSymbolicLink()) {
            copy(new SyncAction(SyncAction.Kind.COPY_UPDATE, rel, Optional.of(s.path()), dst, src.size(),
                    "target is a link"), src);
            return;
        }
        FileStat listed = t.stat();
        if (options.comparison() == Comparison.QUICK_CHECK && listed.lastModified().isEmpty()
                && QuickCheck.storedSinceLastChange(options.useServerModtime() ? src.lastModified() : src.lastModified().flatMap(m ->
                        src.changeTime().or(() -> changeTimeNearby(s, src, listed))), src, listed)) {
            // The target's content was stored after the source last changed (S3 lists only the
            // upload time; its own mtime would cost a HEAD per object): unchanged. By default the
            // source's ctime must say so, as an mtime can be set back to before the upload;
            // without a ctime the target is stat'ed below and its stored mtime compared.
            filesSkipped.incrementAndGet();
            return;
        }
        boolean sizeIsEnough = options.comparison() != Comparison.QUICK_CHECK
                && listed.size().isPresent() && listed.sizeExact();
        FileStat dstStat = sizeIsEnough ? listed : complete(t);
        boolean sameSize = src.size().isPresent() && src.size().equals(dstStat.size());
        switch (options.comparison()) {
            case ALWAYS_COPY -> copy(update(rel, s, dst, src, "always copy"), src);
            case SIZE_ONLY -> {
                if (sameSize) {
                    filesSkipped.incrementAndGet();
                } else {
                    copy(update(rel, s, dst, src, "size differs"), src);
                }
            }
            case QUICK_CHECK -> {
                if (!sameSize) {
                    copy(update(rel, s, dst, src, "size differs"), src);
                } else if (src.lastModified().isEmpty() && src.sizeExact()) {
                    // The source keeps no time at all, not even when asked (an HTTP server that
                    // sends no Last-Modified): as rclone does, the size decides, or every run
                    // would copy everything again.
                    filesSkipped.incrementAndGet();
                } else if (QuickCheck.sameTime(src, dstStat, setsTimes(dst))) {
                    filesSkipped.incrementAndGet();
                } else if (src == s.stat() && src.lastModifiedPrecision().compareTo(QuickCheck.DISPLAYED) >= 0
                        && QuickCheck.sameTime(exactStat(s), dstStat, setsTimes(dst))) {
                    // A listing's displayed time (an index page's minute, maybe an hour off across
                    // daylight saving) disagreed; the server's own exact time agrees: unchanged.
                    filesSkipped.incrementAndGet();
                } else if (cheapChecksumsShared(s, t)) {
                    // Same size, other mtime: when both sides can tell their checksum cheaply, that
                    // decides between copying and only fixing the mtime.
                    checkThen(rel, s, t, dst, src, true);
                } else {
                    copy(update(rel, s, dst, src, "mtime differs"), src);
                }
            }
            case CHECKSUM -> {
                if (!sameSize) {
                    copy(update(rel, s, dst, src, "size differs"), src);
                } else {
                    checkThen(rel, s, t, dst, src, false);
                }
            }
        }
    }

    private static SyncAction update(String rel, DirEntry s, RemotePath dst, FileStat src, String reason) {
        return new SyncAction(SyncAction.Kind.COPY_UPDATE, rel, Optional.of(s.path()), dst, src.size(), reason);
    }

    private static boolean setsTimes(RemotePath p) {
        return p.fileSystem().capabilities().contains(Capability.SET_LAST_MODIFIED_TIME);
    }

    /** The entry's own stat, asked of the server; its listed stat where that fails. */
    private static FileStat exactStat(DirEntry e) {
        try {
            return e.path().stat(LinkOption.NOFOLLOW_LINKS);
        } catch (IOException unknown) {
            return e.stat();
        }
    }

    /** The entry's stat, completed by one stat only when the listing lacked exact size or mtime (HTTP indexes). */
    private FileStat complete(DirEntry e) throws IOException {
        if (e.stat().hasSizeAndTime()) {
            return e.stat();
        }
        return e.path().stat(LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * The source's ctime when its listing lacked it (the local disk listed through NIO) and a
     * stat costs no round trip: the local stat beats the HEAD it saves. Only for a file the
     * storage time could then decide (same size, stored after its mtime).
     */
    private static Optional<Instant> changeTimeNearby(DirEntry s, FileStat src, FileStat listed) {
        if (!s.path().fileSystem().capabilities().contains(Capability.IN_PROCESS)
                || !QuickCheck.storedSinceLastChange(src.lastModified(), src, listed)) {
            return Optional.empty();
        }
        return exactStat(s).changeTime();
    }

    private boolean cheapChecksumsShared(DirEntry s, DirEntry t) {
        return QuickCheck.sharedMetadataAlgorithm(s.stat(), t.stat()).isPresent()
                || !sharedNativeAlgorithms(s.path(), t.path()).isEmpty();
    }

    private static Set<ChecksumAlgorithm> sharedNativeAlgorithms(RemotePath a, RemotePath b) {
        return QuickCheck.sharedAlgorithms(a.fileSystem().nativeChecksums(), b.fileSystem().nativeChecksums());
    }

    /**
     * Compares checksums (in a transfer slot, as it may read content) and then copies, fixes
     * the mtime, or does nothing.
     */
    private void checkThen(String rel, DirEntry s, DirEntry t, RemotePath dst, FileStat src, boolean fixTimeWhenEqual)
            throws IOException {
        changedHere(); // it may copy, on a transfer thread after this directory's merge
        // Quick-check asks checksums only when both sides can give them cheaply; where none
        // can after all (a multipart ETag, a server without them), it decides as without
        // checksums: one copy, never both files read to compare them.
        boolean streamIfNeeded = !fixTimeWhenEqual;
        IoTask decide = () -> {
            Optional<Boolean> verdict = retrying(() -> contents.sameContent(s, t, streamIfNeeded));
            if (verdict.isEmpty() || !verdict.get()) {
                SyncAction a = update(rel, s, dst, src, verdict.isEmpty()
                        ? "mtime differs (no checksum both sides can give without reading it)" : "checksum differs");
                execution.now(a, copying(a, src)); // already in a transfer slot
            } else if (fixTimeWhenEqual && src.lastModified().isPresent()
                    && dst.fileSystem().capabilities().contains(Capability.SET_LAST_MODIFIED_TIME)) {
                SyncAction a = new SyncAction(SyncAction.Kind.FIX_MTIME, rel, Optional.of(s.path()), dst,
                        OptionalLong.empty(), "content equal, mtime differs");
                execution.now(a, () -> {
                    retrying(() -> {
                        dst.fileSystem().setLastModifiedTime(dst, src.lastModified().get());
                        return null;
                    });
                    mtimesFixed.incrementAndGet();
                });
            } else {
                filesSkipped.incrementAndGet();
            }
        };
        execution.decide(() -> {
            try {
                decide.run();
            } catch (IOException e) {
                fail(rel, "checksum", e);
            }
        });
    }

    private void copy(SyncAction a, FileStat src) throws IOException {
        changedHere();
        execution.later(a, copying(a, src));
    }

    /** The copy of one file, counted once it is under its final name. */
    private IoTask copying(SyncAction a, FileStat src) {
        return () -> {
            long[] written = {0};
            long read = retrying(() -> {
                written[0] = 0; // a retried copy starts again from its first byte
                try {
                    return FileTransfer.copyFile(a.source().orElseThrow(), src, a.target(), true, n -> {
                        written[0] += n;
                        bandwidth.acquire(n);
                        listener.progress(a, n);
                    });
                } finally {
                    // Bytes read count whether or not the copy was published: they crossed the wire.
                    contentBytesRead.addAndGet(written[0]);
                }
            });
            if (read == 0 && src.size().orElse(0) > 0) {
                // Copied server-side: no byte passed through here, but the file's bytes were copied.
                written[0] = src.size().getAsLong();
                listener.progress(a, written[0]);
            }
            // Counted only now that the file is under its final name (a failed copy's bytes are not "copied").
            bytesCopied.addAndGet(written[0]);
            filesCopied.incrementAndGet();
        };
    }

    /** A directory's listing, sorted, retried after a transient failure (listing is idempotent). */
    private List<DirEntry> listed(RemotePath dir) throws IOException {
        FlatListings flat = dir.sameFileSystemAs(targetRoot) && dir.startsWith(targetRoot) ? targetFlat
                : dir.sameFileSystemAs(sourceRoot) && dir.startsWith(sourceRoot) ? sourceFlat : null;
        if (flat != null) {
            java.util.Optional<List<DirEntry>> indexed = flat.take(dir, this::retrying);
            if (indexed.isPresent()) {
                return indexed.get();
            }
        }
        return retrying(() -> Listings.sorted(dir, ListDetail.FILE_STATS));
    }

    private final FlatListings sourceFlat;
    private final FlatListings targetFlat;

    /**
     * Runs an idempotent operation with the run's retries (copies into a temporary and renamed,
     * listings, checksums, mtime fixes); a run that has given up stops retrying.
     */
    <T> T retrying(Retries.Operation<T> op) throws IOException {
        return options.retries().run(op, this::worthRetrying);
    }

    /**
     * Whether to try again after {@code e}: not once the run has given up. A timeout counts
     * towards giving up at each attempt, so a server that stopped answering costs
     * {@value #GIVE_UP_AFTER} timeouts in all, not that many per entry and retry.
     */
    private boolean worthRetrying(IOException e) {
        if (timedOut(e)) {
            noteTimeout();
        }
        return gaveUp == null;
    }

    // ------------------------------------------------------------------ execution

    @FunctionalInterface
    interface IoTask {
        void run() throws IOException;
    }

    /**
     * Records a failure. A request that timed out counts towards giving up: after
     * {@value #GIVE_UP_AFTER} timeouts in a row with no success between them the server has
     * stopped answering (paused, or cut off without a reset), and the run stops scheduling work
     * instead of waiting out a timeout for every remaining entry.
     */
    void fail(String rel, String operation, Throwable e) {
        record(SyncError.of(rel, operation, e));
        if (timedOut(e)) {
            noteTimeout();
        }
    }

    private void noteTimeout() {
        if (consecutiveTimeouts.incrementAndGet() >= GIVE_UP_AFTER && gaveUp == null) {
            gaveUp = "gave up: " + GIVE_UP_AFTER + " requests in a row timed out (the server stopped answering); "
                    + "the rest of the tree was not synced";
        }
    }

    /** Every error goes through here: into the report, and to the listener as it happens. */
    private void record(SyncError e) {
        errors.add(e);
        listener.error(e);
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    boolean act(SyncAction a, IoTask task) {
        if (gaveUp != null) {
            return false;
        }
        listener.started(a);
        try {
            task.run();
            consecutiveTimeouts.set(0);
            listener.finished(a);
            return true;
        } catch (IOException e) {
            fail(a.relativePath(), a.kind().name().toLowerCase(java.util.Locale.ROOT), e);
            listener.failed(a, e);
            return false;
        } catch (RuntimeException e) {
            IOException wrapped = new IOException(e.toString(), e);
            fail(a.relativePath(), a.kind().name().toLowerCase(java.util.Locale.ROOT), wrapped);
            listener.failed(a, wrapped);
            return false;
        }
    }

    /**
     * The empty-source guard, asked of the whole tree rather than of the root: a source whose
     * only content is empty directories (an unmounted mount point shows an empty
     * {@code lost+found}) or whose files the filters all exclude has nothing to sync, and
     * deleting the target's files to match it is refused unless {@code allowEmptySource}.
     */
    private void refuseEmptySource() throws SyncRefusedException {
        if (options.deleteExtraneous() && !options.allowEmptySource() && sourceEntriesToSync.get() == 0
                && !deferred.isEmpty() && errors.isEmpty()) {
            throw new SyncRefusedException("source " + sourceRoot + " holds no file to sync"
                    + (filters.active() ? " after filters" : "") + " (only empty directories, if anything) and "
                    + deferred.size() + " extraneous entries would be deleted: refusing to empty the target "
                    + "(PathSyncer.Builder.allowEmptySource overrides)");
        }
    }
}
