package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.nio.RemoteNio;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.StoreSpace;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The space of the storage behind a path ({@code RemoteFileSystem.storeSpace}), and the NIO
 * {@code FileStore} built on it: sane figures where the backend tells them, a clear
 * "not supported" where it cannot, {@code NoSuchFileException} for a missing path.
 */
public interface StoreSpaceContract {

    /** A directory holding the contract's standard tree. */
    RemotePath storeSpaceTree() throws Exception;

    /** Whether this backend (this server) is known to report its space: then it must. */
    default boolean reportsStoreSpace() {
        return false;
    }

    @Test
    default void storeSpaceIsReportedWhereTheBackendKnowsIt() throws Exception {
        RemotePath tree = storeSpaceTree();
        Optional<StoreSpace> space = tree.fileSystem().storeSpace(tree);
        if (reportsStoreSpace()) {
            assertThat(space).as("the store's space").isPresent();
        }
        space.ifPresent(s -> {
            assertThat(s.total()).isPositive();
            assertThat(s.usable()).isLessThanOrEqualTo(s.total());
            assertThat(s.unallocated()).isLessThanOrEqualTo(s.total()).isGreaterThanOrEqualTo(s.usable());
        });
        if (space.isPresent()) {
            assertThatThrownBy(() -> tree.fileSystem().storeSpace(tree.resolve("missing/deeper")))
                    .isInstanceOf(NoSuchFileException.class);
        }
    }

    @Test
    default void aFileStoreThroughFilesHasTheSameSpace() throws Exception {
        RemotePath tree = storeSpaceTree();
        Path root = RemoteNio.of(tree);
        FileStore store = Files.getFileStore(root.resolve("a.txt"));
        assertThat(store.isReadOnly()).isEqualTo(!tree.fileSystem().capabilities().contains(Capability.WRITE));
        assertThat(store.supportsFileAttributeView("basic")).isTrue();
        assertThatThrownBy(() -> Files.getFileStore(root.resolve("missing.txt"))).isInstanceOf(NoSuchFileException.class);
        Optional<StoreSpace> space = tree.fileSystem().storeSpace(tree);
        if (space.isPresent()) {
            assertThat(store.getTotalSpace()).isEqualTo(space.get().total());
            assertThat(store.getUsableSpace()).isPositive();
        } else {
            assertThatThrownBy(store::getTotalSpace).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("reports no space");
        }
    }
}
