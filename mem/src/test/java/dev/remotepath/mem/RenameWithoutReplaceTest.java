package dev.remotepath.mem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.Capability;
import dev.remotepath.testkit.ForwardingFileSystem;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.StandardCopyOption;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shared replacing rename on a backend whose rename never replaces ({@link Capability#RENAME},
 * as an SFTP server without posix-rename): replacing copies and moves work, and when the final
 * rename fails the old target is back in place, with no temporary left behind.
 */
class RenameWithoutReplaceTest {

    /** mem, but renaming like a plain SFTPv3 server; the n-th rename can be made to fail. */
    private static final class NoReplaceRename extends ForwardingFileSystem {
        int renames;
        int failRename = -1;

        NoReplaceRename(RemotePath any) {
            super(any.fileSystem());
        }

        @Override
        public Set<Capability> capabilities() {
            EnumSet<Capability> caps = EnumSet.copyOf(delegate.capabilities());
            caps.remove(Capability.ATOMIC_RENAME);
            caps.add(Capability.RENAME);
            return caps;
        }

        @Override
        public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
            if (++renames == failRename) {
                throw new FileSystemException(source.toString(), target.toString(), "injected rename failure");
            }
            if (down(target).exists()) {
                throw new FileAlreadyExistsException(target.toString());
            }
            super.rename(source, target, false);
        }
    }

    private RemotePath root;
    private NoReplaceRename fs;

    @BeforeEach
    void open() throws IOException {
        root = RemotePaths.get("mem://rename-without-replace-" + System.nanoTime() + "/case").createDirectories();
        fs = new NoReplaceRename(root);
    }

    @AfterEach
    void close() throws IOException {
        root.fileSystem().close();
    }

    @Test
    void replacingCopyAndMoveWork() throws IOException {
        RemotePath source = root.resolve("source").writeString("new");
        RemotePath target = fs.wrap(root.resolve("target"));
        root.resolve("target").writeString("old");
        source.copyTo(target, StandardCopyOption.REPLACE_EXISTING);
        assertThat(root.resolve("target").readString()).isEqualTo("new");

        fs.wrap(root.resolve("moved")).writeString("moved content");
        fs.wrap(root.resolve("moved")).moveTo(target, StandardCopyOption.REPLACE_EXISTING);
        assertThat(root.resolve("target").readString()).isEqualTo("moved content");
        assertThat(root.resolve("moved").exists()).isFalse();
        assertThat(root.list()).extracting(e -> e.path().name()).containsExactlyInAnyOrder("source", "target");
    }

    @Test
    void failedFinalRenameRestoresTheOldTarget() throws IOException {
        RemotePath source = root.resolve("source").writeString("new");
        root.resolve("target").writeString("old");
        fs.failRename = 3; // temp -> target (refused: exists), target -> aside, then temp -> target fails
        assertThatThrownBy(() -> source.copyTo(fs.wrap(root.resolve("target")), StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("injected");
        assertThat(root.resolve("target").readString()).isEqualTo("old");
        assertThat(root.list()).extracting(e -> e.path().name()).containsExactlyInAnyOrder("source", "target");
    }

    @Test
    void withoutReplaceAnExistingTargetStays() throws IOException {
        RemotePath source = root.resolve("source").writeString("new");
        root.resolve("target").writeString("old");
        assertThatThrownBy(() -> source.copyTo(fs.wrap(root.resolve("target"))))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(root.resolve("target").readString()).isEqualTo("old");
        assertThat(root.list()).extracting(e -> e.path().name()).containsExactlyInAnyOrder("source", "target");
    }

    @Test
    void anAtomicMoveOntoAnExistingTargetIsRefusedNotEmulated() throws IOException {
        RemotePath source = fs.wrap(root.resolve("source")).writeString("new");
        RemotePath target = fs.wrap(root.resolve("target")).writeString("old");
        assertThatThrownBy(() -> source.moveTo(target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(AtomicMoveNotSupportedException.class);
        assertThat(root.resolve("target").readString()).isEqualTo("old");
        assertThat(root.resolve("source").readString()).isEqualTo("new");
        source.moveTo(fs.wrap(root.resolve("free")), StandardCopyOption.ATOMIC_MOVE);
        assertThat(root.resolve("free").readString()).isEqualTo("new");
    }
}
