package dev.remotepath.syncer;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BiConsumer;

/**
 * The target directories whose time a run sets to their source's once every copy and deletion
 * is done (each of which changes its directory's time). A directory is queued when the run may
 * have changed it (created it, or changed an entry of it) or its time differs from the
 * source's; one the run left alone, with the right time already, costs nothing, so a no-op run
 * queues none. Filled by the traversal's walkers at once.
 */
final class DirectoryTimes {

    private record Pending(String relativePath, RemotePath target, Instant time) {
    }

    private final Queue<Pending> pending = new ConcurrentLinkedQueue<>();

    /**
     * @param time       the source directory's time, empty when its listing had none (S3)
     * @param targetStat the target directory's listed stat, null when this run created it
     * @param changed    whether the run created the directory or changed an entry of it
     */
    void add(String rel, RemotePath dst, Optional<Instant> time, FileStat targetStat, boolean changed) {
        if (time.isEmpty()) {
            return;
        }
        if (!changed && targetStat != null && QuickCheck.sameDirectoryTime(time.get(), targetStat)) {
            return;
        }
        pending.add(new Pending(rel, dst, time.get()));
    }

    /** Sets every queued time, deepest directories first; failures go to {@code failed}. */
    void restore(BiConsumer<String, IOException> failed) {
        List<Pending> all = new ArrayList<>(pending);
        all.sort((a, b) -> Integer.compare(depth(b.relativePath()), depth(a.relativePath())));
        for (Pending d : all) {
            try {
                d.target().fileSystem().setLastModifiedTime(d.target(), d.time());
            } catch (NoSuchFileException gone) {
                // Replaced or removed by this run's own deletions (a type change): nothing to set.
            } catch (IOException e) {
                failed.accept(d.relativePath(), e);
            }
        }
    }

    private static int depth(String rel) {
        if (rel.isEmpty()) {
            return 0;
        }
        int n = 1;
        for (int i = 0; i < rel.length(); i++) {
            if (rel.charAt(i) == '/') {
                n++;
            }
        }
        return n;
    }
}
