package dev.remotepath.spi;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one object-store file system (S3, Azure Blob) has learnt of its directories, so that
 * writes skip the requests that would find them again: prefixes ({@code a/b/}) seen to exist, and those whose
 * subdirectories are all known (listed to the end, or created here), below which a name is known
 * not to be a directory. A cache, not a record: past {@value #LIMIT} prefixes it starts over
 * rather than grow without bound, and a directory another client makes meanwhile is missed.
 */
public final class KnownDirectories {

    /** Prefixes kept before it starts over. */
    public static final int LIMIT = 100_000;

    private final Set<String> directories = ConcurrentHashMap.newKeySet();
    private final Set<String> childrenKnown = ConcurrentHashMap.newKeySet();

    /** Whether {@code prefix} ({@code a/b/}) is known to be a directory. */
    public boolean isDirectory(String prefix) {
        return directories.contains(prefix);
    }

    /** Whether every subdirectory of {@code prefix} is known. */
    public boolean childrenKnown(String prefix) {
        return childrenKnown.contains(prefix);
    }

    /** {@code prefix} was seen to be a directory. */
    public void remember(String prefix) {
        if (directories.size() >= LIMIT) {
            childrenKnown.clear();
            directories.clear();
        }
        directories.add(prefix);
    }

    /** A listing of {@code prefix} ran to its end (or it was just made): its subdirectories are all known. */
    public void listedToTheEnd(String prefix) {
        childrenKnown.add(prefix);
    }

    /** {@code prefix} and everything below it is gone. */
    public void forget(String prefix) {
        childrenKnown.removeIf(p -> p.startsWith(prefix));
        directories.removeIf(p -> p.startsWith(prefix));
    }

    /**
     * An object was published under {@code key} ({@code a/b/c.txt}): every prefix above it
     * ({@code a/b/}, {@code a/}) is a directory now. Stops at the first one already known.
     */
    public void published(String key) {
        for (int slash = key.lastIndexOf('/'); slash > 0; slash = key.lastIndexOf('/', slash - 1)) {
            String prefix = key.substring(0, slash + 1);
            if (isDirectory(prefix)) {
                return;
            }
            remember(prefix);
        }
    }

    /**
     * A flat listing of {@code prefix} ran to its end, having seen the directories
     * {@code seen} (prefixes below it, each ending in {@code /}): they, every prefix between
     * them and {@code prefix}, and {@code prefix} itself are directories whose subdirectories
     * are all known.
     */
    public void treeListedToTheEnd(String prefix, java.util.Collection<String> seen) {
        Set<String> all = new java.util.HashSet<>(seen);
        all.add(prefix);
        for (String d : seen) {
            for (int i = d.indexOf('/', prefix.length()); i >= 0; i = d.indexOf('/', i + 1)) {
                all.add(d.substring(0, i + 1));
            }
        }
        for (String d : all) {
            remember(d);
            listedToTheEnd(d);
        }
    }
}
