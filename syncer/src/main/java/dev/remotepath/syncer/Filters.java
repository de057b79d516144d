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

    Filters(List<Glob> includes, List<Glob> excludes) {
        this.includes = includes;
        this.excludes = excludes;
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
    boolean ignored(List<String> parts, boolean directory) {
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
