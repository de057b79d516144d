package dev.remotepath.tree;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import java.nio.file.FileSystemLoopException;
import java.util.List;

/**
 * The loop and depth defence of every traversal (walks, tree copies, syncs) that holds without
 * file keys: a server can fabricate an endless tree (each level linking {@code a/} and
 * {@code b/}, a {@code sub/} that serves its parent's page again) that no inode check sees.
 *
 * <ul>
 *   <li>No directory deeper than {@link #MAX_DEPTH} levels below the start, nor with a path
 *       longer than {@link #MAX_PATH_LENGTH} characters, is entered (system properties
 *       {@code remotepath.maxDepth} and {@code remotepath.maxPathLength} raise them).</li>
 *   <li>On a backend whose listings are round trips (not {@link Capability#IN_PROCESS}), a
 *       directory whose listing is the same as one of its ancestors' (names, types, sizes and
 *       times of every entry, two entries at least, one of them a directory) is a loop: a real tree that
 *       repeats itself entry for entry, times included, one level down, is a copy of a copy,
 *       and following it would never end on a fabricated one.</li>
 * </ul>
 * Each is a {@link FileSystemLoopException} for that directory, reported like any listing error.
 */
public final class TraversalLimits {

    /** Levels below the start a traversal enters. */
    public static final int MAX_DEPTH = Integer.getInteger("remotepath.maxDepth", 1000);

    /** The longest path (in characters) a traversal enters. */
    public static final int MAX_PATH_LENGTH = Integer.getInteger("remotepath.maxPathLength", 4096);

    private TraversalLimits() {
    }

    /** Fails when {@code dir}, {@code depth} levels below the start, is too deep or its path too long. */
    public static void checkDepth(RemotePath dir, int depth) throws FileSystemLoopException {
        if (depth > MAX_DEPTH) {
            throw new FileSystemLoopException(dir + " (more than " + MAX_DEPTH
                    + " levels deep: an endless tree? -Dremotepath.maxDepth raises the limit)");
        }
        if (dir.pathString().length() > MAX_PATH_LENGTH) {
            throw new FileSystemLoopException(dir + " (path longer than " + MAX_PATH_LENGTH
                    + " characters: an endless tree? -Dremotepath.maxPathLength raises the limit)");
        }
    }

    /**
     * A fingerprint of a listing for the repeated-listing check, or 0 when the check does not
     * apply (an in-process backend; a listing without subdirectories, which ends there; a single
     * entry, which a real chain of same-named directories also shows).
     */
    public static long fingerprint(RemotePath dir, List<DirEntry> entries) {
        if (dir.fileSystem().capabilities().contains(Capability.IN_PROCESS)) {
            return 0;
        }
        if (entries.size() < 2) {
            return 0; // a chain of single same-named directories is left to the depth limit
        }
        boolean anyDirectory = false;
        long h = 1125899906842597L;
        for (DirEntry e : entries) {
            anyDirectory |= e.isDirectory();
            h = 31 * h + e.name().hashCode();
            h = 31 * h + e.type().ordinal();
            h = 31 * h + e.stat().size().orElse(-1);
            h = 31 * h + e.stat().lastModified().map(t -> t.getEpochSecond() * 1_000_000_000L + t.getNano()).orElse(-1L);
            h = 31 * h + e.stat().storedAt().map(t -> t.getEpochSecond() * 1_000_000_000L + t.getNano()).orElse(-1L);
        }
        return anyDirectory ? (h == 0 ? 1 : h) : 0;
    }

    /** The error for a directory whose listing repeats an ancestor's. */
    public static FileSystemLoopException repeated(RemotePath dir) {
        return new FileSystemLoopException(dir + " (its listing is the same as a directory's above it, entry for entry: "
                + "an endless tree served again one level down)");
    }
}
