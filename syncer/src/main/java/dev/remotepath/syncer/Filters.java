package dev.remotepath.syncer;

import dev.remotepath.tree.Glob;
import java.util.List;

/**
 * Include/exclude decisions on paths relative to the sync roots, with rclone's reading of
 * globs: unanchored patterns match at any depth, '/'-anchored ones from the root, and a
 * trailing '/' restricts a pattern to directories.
 */
final class Filters {

    private final List<Glob> includes;
    private final List<Glob> excludes;
    /** The roots' own path below the tree the globs were written for (empty: the roots themselves). */
    private final List<String> prefix;

    Filters(List<Glob> includes, List<Glob> excludes, List<String> prefix) {
        this.includes = includes;
        this.excludes = excludes;
        this.prefix = prefix;
    }

    /** False when there is nothing to filter, so callers skip building the path's parts. */
    boolean active() {
        return !includes.isEmpty() || !excludes.isEmpty();
    }

    /**
     * Whether the filters may leave whole directories out: an exclude for directories (a
     * trailing {@code /}) or an anchored include. A walk then skips those subtrees, which a
     * flat listing would read for nothing.
     */
    boolean mayPruneDirectories() {
        return excludes.stream().anyMatch(g -> g.toString().endsWith("/"))
                || includes.stream().anyMatch(Glob::isAbsolute);
    }

    /** Whether an entry is left alone on both sides (neither copied nor deleted). */
    boolean ignored(List<String> relative, boolean directory) {
        List<String> parts = relative;
        if (!prefix.isEmpty()) {
            parts = new java.util.ArrayList<>(prefix.size() + relative.size());
            parts.addAll(prefix);
            parts.addAll(relative);
        }
        for (Glob g : excludes) {
            if (appliesTo(g, directory) && g.matchesFromRight(parts, true)) {
                return true;
            }
        }
        if (includes.isEmpty()) {
            return false;
        }
        for (Glob g : includes) {
            if (directory ? mayHoldMatches(g, parts) : appliesTo(g, false) && g.matchesFromRight(parts, true)) {
                return false;
            }
        }
        return true;
    }

    private static boolean appliesTo(Glob g, boolean directory) {
        return directory || !g.toString().endsWith("/");
    }

    private static boolean mayHoldMatches(Glob g, List<String> dirParts) {
        if (!g.isAbsolute()) {
            return true; // an unanchored pattern can match at any depth below
        }
        return g.couldMatchBelow(dirParts) || (g.toString().endsWith("/") && g.matches(dirParts));
    }
}
