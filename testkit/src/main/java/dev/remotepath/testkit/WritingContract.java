package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.DirEntry;
import dev.remotepath.FileType;
import dev.remotepath.ReadOnlyRemoteFileSystemException;
import dev.remotepath.RemotePath;
import dev.remotepath.WalkOptions;
import dev.remotepath.spi.Capability;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract's cases that change the tree in place: symbolic links, writing, directories
 * and deleting, on every backend whose capabilities allow them. Part of
 * {@link RemoteFileSystemContract}, which a backend's test extends.
 */
public abstract class WritingContract extends ReadingContract {

    // ------------------------------------------------------------------ symbolic links

    @Test
    void symlinkIsSeenAsLinkWithoutFollowing() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        file("target.txt", "t");
        seedSymlink(dir.resolve("link"), "target.txt");
        assertThat(dir.resolve("link").stat(LinkOption.NOFOLLOW_LINKS).type()).isEqualTo(FileType.SYMLINK);
        assertThat(dir.resolve("link").stat().type()).isEqualTo(FileType.FILE);
        assertThat(dir.resolve("link").isSymbolicLink()).isTrue();
        assertThat(dir.resolve("link").readString()).isEqualTo("t");
    }

    @Test
    void symlinkTargetIsVerbatim() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        seedSymlink(dir.resolve("link"), "../somewhere/else");
        assertLinkText(dir.resolve("link"), "../somewhere/else");
    }

    @Test
    void brokenSymlinkDoesNotExistButIsALink() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        seedSymlink(dir.resolve("broken"), "no-such-target");
        assertThat(dir.resolve("broken").exists()).isFalse();
        assertThat(dir.resolve("broken").isSymbolicLink()).isTrue();
        assertThat(dir.list()).extracting(DirEntry::type).containsExactly(FileType.SYMLINK);
    }

    @Test
    void walkDoesNotFollowLinksByDefault() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        file("real/inside.txt", "x");
        seedSymlink(dir.resolve("link"), "real");
        assertThat(relativeNames(dir, dir.walk())).containsExactly("link", "real", "real/inside.txt");
    }

    @Test
    void walkFollowingLinksDescendsAndDetectsLoops() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        file("real/inside.txt", "x");
        seedSymlink(dir.resolve("real/loop"), "..");
        seedSymlink(dir.resolve("link"), "real");
        List<Exception> errors = new ArrayList<>();
        List<String> names = relativeNames(dir, dir.walk(WalkOptions.defaults().withFollowLinks(true)
                .withErrorHandler((d, e) -> errors.add(e))));
        assertThat(names).contains("link/inside.txt", "real/inside.txt");
        assertThat(errors).isNotEmpty().allMatch(e -> e instanceof FileSystemLoopException);
    }

    @Test
    void createSymbolicLinkOverExistingFails() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        assumeWritable();
        RemotePath f = file("f", "x");
        assertThatThrownBy(() -> f.createSymbolicLink("elsewhere")).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void readSymbolicLinkOfFileFails() throws IOException {
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath f = file("f", "x");
        assertThatThrownBy(f::readSymbolicLink).isInstanceOf(java.nio.file.NotLinkException.class);
    }

    // ------------------------------------------------------------------ writing

    @Test
    void writeThenRead() throws IOException {
        assumeWritable();
        dir.resolve("w.txt").writeString("written");
        assertThat(dir.resolve("w.txt").readString()).isEqualTo("written");
    }

    @Test
    void writeTruncatesExisting() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("w.txt").writeString("a long first version");
        f.writeString("short");
        assertThat(f.readString()).isEqualTo("short");
    }

    @Test
    void createNewOnExistingFails() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("w.txt").writeString("first");
        assertThatThrownBy(() -> f.writeString("second", StandardOpenOption.CREATE_NEW))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(f.readString()).isEqualTo("first");
    }

    @Test
    void appendAppends() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("log").writeString("one,");
        if (!serverCanAppend()) {
            assertThatThrownBy(() -> f.writeString("two", StandardOpenOption.APPEND)).isInstanceOf(IOException.class);
            assertThat(f.readString()).isEqualTo("one,");
            return;
        }
        f.writeString("two", StandardOpenOption.APPEND);
        assertThat(f.readString()).isEqualTo("one,two");
    }

    @Test
    void writeWithoutCreateNeedsAnExistingFile() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("absent").writeString("x", StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void writeIntoMissingParentFailsUnlessDirectoriesAreImplicit() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("no/such/dir/f");
        if (!dir.fileSystem().capabilities().contains(Capability.IMPLICIT_DIRECTORIES)) {
            assertThatThrownBy(() -> f.writeString("x")).isInstanceOf(NoSuchFileException.class);
            assertThat(dir.resolve("no").exists()).isFalse();
            return;
        }
        f.writeString("x");
        assertThat(f.readString()).isEqualTo("x");
        assertThat(dir.resolve("no").isDirectory()).isTrue();
        assertThat(dir.resolve("no/such/dir").list()).extracting(DirEntry::name).containsExactly("f");
        assertThat(dir.list()).extracting(DirEntry::name).contains("no");
    }

    @Test
    void writeUnderAFileFails() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("a file");
        // Below a file nothing exists (as stat says): NoSuchFileException, as NIO's ENOTDIR maps (NioErrors).
        assertThatThrownBy(() -> f.resolve("child").writeString("x")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> f.resolve("deeper/child").writeString("x")).isInstanceOf(NoSuchFileException.class);
        assertThat(f.readString()).isEqualTo("a file");
        assertThat(f.isRegularFile()).isTrue();
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("f");
    }

    @Test
    void writeOverDirectoryFails() throws IOException {
        assumeWritable();
        dir.resolve("d").createDirectory();
        assertThatThrownBy(() -> dir.resolve("d").writeString("x")).isInstanceOf(dev.remotepath.IsDirectoryException.class);
        assertThat(dir.resolve("d").isDirectory()).isTrue();
    }

    @Test
    void writeEmptyFile() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("zero").write(new byte[0]);
        assertThat(f.stat().size()).hasValue(0);
    }

    @Test
    void readOnlyBackendRefusesWrites() throws IOException {
        assumeTrue(!dir.fileSystem().capabilities().contains(Capability.WRITE), "backend is writable");
        assertThatThrownBy(() -> dir.resolve("x").writeString("x")).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
        assertThatThrownBy(() -> dir.resolve("x").createDirectory()).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
        assertThatThrownBy(() -> dir.deleteRecursively()).isInstanceOf(ReadOnlyRemoteFileSystemException.class);
    }

    // ------------------------------------------------------------------ directories

    @Test
    void createDirectoryThenList() throws IOException {
        assumeWritable();
        dir.resolve("new").createDirectory();
        assertThat(dir.list()).extracting(DirEntry::name, DirEntry::type).containsExactly(
                org.assertj.core.groups.Tuple.tuple("new", FileType.DIRECTORY));
    }

    @Test
    void createDirectoryOverExistingFails() throws IOException {
        assumeWritable();
        dir.resolve("d").createDirectory();
        assertThatThrownBy(() -> dir.resolve("d").createDirectory()).isInstanceOf(FileAlreadyExistsException.class);
        dir.resolve("f").writeString("x");
        assertThatThrownBy(() -> dir.resolve("f").createDirectory()).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void createDirectoryWithMissingParentFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("a/b").createDirectory()).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void createDirectoriesMakesParentsAndAcceptsExisting() throws IOException {
        assumeWritable();
        dir.resolve("a/b/c").createDirectories();
        assertThat(dir.resolve("a/b/c").isDirectory()).isTrue();
        dir.resolve("a/b/c").createDirectories();
        dir.resolve("a").createDirectories();
        assertThat(dir.resolve("a/b").isDirectory()).isTrue();
    }

    @Test
    void createDirectoriesOverFileFails() throws IOException {
        assumeWritable();
        dir.resolve("f").writeString("x");
        assertThatThrownBy(() -> dir.resolve("f/sub").createDirectories()).isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(dir.resolve("f").toString());
        assertThatThrownBy(() -> dir.resolve("f").createDirectories()).isInstanceOf(FileAlreadyExistsException.class);
    }

    // ------------------------------------------------------------------ deleting

    @Test
    void deleteFile() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("x");
        f.delete();
        assertThat(f.exists()).isFalse();
    }

    @Test
    void deleteEmptyDirectory() throws IOException {
        assumeWritable();
        RemotePath d = dir.resolve("d").createDirectory();
        d.delete();
        assertThat(d.exists()).isFalse();
    }

    @Test
    void deleteNonEmptyDirectoryFails() throws IOException {
        assumeWritable();
        dir.resolve("d").createDirectory().resolve("f").writeString("x");
        assertThatThrownBy(() -> dir.resolve("d").delete()).isInstanceOf(DirectoryNotEmptyException.class);
        assertThat(dir.resolve("d/f").readString()).isEqualTo("x");
    }

    @Test
    void deleteMissingFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("nope").delete()).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void deleteIfExistsSaysWhetherItDeleted() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("x");
        assertThat(f.deleteIfExists()).isTrue();
        assertThat(f.deleteIfExists()).isFalse();
    }

    @Test
    void deleteSymlinkLeavesTarget() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath target = dir.resolve("t").writeString("keep");
        dir.resolve("l").createSymbolicLink("t").delete();
        assertThat(target.readString()).isEqualTo("keep");
        assertThat(dir.resolve("l").isSymbolicLink()).isFalse();
    }

    @Test
    void deleteRecursivelyRemovesTree() throws IOException {
        assumeWritable();
        RemotePath root = tree(dir.resolve("t"));
        root.deleteRecursively();
        assertThat(root.exists()).isFalse();
        assertThat(dir.list()).isEmpty();
    }

    @Test
    void deleteRecursivelyOnFile() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("x");
        f.deleteRecursively();
        assertThat(f.exists()).isFalse();
    }

    @Test
    void deleteRecursivelyOnMissingFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("nope").deleteRecursively()).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void deleteRecursivelyNeverFollowsLinks() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath outside = tree(dir.resolve("outside"));
        RemotePath doomed = dir.resolve("doomed").createDirectory();
        doomed.resolve("link-to-outside").createSymbolicLink("../outside");
        doomed.deleteRecursively();
        assertThat(doomed.exists()).isFalse();
        assertThat(relativeNames(outside, outside.walk())).hasSize(8);
    }
}
