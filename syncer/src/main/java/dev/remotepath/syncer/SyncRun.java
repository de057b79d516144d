package dev.remotepath.syncer;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.tree.BoundedTraversal;
import dev.remotepath.tree.FileTransfer;
import dev.remotepath.tree.Listings;
import dev.remotepath.tree.RealPaths;
import dev.remotepath.tree.TraversalLimits;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One run (or dry run) of a {@link PathSyncer}: walks the two trees in step, one directory
 * at a time, merging their sorted listings; decides directories, links and type changes here
 * and each file pair in {@link FileSync}; hands each action to its {@link Execution} (carried
 * out on a bounded pool of virtual threads, or written down for a plan); counts in a
 * {@link Tally}, records errors and gives up in {@link Failures}; and deletes only at the end
 * ({@link DeletionPhase}).
 */
final class SyncRun {

    final RemotePath sourceRoot;
    final RemotePath targetRoot;
    final PathSyncer.Options options;
    /** Carries the traversal's actions out, or writes them down for a dry run. */
    final Execution execution;
    final Filters filters;
    final SyncListener listener;

    // Filled by several traversal threads; sorted before anyone reads them.
    final List<SyncAction> deferred = java.util.Collections.synchronizedList(new ArrayList<>());
    /** For each type change deferred (by relative path): what brings its source over once the target's entry is gone. */
    final java.util.Map<String, IoTask> replacements = new java.util.concurrent.ConcurrentHashMap<>();
    final Failures failures;
    final Tally tally = new Tally();
    /** Temporaries found in the target, removed at the end once seen to stand still. */
    private final Leftovers leftovers = new Leftovers();
    /**
     * Directories waiting for a walker; beyond it a walker descends at once itself, so memory
     * stays bounded however many directories the trees hold (see {@link BoundedTraversal}).
     */
    static final int WAITING_DIRECTORIES = 1024;
    /** The traversal under way: its walkers take the subdirectories the merges find. */
    private BoundedTraversal traversal;
    /** Compares the content of file pairs quick-check could not decide (and CHECKSUM's). */
    private final ContentComparison contents;
    /** Decides each file pair and hands on what it decides. */
    private final FileSync files;

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
        this.filters = new Filters(options.includes(), options.excludes(), options.filterPrefix());
        boolean flat = options.flatListingBudget() > 0 && !filters.mayPruneDirectories();
        this.sourceFlat = flat ? new FlatListings(sourceRoot, options.flatListingBudget()) : null;
        this.targetFlat = flat ? new FlatListings(targetRoot, options.flatListingBudget()) : null;
        this.listener = carryOut ? options.listener() : SyncListener.NONE;
        this.failures = new Failures(listener, options.retries());
        this.execution = carryOut ? new Execution.Run(failures, options.transfers(), listener) : new Execution.Plan();
        this.contents = new ContentComparison(options.checksumAlgorithm(), tally.contentBytesRead);
        this.files = new FileSync(options, execution, tally, failures, contents, listener,
                source.fileSystem().capabilities().contains(Capability.IN_PROCESS)
                        && target.fileSystem().capabilities().contains(Capability.IN_PROCESS));
    }

    // ------------------------------------------------------------------ entry points

    private List<SyncAction> plan() throws IOException {
        traverse();
        DeletionPhase.refuseEmptySource(this);
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
        if (!failures.hasGivenUp()) {
            leftovers.remove(this);
        }
        DeletionPhase.refuseEmptySource(this);
        Optional<String> refusal = failures.hasGivenUp() ? failures.whyGivenUp() : new DeletionPhase(this).run();
        if (!failures.hasGivenUp()) {
            directoryTimes.restore((rel, e) -> fail(rel, "set directory mtime", e));
        }
        return tally.report(contents, failures.all(), refusal, Duration.between(start, Instant.now()));
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
            if (!execution.now(mkdir, () -> FileTransfer.createDirectoriesLike(targetRoot, sourceRoot))) {
                return;
            }
            tally.directoriesCreated.incrementAndGet();
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
        BoundedTraversal.run(options.checkers(), WAITING_DIRECTORIES, walk -> {
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
        if (failures.hasGivenUp()) {
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
            // Names on one side only wait for the end: a few may be spellings of one another.
            List<DirEntry> fresh = List.of();
            List<DirEntry> gone = List.of();
            while (i < sources.size() || j < targets.size()) {
                DirEntry s = i < sources.size() ? sources.get(i) : null;
                DirEntry t = j < targets.size() ? targets.get(j) : null;
                int c = s == null ? 1 : t == null ? -1 : s.name().compareTo(t.name());
                if (c < 0) {
                    i++;
                    fresh = added(fresh, s);
                } else if (c > 0) {
                    j++;
                    gone = added(gone, t);
                } else {
                    i++;
                    j++;
                    pair(rel, dstDir, s, t, ancestors, resolvedDir);
                }
            }
            if (!fresh.isEmpty()) {
                oneSided(rel, dstDir, sources, fresh, gone, ancestors, resolvedDir);
            } else {
                for (DirEntry t : gone) {
                    pair(rel, dstDir, null, t, ancestors, resolvedDir);
                }
            }
            return changed[0];
        } finally {
            CHANGED_HERE.set(outer); // a walk run inline returns to its parent's merge
        }
    }

    private static List<DirEntry> added(List<DirEntry> list, DirEntry e) {
        List<DirEntry> growing = list.isEmpty() ? new ArrayList<>() : list;
        growing.add(e);
        return growing;
    }

    /**
     * A directory's names on one side only: new source entries first, each as new, as the
     * target's entry under another spelling, or refused ({@link Spellings}), then the target's
     * extraneous entries that no new name claimed.
     */
    private void oneSided(String rel, RemotePath dstDir, List<DirEntry> sources, List<DirEntry> fresh,
            List<DirEntry> gone, List<String> ancestors, RemotePath resolvedDir) throws IOException {
        List<DirEntry> fresher = new ArrayList<>(fresh.size());
        for (DirEntry n : fresh) {
            if (!ignored(rel, n)) {
                fresher.add(n);
            }
        }
        java.util.Map<String, Spellings.Fate> fates = fresher.isEmpty() ? java.util.Map.of()
                : Spellings.resolve(dstDir, sources, fresher, gone, execution.carriesOut());
        for (DirEntry n : fresh) {
            switch (fates.get(n.name())) {
                case null -> pair(rel, dstDir, n, null, ancestors, resolvedDir);
                case Spellings.Fate.Paired p -> pair(rel, dstDir, n, p.target(), ancestors, resolvedDir);
                case Spellings.Fate.Refused r -> record(new SyncError(childRel(rel, n.name()), "copy", "not copied: the "
                        + "target does not tell \"" + n.name() + "\" from \"" + r.kept() + "\" (names that differ only in "
                        + "case or Unicode normalization), and the source holds both"));
                case Spellings.Fate.Failed f -> fail(childRel(rel, n.name()), "look up variant", f.error());
            }
        }
        for (DirEntry t : gone) {
            pair(rel, dstDir, null, t, ancestors, resolvedDir);
        }
    }

    /** Whether {@link #pair} passes {@code e} over: a temporary, or left out by the filters. */
    private boolean ignored(String rel, DirEntry e) {
        return FileTransfer.isTemporary(e.name()) || filteredOut(childRel(rel, e.name()), e.isDirectory());
    }

    private boolean filteredOut(String childRel, boolean directory) {
        return filters.active() && filters.ignored(List.of(childRel.split("/")), directory);
    }

    private static String childRel(String rel, String name) {
        return rel.isEmpty() ? name : rel + "/" + name;
    }

    /**
     * Set by whatever the merge of a directory schedules that adds, replaces or removes one of
     * its entries (which changes the target directory's mtime): that directory's time is then
     * restored at the end. Per thread, because a directory is merged on one thread, and a
     * subdirectory walked inline (the traversal's queue full) saves and restores its parent's.
     */
    private static final ThreadLocal<boolean[]> CHANGED_HERE = ThreadLocal.withInitial(() -> new boolean[1]);

    static void changedHere() {
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
            // A killed copy's leftover: never synced as a file (said, not silent); on the target
            // side it goes at the end, unless another process's copy is still writing it.
            if (s != null) {
                listener.skipped(childRel(rel, name), "a temporary of an interrupted copy (.rptmp)");
            }
            if (t != null && !t.isDirectory() && execution.carriesOut()) {
                leftovers.found(childRel(rel, name), t);
                changedHere();
            }
            return;
        }
        String childRel = childRel(rel, name);
        if (filteredOut(childRel, s != null ? s.isDirectory() : t.isDirectory())) {
            return;
        }
        RemotePath dst = t != null ? t.path() : dstDir.child(name); // the target's listing already made it
        if (s != null && !s.isDirectory()) {
            tally.sourceEntriesToSync.incrementAndGet();
        }
        if (s == null) {
            DeletionPhase.extraneous(this, childRel, t);
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
            case FILE -> {
                if (t != null && t.isDirectory()) {
                    DeletionPhase.typeChange(this, rel, s, t, "source is a file, target is a directory",
                            () -> files.sync(rel, s, null, dst));
                } else {
                    files.sync(rel, s, t, dst);
                }
            }
            case DIRECTORY -> directory(rel, s, t, dst, ancestors, resolvedParent, resolved);
            case SYMLINK -> link(rel, s, t, dst, ancestors, resolvedParent, resolved);
            case OTHER -> record(new SyncError(rel, "copy", "special file (device, socket or FIFO) not copied"));
        }
    }

    private void directory(String rel, DirEntry s, DirEntry t, RemotePath dst, List<String> ancestors,
            RemotePath resolvedParent, RemotePath resolved) {
        if (t != null && !t.isDirectory()) {
            DeletionPhase.typeChange(this, rel, s, t, "source is a directory, target is a " + t.type().label(),
                    () -> directory(rel, s, null, dst, ancestors, resolvedParent, resolved));
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
            if (!execution.now(mkdir, () -> FileTransfer.createDirectoryLike(dst, s.stat()))) {
                return;
            }
            tally.directoriesCreated.incrementAndGet();
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

    /**
     * The sources of the type changes whose target entries the deletion phase removed, brought
     * over as new entries by the traversal's own rules (filters, link policy, name checks,
     * counts and times), on its walkers and transfer slots, as if the target had never held them.
     */
    void bringOver(List<String> rels) throws IOException {
        try {
            BoundedTraversal.run(options.checkers(), WAITING_DIRECTORIES, walk -> {
                traversal = walk;
                return () -> {
                    for (String rel : rels) {
                        try {
                            replacements.get(rel).run();
                        } catch (InterruptedIOException e) {
                            throw e;
                        } catch (IOException e) {
                            fail(rel, "sync", e);
                        }
                    }
                };
            });
        } finally {
            execution.finish();
        }
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
                tally.linksSkipped.incrementAndGet();
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
                    DeletionPhase.typeChange(this, rel, s, t, "source is a link, target is a directory",
                            () -> link(rel, s, null, dst, ancestors, resolvedParent, resolved));
                    return;
                }
                String text;
                try {
                    text = dev.remotepath.tree.LinkTargets.textOf(s.path(), s.stat());
                    if (t != null && t.isSymbolicLink() && dev.remotepath.tree.LinkTargets.sameDestination(text, s.path(),
                            dev.remotepath.tree.LinkTargets.textOf(t.path(), t.stat()), t.path())) {
                        tally.filesSkipped.incrementAndGet();
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
                    tally.linksCreated.incrementAndGet();
                });
            }
        }
    }

    /** A directory's listing, sorted, retried after a transient failure (listing is idempotent). */
    private List<DirEntry> listed(RemotePath dir) throws IOException {
        FlatListings flat = dir.sameFileSystemAs(targetRoot) && dir.startsWith(targetRoot) ? targetFlat
                : dir.sameFileSystemAs(sourceRoot) && dir.startsWith(sourceRoot) ? sourceFlat : null;
        if (flat != null) {
            java.util.Optional<List<DirEntry>> indexed = flat.take(dir, failures::retrying);
            if (indexed.isPresent()) {
                return indexed.get();
            }
        }
        return failures.retrying(() -> Listings.sorted(dir, ListDetail.FILE_STATS));
    }

    private final FlatListings sourceFlat;
    private final FlatListings targetFlat;

    void fail(String rel, String operation, Throwable e) {
        failures.fail(rel, operation, e);
    }

    private void record(SyncError e) {
        failures.record(e);
    }
}
