package dev.remotepath.tree;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * Where paths really are, for the checks that must not be fooled by a symbolic link: a sync or
 * tree copy whose target is an alias of (or lies inside) its source, or the other way round,
 * is refused before anything changes. Paths are compared once every link on them is resolved;
 * a path that does not exist yet is resolved through its nearest existing ancestor.
 */
public final class RealPaths {

    private RealPaths() {
    }

    /**
     * {@code path} with every link resolved; the part that does not exist yet is kept as named.
     * An in-process backend asks the system ({@code realpath}); a remote one with links is
     * resolved component by component ({@link LinkTargets#startOf}), since a server's REALPATH
     * may be lexical (MINA's is); one without links is its own real path.
     */
    public static RemotePath resolve(RemotePath path) throws IOException {
        java.util.Set<dev.remotepath.spi.Capability> caps = path.fileSystem().capabilities();
        if (!caps.contains(dev.remotepath.spi.Capability.IN_PROCESS)) {
            return caps.contains(dev.remotepath.spi.Capability.SYMBOLIC_LINKS) ? LinkTargets.startOf(path) : path;
        }
        Deque<String> missing = new ArrayDeque<>();
        RemotePath current = path;
        while (true) {
            try {
                RemotePath real = current.fileSystem().realPath(current);
                for (String name : missing) {
                    real = real.child(name);
                }
                return real;
            } catch (NoSuchFileException absent) {
                RemotePath parent = current.parent();
                if (parent.equals(current)) {
                    throw absent;
                }
                missing.push(current.name());
                current = parent;
            }
        }
    }

    /**
     * Why {@code source} and {@code target} may not be used together (one is, or lies inside,
     * the other once links are resolved), or empty when they are apart. Paths on different
     * file systems never overlap.
     */
    public static Optional<String> overlap(RemotePath source, RemotePath target) throws IOException {
        return check(source, target, true);
    }

    /**
     * Why {@code target} may not receive a copy of the tree {@code source}: it is, or lies
     * inside, the source once links are resolved (the copy would copy itself for ever). A source
     * inside its target is fine for a copy.
     */
    public static Optional<String> targetInside(RemotePath source, RemotePath target) throws IOException {
        return check(source, target, false);
    }

    private static Optional<String> check(RemotePath source, RemotePath target, boolean bothWays) throws IOException {
        if (!source.sameFileSystemAs(target)) {
            return Optional.empty();
        }
        if (target.startsWith(source) || (bothWays && source.startsWith(target))) {
            return Optional.of(describe(source, target, source, target));
        }
        RemotePath s = resolve(source);
        RemotePath t = resolve(target);
        if (t.startsWith(s) || (bothWays && s.startsWith(t))) {
            return Optional.of(describe(source, target, s, t));
        }
        return Optional.empty();
    }

    private static String describe(RemotePath source, RemotePath target, RemotePath s, RemotePath t) {
        String how = s.equals(t) ? "are the same directory" : t.startsWith(s) ? "overlap: the target lies inside the source tree"
                : "overlap: the source lies inside the target";
        boolean aliased = !s.equals(source) || !t.equals(target);
        return "source " + source + " and target " + target + " " + how
                + (aliased ? " (through symbolic links: " + s.pathString() + " and " + t.pathString() + ")" : "");
    }
}
