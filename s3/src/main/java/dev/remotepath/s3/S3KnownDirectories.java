package dev.remotepath.s3;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one file system has learnt of a bucket's directories, so that writes skip the requests
 * that would find them again: prefixes ({@code a/b/}) seen to exist, and those whose
 * subdirectories are all known (listed to the end, or created here), below which a name is known
 * not to be a directory. A cache, not a record: past {@value #LIMIT} prefixes it starts over
 * rather than grow without bound, and a directory another client makes meanwhile is missed.
 */
final class S3KnownDirectories {

    static final int LIMIT = 100_000;

    private final Set<String> directories = ConcurrentHashMap.newKeySet();
    private final Set<String> childrenKnown = ConcurrentHashMap.newKeySet();

    boolean isDirectory(String prefix) {
        return directories.contains(prefix);
    }

    /** Whether every subdirectory of {@code prefix} is known. */
    boolean childrenKnown(String prefix) {
        return childrenKnown.contains(prefix);
    }

    void remember(String prefix) {
        if (directories.size() >= LIMIT) {
            childrenKnown.clear();
            directories.clear();
        }
        directories.add(prefix);
    }

    /** A listing of {@code prefix} ran to its end (or it was just made): its subdirectories are all known. */
    void listedToTheEnd(String prefix) {
        childrenKnown.add(prefix);
    }

    /** {@code prefix} and everything below it is gone. */
    void forget(String prefix) {
        childrenKnown.removeIf(p -> p.startsWith(prefix));
        directories.removeIf(p -> p.startsWith(prefix));
    }
}
