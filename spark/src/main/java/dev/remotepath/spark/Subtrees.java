package dev.remotepath.spark;

import dev.remotepath.DirEntry;
import dev.remotepath.FileSystemCall;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.RemotePath;
import dev.remotepath.syncer.PathSyncer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * What the driver's planning and the tasks' splitting share: the subtrees a directory can be
 * split into, the anchored globs that keep a shard out of its children's subtrees, and paths
 * below a root by their '/'-separated relative path.
 */
final class Subtrees {

    private Subtrees() {
    }

    /** {@code root}'s descendant at {@code relativePath}, one validated name at a time. */
    static RemotePath below(RemotePath root, String relativePath) {
        RemotePath p = root;
        for (String name : relativePath.split("/")) {
            if (!name.isEmpty()) {
                p = p.child(name);
            }
        }
        return p;
    }

    /**
     * Fails when a directory on the way from {@code root} to its descendant {@code relativePath}
     * (the descendant included) is now a symbolic link: a shard's roots were listed as
     * directories, and a link in their place would lead the sync elsewhere. Stops at the first
     * name that does not exist (the sync creates it).
     */
    static void requireNoLinkOnTheWay(RemotePath root, String relativePath) throws IOException {
        RemotePath p = root;
        for (String name : relativePath.split("/")) {
            if (name.isEmpty()) {
                continue;
            }
            p = p.child(name);
            try {
                if (p.stat(LinkOption.NOFOLLOW_LINKS).isSymbolicLink()) {
                    throw new java.nio.file.FileSystemException(p.toString(), null,
                            "a symbolic link now stands where a directory was listed: not synced through it");
                }
            } catch (NoSuchFileException absent) {
                return;
            }
        }
    }

    /**
     * The children of {@code dir} (at {@code relativePath}) that can be shards of their own:
     * directories in the source (not links) that the target has as directories or lacks, and
     * that the filters do not leave out. A name that changed type stays with its parent's
     * shard, which replaces it; so do links, which the symlink policy decides on. Fewer than
     * {@code atLeast} such children: none (and the target is not listed when the source has
     * fewer subdirectories than that).
     */
    static List<String> splittable(PathSyncer probe, String relativePath, RemotePath sourceDir, RemotePath targetDir,
            int atLeast) throws IOException {
        // The source first: a directory with too few subdirectories costs one listing, not two.
        List<DirEntry> sources = sourceDir.list();
        if (sources.stream().filter(DirEntry::isDirectory).count() < atLeast) {
            return List.of();
        }
        Map<String, Boolean> targetIsDirectory = new HashMap<>();
        try {
            for (DirEntry e : targetDir.list()) {
                targetIsDirectory.put(e.name(), e.isDirectory());
            }
        } catch (NoSuchFileException e) {
            // a new subtree: every source directory can be a shard
        }
        List<String> children = new ArrayList<>();
        for (DirEntry e : sources) {
            String rel = relativePath.isEmpty() ? e.name() : relativePath + "/" + e.name();
            if (e.isDirectory() && targetIsDirectory.getOrDefault(e.name(), true) && !probe.ignores(rel, true)) {
                children.add(e.name());
            }
        }
        if (children.size() < atLeast) {
            return List.of();
        }
        children.sort(null);
        return children;
    }

    /** The exclude glob that keeps a shard out of its child {@code relativePath}'s subtree (a directory). */
    static String excludeGlob(String relativePath) {
        StringBuilder sb = new StringBuilder("/");
        for (int i = 0; i < relativePath.length(); i++) {
            char c = relativePath.charAt(i);
            if ("\\*?[]{},!".indexOf(c) >= 0) {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append('/').toString();
    }

    /** How many entries deleting {@code target} removes: itself and, for a directory, everything below. */
    static long entriesUnder(RemotePath target) throws IOException {
        if (!target.stat(LinkOption.NOFOLLOW_LINKS).isDirectory()) {
            return 1;
        }
        try (Stream<DirEntry> below = target.walk()) {
            return 1 + below.count();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Counts the listings made of a file system. */
    static final class ListingCounter implements FileSystemEvents {
        final AtomicLong listings = new AtomicLong();

        @Override
        public void started(FileSystemCall call) {
            if (call.operation() == FileSystemCall.Operation.LIST || call.operation() == FileSystemCall.Operation.LIST_TREE) {
                listings.incrementAndGet();
            }
        }
    }
}
