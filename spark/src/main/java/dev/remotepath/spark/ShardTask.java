package dev.remotepath.spark;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.ObservedFileSystem;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncListener;
import dev.remotepath.syncer.SyncReport;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function;

/**
 * One shard's work on an executor, in one phase: opens both roots (once per JVM), runs a
 * {@link PathSyncer} on the shard's subtree with the job's filters, and returns what it did.
 * A failure to open a root fails the task, so Spark runs it again; failures inside the sync are
 * in the outcome, as {@link PathSyncer} reports them.
 */
final class ShardTask implements Function<ShardTask.Work, ShardOutcome> {

    private static final long serialVersionUID = 1L;

    /** A shard and, for the deletion phase, the most deletions it may make (what it planned). */
    record Work(Shard shard, long deletionBudget) implements java.io.Serializable {
    }

    /** Roots opened in this JVM, shared by the tasks it runs: one connection pool per backend, not per task. */
    private static final Map<Location, RemotePath> OPENED = new ConcurrentHashMap<>();

    private final Location source;
    private final Location target;
    private final SyncSettings settings;
    private final ShardReport.Phase phase;
    private final int splitFanout;

    ShardTask(Location source, Location target, SyncSettings settings, ShardReport.Phase phase, int splitFanout) {
        this.source = source;
        this.target = target;
        this.settings = settings;
        this.phase = phase;
        this.splitFanout = splitFanout;
    }

    static RemotePath open(Location location) throws IOException {
        RemotePath root = OPENED.get(location);
        if (root == null) {
            root = location.open();
            RemotePath raced = OPENED.putIfAbsent(location, root);
            if (raced != null) {
                root = raced;
            }
        }
        return root;
    }

    @Override
    public ShardOutcome call(Work work) throws IOException {
        TaskContext context = TaskContext.get();
        int attempt = context == null ? 0 : context.attemptNumber();
        long start = System.nanoTime();
        Shard shard = work.shard();
        Subtrees.ListingCounter counter = new Subtrees.ListingCounter();
        Subtrees.ListingCounter probes = new Subtrees.ListingCounter();
        RemotePath src;
        RemotePath dst;
        RemotePath srcRoot;
        RemotePath dstRoot;
        try {
            srcRoot = Subtrees.below(open(source), shard.relativePath());
            dstRoot = Subtrees.below(open(target), shard.relativePath());
            src = ObservedFileSystem.observe(srcRoot, counter);
            dst = ObservedFileSystem.observe(dstRoot, counter);
        } catch (IOException e) {
            // Could not start at all (a server down, a connection refused): Spark's retry may pass.
            throw new UncheckedIOException("shard " + shard + ": opening " + source.uri() + " and " + target.uri(), e);
        }
        List<Shard> handedBack = new ArrayList<>();
        try {
            // Listed as directories when the shard was cut; a link put there since would take the
            // sync (and its deletions) outside the trees.
            Subtrees.requireNoLinkOnTheWay(open(source), shard.relativePath());
            Subtrees.requireNoLinkOnTheWay(open(target), shard.relativePath());
        } catch (InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            return failed(shard, attempt, start, counter, probes, handedBack, e);
        }
        if (phase != ShardReport.Phase.DELETE && shard.maySplit() && shard.ownShards().isEmpty()) {
            try {
                // Counted apart: the sync below lists the same directory again.
                List<String> children = Subtrees.splittable(settings.builder(src, dst).build(), shard.relativePath(),
                        ObservedFileSystem.observe(srcRoot, probes), ObservedFileSystem.observe(dstRoot, probes), splitFanout);
                if (!children.isEmpty()) {
                    for (String c : children) {
                        handedBack.add(Shard.subtree(shard.child(c), true));
                    }
                    shard = new Shard(shard.relativePath(), children, false);
                }
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                // The sync below reports why the subtree cannot be listed; it stays one shard.
            }
        }
        PathSyncer.Builder b = settings.builder(src, dst).filterPrefix(shard.relativePath())
                .deleteExtraneous(settings.deleteExtraneous()).allowEmptySource(true);
        for (String own : shard.ownShards()) {
            b.exclude(Subtrees.excludeGlob(shard.child(own)));
        }
        if (phase == ShardReport.Phase.PLAN) {
            List<ShardOutcome.Planned> plan = new ArrayList<>();
            List<SyncAction> actions;
            try {
                actions = b.build().plan();
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                return failed(shard, attempt, start, counter, probes, handedBack, e);
            }
            for (SyncAction a : actions) {
                plan.add(new ShardOutcome.Planned(a.kind(), shard.global(a.relativePath()),
                        a.size().isPresent() ? a.size().getAsLong() : -1, a.reason()));
            }
            return new ShardOutcome(shard, phase, attempt, new long[ShardOutcome.COUNTS], List.of(), "",
                    millisSince(start), counter.listings.get(), probes.listings.get(), 0, 0, handedBack, plan);
        }
        List<SyncAction> deferred = Collections.synchronizedList(new ArrayList<>());
        if (phase == ShardReport.Phase.COPY) {
            // Every deletion waits for the driver: it deletes only once every shard copied
            // without error, and the total is within maxDelete.
            b.maxDelete(0).listener(new SyncListener() {
                @Override
                public void deletionDeferred(SyncAction action) {
                    deferred.add(action);
                }
            });
        } else {
            b.maxDelete(work.deletionBudget());
        }
        SyncReport r;
        try {
            r = b.build().run();
        } catch (InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            // Refused to start (its subtree vanished since the driver listed it, say): an error
            // of this shard, which keeps every shard from deleting; not a task to try again.
            return failed(shard, attempt, start, counter, probes, handedBack, e);
        }
        long planned = 0;
        long replaced = 0;
        List<ShardOutcome.Error> errors = ShardOutcome.errors(shard, r);
        for (SyncAction a : deferred) {
            replaced += a.kind() == SyncAction.Kind.REPLACE_TYPE ? 1 : 0;
            try {
                planned += Subtrees.entriesUnder(a.target());
            } catch (java.nio.file.NoSuchFileException gone) {
                // deleted meanwhile: nothing to count
            } catch (IOException e) {
                errors.add(new ShardOutcome.Error(shard.global(a.relativePath()), "count deletions", e.toString(),
                        e.getClass().getName()));
            }
        }
        // In the copy phase the refusal is this task's own maxDelete 0: the driver decides.
        String refusal = phase == ShardReport.Phase.COPY ? "" : r.refusal().orElse("");
        long sourceEntries = r.filesCopied() + r.filesSkipped() + r.mtimesFixed() + r.linksCreated() + r.linksSkipped()
                + replaced;
        return new ShardOutcome(shard, phase, attempt, ShardOutcome.counts(r), errors, refusal, millisSince(start),
                counter.listings.get(), probes.listings.get(), planned, sourceEntries, handedBack, List.of());
    }

    private ShardOutcome failed(Shard shard, int attempt, long start, Subtrees.ListingCounter counter,
            Subtrees.ListingCounter probes, List<Shard> handedBack, IOException e) {
        ShardOutcome.Error error = new ShardOutcome.Error(shard.global(""), "sync", e.getClass().getSimpleName() + ": "
                + e.getMessage(), e.getClass().getName());
        return new ShardOutcome(shard, phase, attempt, new long[ShardOutcome.COUNTS], List.of(error), "",
                millisSince(start), counter.listings.get(), probes.listings.get(), 0, 0, handedBack, List.of());
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
