package dev.remotepath.spark;

import dev.remotepath.RemotePath;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncRefusedException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The driver's first cut of the trees into shards: directories are opened breadth first, each
 * opened one becoming a shard of its own files (its subdirectories left to their shards),
 * until there are {@code wanted} shards or {@code maxDepth} levels have been opened. The
 * subtrees left are ordered largest first by the entries their top directory lists, so the
 * big ones start first and the small ones fill in; a subtree that proves wide is split again by
 * its task.
 */
final class ShardPlanner {

    private final PathSyncer probe;
    private final RemotePath source;
    private final RemotePath target;
    /** Listings the planning made, on both sides. */
    long listings;

    ShardPlanner(PathSyncer probe, RemotePath source, RemotePath target) {
        this.probe = probe;
        this.source = source;
        this.target = target;
    }

    List<Shard> plan(int wanted, int maxDepth) throws IOException {
        try {
            if (!source.stat().isDirectory()) {
                throw new SyncRefusedException("source " + source + " is not a directory: refusing to sync");
            }
        } catch (NoSuchFileException e) {
            throw new SyncRefusedException("source " + source + " does not exist: refusing to sync");
        } catch (NotDirectoryException e) {
            throw new SyncRefusedException("source " + source + " is not a directory: refusing to sync");
        }
        List<Shard> shards = new ArrayList<>();
        List<String> frontier = List.of("");
        for (int depth = 0; depth < maxDepth && !frontier.isEmpty() && shards.size() + frontier.size() < wanted; depth++) {
            List<String> next = new ArrayList<>();
            for (String rel : frontier) {
                List<String> children;
                try {
                    children = Subtrees.splittable(probe, rel, Subtrees.below(source, rel), Subtrees.below(target, rel));
                    listings += 2;
                } catch (IOException e) {
                    children = List.of(); // its shard's own sync reports why
                }
                if (children.isEmpty()) {
                    shards.add(Shard.subtree(rel, true));
                    continue;
                }
                Shard opened = new Shard(rel, children, false);
                shards.add(opened);
                for (String c : children) {
                    next.add(opened.child(c));
                }
            }
            frontier = next;
        }
        Map<String, Long> size = new HashMap<>();
        for (String rel : frontier) {
            size.put(rel, estimate(rel));
        }
        List<String> largestFirst = new ArrayList<>(frontier);
        largestFirst.sort(Comparator.comparing((String rel) -> size.get(rel)).reversed());
        List<Shard> subtrees = new ArrayList<>();
        for (String rel : largestFirst) {
            subtrees.add(Shard.subtree(rel, true));
        }
        subtrees.addAll(shards); // the opened directories' own files: small, last
        return subtrees;
    }

    /** A subtree's size as its top directory's entries, a subdirectory weighing as much as ten files. */
    private long estimate(String rel) {
        try {
            listings++;
            return Subtrees.below(source, rel).list().stream().mapToLong(e -> e.isDirectory() ? 10 : 1).sum();
        } catch (IOException e) {
            return 0;
        }
    }
}
