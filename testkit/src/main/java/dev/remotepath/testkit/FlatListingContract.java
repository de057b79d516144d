package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.tree.FlatIndex;
import dev.remotepath.tree.Listings;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The flat-listing cases of the contract ({@link RemoteFileSystemContract} runs them on every
 * backend): where a backend declares {@link Capability#FLAT_LISTING}, the index its flat listing
 * builds serves every directory exactly as listing that directory does (names, types, sizes,
 * times), once; where it does not, or stops declaring it once its server refuses to list a
 * whole tree (WebDAV), there is no index and {@code listTree} says so.
 */
public interface FlatListingContract {

    /** A directory holding the contract's standard tree (files at two depths, an empty directory). */
    RemotePath flatListingTree() throws Exception;

    private static List<String> described(List<DirEntry> entries) {
        return entries.stream().map(e -> e.name() + " " + e.type() + " " + e.stat().size() + " " + e.stat().lastModified()
                + " " + e.stat().storedAt()).toList();
    }

    @Test
    default void aFlatListingServesEachDirectoryAsItsOwnListingDoes() throws Exception {
        RemotePath root = flatListingTree();
        Optional<FlatIndex> index = FlatIndex.read(root, ListDetail.FILE_STATS, 1_000);
        if (!root.fileSystem().capabilities().contains(Capability.FLAT_LISTING)) {
            assertThat(index).isEmpty();
            assertThatThrownBy(() -> root.fileSystem().listTree(root, ListDetail.FILE_STATS))
                    .isInstanceOf(UnsupportedOperationException.class);
            return;
        }
        assertThat(index).isPresent();
        Deque<RemotePath> dirs = new ArrayDeque<>(List.of(root));
        int served = 0;
        while (!dirs.isEmpty()) {
            RemotePath d = dirs.pop();
            List<DirEntry> own = Listings.sorted(d, ListDetail.FILE_STATS);
            Optional<List<DirEntry>> flat = index.get().take(d);
            assertThat(flat).as(d.toString()).isPresent();
            assertThat(described(flat.get())).as(d.toString()).isEqualTo(described(own));
            assertThat(flat.get()).extracting(DirEntry::path).isEqualTo(own.stream().map(DirEntry::path).toList());
            assertThat(index.get().take(d)).as("each directory is handed out once").isEmpty();
            own.stream().filter(DirEntry::isDirectory).forEach(e -> dirs.push(e.path()));
            served++;
        }
        assertThat(served).isEqualTo(4); // the root, sub, sub/deeper, empty
        assertThat(index.get().directoriesHeld()).isZero();
        assertThat(index.get().take(root.resolve("sub/nope"))).isEmpty();
    }

    @Test
    default void aFlatListingOverBudgetGivesNoIndexAndOfNothingFailsAsAListing() throws Exception {
        RemotePath root = flatListingTree();
        if (!root.fileSystem().capabilities().contains(Capability.FLAT_LISTING)) {
            return; // the case above covered the backends without one
        }
        assertThat(FlatIndex.read(root, ListDetail.FILE_STATS, 3)).isEmpty();
        if (!root.fileSystem().capabilities().contains(Capability.FLAT_LISTING)) {
            return; // the backend found at run time that its server lists no whole trees (WebDAV)
        }
        assertThatThrownBy(() -> FlatIndex.read(root.resolve("missing"), ListDetail.FILE_STATS, 1_000))
                .isInstanceOf(NoSuchFileException.class);
        assertThat(FlatIndex.read(root.resolve("empty"), ListDetail.FILE_STATS, 1_000).orElseThrow()
                .take(root.resolve("empty"))).hasValue(List.of());
    }
}
