package dev.remotepath.spark;

import java.io.Serializable;
import java.util.List;

/**
 * One unit of work: the subtree at {@code relativePath} ('/'-separated below the roots, empty
 * for the roots), except the child directories named in {@code ownShards}, which other shards
 * sync. {@code maySplit}: the task may hand its subdirectories back as new shards when it finds
 * more of them than the split fan-out.
 */
record Shard(String relativePath, List<String> ownShards, boolean maySplit) implements Serializable {

    Shard {
        ownShards = List.copyOf(ownShards);
    }

    static Shard subtree(String relativePath, boolean maySplit) {
        return new Shard(relativePath, List.of(), maySplit);
    }

    String child(String name) {
        return relativePath.isEmpty() ? name : relativePath + "/" + name;
    }

    /** The path below the roots of an entry this shard names relative to its own root. */
    String global(String below) {
        if (below.isEmpty() || below.equals(".")) {
            return relativePath.isEmpty() ? "." : relativePath;
        }
        return child(below);
    }

    @Override
    public String toString() {
        String root = relativePath.isEmpty() ? "." : relativePath;
        return ownShards.isEmpty() ? root : root + " (without " + ownShards.size() + " subdirectories)";
    }
}
