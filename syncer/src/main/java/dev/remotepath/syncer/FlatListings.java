package dev.remotepath.syncer;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.tree.FlatIndex;
import dev.remotepath.tree.Retries;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * One side's tree read by one flat listing, where its backend has one ({@link FlatIndex}):
 * built when the side's root is first listed, then each directory is served from it once. The
 * syncer makes one only when the filters prune no directory (a pruned subtree would be read
 * for nothing); a tree over the budget gives none, and the side is listed per directory.
 */
final class FlatListings {

    /** How the run retries an idempotent operation. */
    @FunctionalInterface
    interface Retrying {
        <T> T run(Retries.Operation<T> op) throws IOException;
    }

    private final RemotePath root;
    private final int budget;
    private FlatIndex index;
    private boolean tried;

    FlatListings(RemotePath root, int budget) {
        this.root = root;
        this.budget = budget;
    }

    /** The listing of {@code dir} from the index, or empty when the caller must list it itself. */
    synchronized Optional<List<DirEntry>> take(RemotePath dir, Retrying retrying) throws IOException {
        if (!tried) {
            if (!dir.equals(root)) {
                return Optional.empty();
            }
            tried = true;
            index = retrying.run(() -> FlatIndex.read(root, ListDetail.FILE_STATS, budget)).orElse(null);
        }
        return index == null ? Optional.empty() : index.take(dir);
    }
}
