package dev.remotepath.spark;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.tree.FlatIndex;
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
import java.util.Optional;

/**
 * The driver's first cut of the trees into shards. An opened directory becomes a shard of its
 * own files, its subdirectories shards of their own; directories are opened breadth first until
 * there are {@code wanted} shards or {@code maxDepth} levels have been opened, or, where one
 * flat listing of the source gives every subtree's size (S3, Azure), exactly those larger than
 * a shard's share. The subtrees left are ordered largest first (by that size, else by the
 * entries their top directory lists), so the big ones start first and the small ones fill in;
 * a subtree that proves wide is split again by its task.
 */
final class ShardPlanner {

    private final PathSyncer probe;
    private final RemotePath source;
    private final RemotePath target;
    private final Subtrees.ListingCounter counter = new Subtrees.ListingCounter();

    ShardPlanner(PathSyncer probe, RemotePath source, RemotePath target) {
        this.probe = probe;
        this.source = dev.remotepath.spi.ObservedFileSystem.observe(source, counter);
        this.target = dev.remotepath.spi.ObservedFileSystem.observe(target, counter);
    }

    /** Listings the planning made, on both sides. */
    long listings() {
        return counter.listings.get();
    }

    /** Subtrees left are sized by a listing each only up to this many per shard wanted. */
    static final int ESTIMATED_AT_MOST = 4;

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
        // Where the source lists whole trees in a few requests (S3, Azure) and fits the budget,
        // every subtree's size is known exactly: directories larger than a shard's share are
        // opened, the rest stay whole. Elsewhere directories are opened breadth first until
        // there are enough shards.
        Map<String, Long> sizes = flatSizes();
        long share = sizes.isEmpty() ? -1 : Math.max(1, sizes.get("") / wanted);
        List<Shard> opened = new ArrayList<>();
        List<String> whole = new ArrayList<>();
        java.util.ArrayDeque<String> queue = new java.util.ArrayDeque<>(List.of(""));
        java.util.Map<String, Integer> depth = new HashMap<>(Map.of("", 0));
        while (!queue.isEmpty()) {
            String rel = queue.poll();
            boolean open = depth.get(rel) < maxDepth && (sizes.isEmpty()
                    ? opened.size() + whole.size() + queue.size() + 1 < wanted
                    : sizes.getOrDefault(rel, 0L) > share);
            List<String> children = List.of();
            if (open) {
                try {
                    children = Subtrees.splittable(probe, rel, Subtrees.below(source, rel), Subtrees.below(target, rel), 1);
                } catch (IOException e) {
                    // its shard's own sync reports why
                }
            }
            if (children.isEmpty()) {
                whole.add(rel);
                continue;
            }
            Shard shard = new Shard(rel, children, false);
            opened.add(shard);
            for (String c : children) {
                queue.add(shard.child(c));
                depth.put(shard.child(c), depth.get(rel) + 1);
            }
        }
        Map<String, Long> size = new HashMap<>();
        for (String rel : whole) {
            // One listing each, on the driver: worth it for a few shards per core, not for a
            // level of thousands of directories (those keep their listing order).
            size.put(rel, !sizes.isEmpty() ? sizes.getOrDefault(rel, 0L)
                    : whole.size() <= ESTIMATED_AT_MOST * wanted ? estimate(rel) : 0L);
        }
        List<String> largestFirst = new ArrayList<>(whole);
        largestFirst.sort(Comparator.comparing((String rel) -> size.get(rel)).reversed());
        List<Shard> shards = new ArrayList<>();
        for (String rel : largestFirst) {
            shards.add(Shard.subtree(rel, true));
        }
        shards.addAll(opened); // the opened directories' own files: small, last
        return shards;
    }

    /**
     * Every source directory's size (the entries below it, at any depth) from one flat listing,
     * or nothing when the backend has none or the tree is larger than the flat listings' budget.
     */
    private Map<String, Long> flatSizes() {
        Optional<FlatIndex> index;
        try {
            index = FlatIndex.read(source, ListDetail.TYPES, FlatIndex.DEFAULT_BUDGET);
        } catch (IOException e) {
            return Map.of(); // listed per directory instead, which reports what fails
        }
        if (index.isEmpty()) {
            return Map.of();
        }
        Map<String, List<String>> childDirs = new HashMap<>();
        Map<String, Long> sizes = new HashMap<>();
        List<String> order = new ArrayList<>(List.of(""));
        for (int i = 0; i < order.size(); i++) { // breadth first, without recursion
            String rel = order.get(i);
            List<DirEntry> entries;
            try {
                entries = index.get().take(Subtrees.below(source, rel)).orElse(List.of());
            } catch (IOException unsafeName) {
                return Map.of(); // listed per directory, whose sync reports the name
            }
            List<String> dirs = new ArrayList<>();
            for (DirEntry e : entries) {
                if (e.isDirectory()) {
                    String child = rel.isEmpty() ? e.name() : rel + "/" + e.name();
                    dirs.add(child);
                    order.add(child);
                }
            }
            childDirs.put(rel, dirs);
            sizes.put(rel, (long) entries.size());
        }
        for (int i = order.size() - 1; i >= 0; i--) { // children before their parents
            String rel = order.get(i);
            long total = sizes.get(rel);
            for (String c : childDirs.get(rel)) {
                total += sizes.get(c);
            }
            sizes.put(rel, total);
        }
        return sizes;
    }

    /** A subtree's size as its top directory's entries, a subdirectory weighing as much as ten files. */
    private long estimate(String rel) {
        try {
            return Subtrees.below(source, rel).list().stream().mapToLong(e -> e.isDirectory() ? 10 : 1).sum();
        } catch (IOException e) {
            return 0;
        }
    }
}
