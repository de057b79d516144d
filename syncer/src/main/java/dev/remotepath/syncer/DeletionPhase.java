package dev.remotepath.syncer;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.tree.TreeRemover;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The last phase of a run: the extraneous entries and type replacements the traversal
 * deferred, done only when every copy succeeded and within {@code maxDelete} (counted
 * recursively), each checked to lie below the target root, and counted as they are removed.
 */
final class DeletionPhase {

    private final SyncRun run;

    DeletionPhase(SyncRun run) {
        this.run = run;
    }

    /** An extraneous target entry, found by the traversal: deleted here at the end, with deleteExtraneous. */
    static void extraneous(SyncRun run, String rel, DirEntry t) {
        if (run.options.deleteExtraneous()) {
            SyncRun.changedHere();
            defer(run, new SyncAction(t.isDirectory() ? SyncAction.Kind.DELETE_DIRECTORY : SyncAction.Kind.DELETE_FILE,
                    rel, Optional.empty(), t.path(), java.util.OptionalLong.empty(), "extraneous"));
        }
    }

    /**
     * A file that became a directory or the reverse: the target's entry is removed here at the
     * end, which needs deleteExtraneous, and then {@code bringOver} makes the source's anew.
     */
    static void typeChange(SyncRun run, String rel, DirEntry s, DirEntry t, String what, IoTask bringOver) {
        if (!run.options.deleteExtraneous()) {
            run.failures.record(new SyncError(rel, "sync", "type changed (" + what + "); replacing it needs deleteExtraneous"));
            return;
        }
        SyncRun.changedHere();
        if (s.isDirectory()) {
            // A source entry too, for the empty-source guard: its files are walked only once the
            // target's entry is gone, and a source whose files all lie below it is not empty.
            run.tally.sourceEntriesToSync.incrementAndGet();
        }
        run.replacements.put(rel, bringOver);
        defer(run, new SyncAction(SyncAction.Kind.REPLACE_TYPE, rel, Optional.of(s.path()), t.path(), s.stat().size(),
                "type changed: " + what));
    }

    /**
     * The empty-source guard, asked of the whole tree rather than of the root: a source whose
     * only content is empty directories (an unmounted mount point shows an empty
     * {@code lost+found}) or whose files the filters all exclude has nothing to sync, and
     * deleting the target's files to match it is refused unless {@code allowEmptySource}.
     */
    static void refuseEmptySource(SyncRun run) throws SyncRefusedException {
        if (run.options.deleteExtraneous() && !run.options.allowEmptySource() && run.tally.sourceEntriesToSync.get() == 0
                && !run.deferred.isEmpty() && run.failures.none()) {
            throw new SyncRefusedException("source " + run.sourceRoot + " holds no file to sync"
                    + (run.filters.active() ? " after filters" : "") + " (only empty directories, if anything) and "
                    + run.deferred.size() + " extraneous entries would be deleted: refusing to empty the target "
                    + "(PathSyncer.Builder.allowEmptySource overrides)");
        }
    }

    private static void defer(SyncRun run, SyncAction a) {
        run.deferred.add(a);
        run.listener.deletionDeferred(a);
    }

    /**
     * Deletions and type replacements, only after every copy succeeded and within maxDelete;
     * the refusal, when they were skipped or refused.
     */
    Optional<String> run() {
        if (run.deferred.isEmpty()) {
            return Optional.empty();
        }
        if (!run.failures.none()) {
            return Optional.of("deletions skipped: " + run.failures.count() + " error(s) earlier in this run ("
                    + run.deferred.size() + " pending)");
        }
        long deletions;
        try {
            deletions = run.options.maxDelete() == Long.MAX_VALUE ? run.deferred.size() : countDeletions();
        } catch (IOException e) {
            run.fail("", "count deletions", e);
            return Optional.of("deletions skipped: counting what they would remove failed (" + run.deferred.size()
                    + " pending)");
        }
        if (deletions > run.options.maxDelete()) {
            return Optional.of(PathSyncer.MAX_DELETE_REFUSAL + ": " + deletions + " deletions needed (files and "
                    + "directories, counted recursively), at most " + run.options.maxDelete() + " allowed; nothing was deleted");
        }
        List<SyncAction> files = new ArrayList<>();
        List<String> replaced = new ArrayList<>();
        for (SyncAction a : SyncRun.sorted(run.deferred)) {
            if (a.kind() == SyncAction.Kind.DELETE_FILE) {
                files.add(a);
                if (files.size() == DELETE_BATCH) {
                    deleteFiles(files);
                    files.clear();
                }
                continue;
            }
            boolean removed = run.failures.act(a, () -> {
                RemotePath t = belowTargetRoot(a);
                TreeRemover.Removed gone = TreeRemover.deleteRecursively(t);
                run.tally.filesDeleted.addAndGet(gone.files());
                run.tally.directoriesDeleted.addAndGet(gone.directories());
            });
            if (removed && a.kind() == SyncAction.Kind.REPLACE_TYPE) {
                replaced.add(a.relativePath());
            }
        }
        deleteFiles(files);
        if (!replaced.isEmpty()) {
            // Not a wholesale copy of the source's subtree: that took no filters, no link policy
            // and counted a directory of any size as one file.
            try {
                run.bringOver(replaced);
            } catch (IOException e) {
                run.fail("", "replace", e);
            }
        }
        return Optional.empty();
    }

    /** Extraneous files deleted per request where the backend batches ({@code DeleteObjects} takes 1,000). */
    static final int DELETE_BATCH = 1000;

    private static RemotePath checkedBelow(RemotePath root, RemotePath t) throws IOException {
        if (!t.startsWith(root) || t.equals(root)) {
            throw new IOException("refusing to delete " + t + ": not below the target root");
        }
        return t;
    }

    private RemotePath belowTargetRoot(SyncAction a) throws IOException {
        return checkedBelow(run.targetRoot, a.target());
    }

    /**
     * Deletes extraneous files in batches ({@link dev.remotepath.spi.RemoteFileSystem#deleteFiles});
     * when a batch fails, its files are deleted one by one so each failure is reported with its path.
     */
    private void deleteFiles(List<SyncAction> batch) {
        if (batch.isEmpty() || run.failures.hasGivenUp()) {
            return;
        }
        List<RemotePath> paths = new ArrayList<>(batch.size());
        for (SyncAction a : batch) {
            try {
                paths.add(belowTargetRoot(a));
            } catch (IOException e) {
                run.fail(a.relativePath(), "delete_file", e);
                return;
            }
        }
        for (SyncAction a : batch) {
            run.listener.started(a);
        }
        try {
            run.failures.retrying(() -> { // files already gone are not errors: a batch can run again
                run.targetRoot.fileSystem().deleteFiles(paths);
                return null;
            });
            run.failures.answered();
        } catch (IOException batchFailed) {
            for (SyncAction a : batch) {
                try {
                    try {
                        a.target().fileSystem().deleteFile(a.target());
                    } catch (NoSuchFileException gone) {
                        // deleted by the batch before it failed
                    }
                    run.tally.filesDeleted.incrementAndGet();
                    run.listener.finished(a);
                } catch (IOException e) {
                    run.fail(a.relativePath(), "delete_file", e);
                    run.listener.failed(a, e);
                }
            }
            return;
        } catch (RuntimeException e) {
            for (SyncAction a : batch) {
                run.fail(a.relativePath(), "delete_file", new IOException(e.toString(), e));
            }
            return;
        }
        run.tally.filesDeleted.addAndGet(batch.size());
        for (SyncAction a : batch) {
            run.listener.finished(a);
        }
    }

    /**
     * Every entry the deferred deletions would remove, each directory's contents counted
     * recursively (as rsync and rclone count for their max-delete): a directory of 1,000 files
     * is 1,001 deletions, not one. Costs one listing per directory to be deleted, and only runs
     * when a maxDelete bound is set.
     */
    private long countDeletions() throws IOException {
        long n = 0;
        for (SyncAction a : run.deferred) {
            n++;
            boolean directory = a.kind() == SyncAction.Kind.DELETE_DIRECTORY
                    || (a.kind() == SyncAction.Kind.REPLACE_TYPE && a.target().stat(java.nio.file.LinkOption.NOFOLLOW_LINKS).isDirectory());
            if (directory) {
                try (java.util.stream.Stream<DirEntry> below = a.target().walk()) {
                    n += below.count();
                } catch (java.io.UncheckedIOException e) {
                    throw e.getCause();
                }
            }
        }
        return n;
    }
}
