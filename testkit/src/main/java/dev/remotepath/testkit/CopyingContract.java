package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.RemoteCopyOption;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract's cases that copy and move files and trees, within the backend and to and from
 * another one. Part of {@link RemoteFileSystemContract}, which a backend's test extends.
 */
public abstract class CopyingContract extends WritingContract {

    // ------------------------------------------------------------------ copying

    @Test
    void copyFileCopiesContent() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("payload");
        src.copyTo(dir.resolve("dst"));
        assertThat(dir.resolve("dst").readString()).isEqualTo("payload");
        assertThat(src.readString()).isEqualTo("payload");
    }

    @Test
    void copyPreservesModificationTime() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        Instant then = Instant.parse("2020-02-29T12:34:56Z");
        RemotePath src = dir.resolve("src").writeString("old").setLastModifiedTime(then);
        src.copyTo(dir.resolve("dst"));
        assertThat(dir.resolve("dst").stat().lastModified()).hasValue(then);
    }

    @Test
    void copyOverExistingWithoutReplaceFailsAndKeepsTarget() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("new");
        RemotePath dst = dir.resolve("dst").writeString("old");
        assertThatThrownBy(() -> src.copyTo(dst)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(dst.readString()).isEqualTo("old");
        assertThat(leftoverTemporaries(dir)).isEmpty();
    }

    @Test
    void copyWithReplaceReplaces() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("new");
        RemotePath dst = dir.resolve("dst").writeString("an older, longer content");
        src.copyTo(dst, StandardCopyOption.REPLACE_EXISTING);
        assertThat(dst.readString()).isEqualTo("new");
    }

    @Test
    void copyMissingSourceFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("nope").copyTo(dir.resolve("dst"))).isInstanceOf(NoSuchFileException.class);
        assertThat(dir.resolve("dst").exists()).isFalse();
    }

    @Test
    void copyIntoMissingParentFailsUnlessDirectoriesAreImplicit() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("x");
        if (dir.fileSystem().capabilities().contains(Capability.IMPLICIT_DIRECTORIES)) {
            src.copyTo(dir.resolve("no/parent/dst"));
            assertThat(dir.resolve("no/parent/dst").readString()).isEqualTo("x");
            return;
        }
        assertThatThrownBy(() -> src.copyTo(dir.resolve("no/parent/dst"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void copyTreeCopiesEverything() throws IOException {
        assumeWritable();
        RemotePath src = tree(dir.resolve("src"));
        src.copyTo(dir.resolve("dst"));
        RemotePath dst = dir.resolve("dst");
        assertThat(relativeNames(dst, dst.walk())).isEqualTo(relativeNames(src, src.walk()));
        assertThat(dst.resolve("sub/deeper/e.md").readString()).isEqualTo("echo");
        assertThat(dst.resolve("empty").isDirectory()).isTrue();
        assertThat(leftoverTemporaries(dir)).isEmpty();
    }

    @Test
    void copyTreeGivesDirectoriesTheirSourceTimes() throws IOException {
        assumeWritable();
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.remotepath.tree.FileTransfer.keepsDirectoryTimes(dir.fileSystem()),
                "directories here have no time to set");
        assumeTrue(serverSetsDirectoryTimes(), "the test server sets files' times only");
        RemotePath src = tree(dir.resolve("src"));
        Instant sub = Instant.parse("2019-03-04T05:06:07Z");
        Instant deeper = Instant.parse("2018-03-04T05:06:07Z");
        src.resolve("sub/deeper").setLastModifiedTime(deeper);
        src.resolve("sub").setLastModifiedTime(sub);
        src.copyTo(dir.resolve("dst"));
        // Set after their files were written (which changes a directory's time), so they stay.
        assertThat(dir.resolve("dst/sub").stat().lastModified()).hasValue(sub);
        assertThat(dir.resolve("dst/sub/deeper").stat().lastModified()).hasValue(deeper);
        assertThat(dir.resolve("dst/sub/deeper/e.md").readString()).isEqualTo("echo");
    }

    @Test
    void copyTreeOntoExistingNeedsReplaceThenMerges() throws IOException {
        assumeWritable();
        RemotePath src = tree(dir.resolve("src"));
        RemotePath dst = dir.resolve("dst").createDirectory();
        dst.resolve("extra.txt").writeString("stays");
        dst.resolve("a.txt").writeString("stale");
        assertThatThrownBy(() -> src.copyTo(dst)).isInstanceOf(FileAlreadyExistsException.class);
        src.copyTo(dst, StandardCopyOption.REPLACE_EXISTING);
        assertThat(dst.resolve("a.txt").readString()).isEqualTo("alpha");
        assertThat(dst.resolve("extra.txt").readString()).isEqualTo("stays");
    }

    @Test
    void copyTreeIntoItselfIsRefused() throws IOException {
        assumeWritable();
        RemotePath src = tree(dir.resolve("src"));
        assertThatThrownBy(() -> src.copyTo(src.resolve("sub/inner"))).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("inside");
        assertThat(src.resolve("sub/inner").exists()).isFalse();
    }

    @Test
    void copyToItselfIsRefused() throws IOException {
        assumeWritable();
        RemotePath f = dir.resolve("f").writeString("x");
        assertThatThrownBy(() -> f.copyTo(f)).isInstanceOf(FileSystemException.class);
        assertThat(f.readString()).isEqualTo("x");
    }

    @Test
    void copyTreeRecreatesLinksAsLinks() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath src = dir.resolve("src").createDirectory();
        src.resolve("f").writeString("x");
        src.resolve("l").createSymbolicLink("f");
        src.copyTo(dir.resolve("dst"));
        assertThat(dir.resolve("dst/l").isSymbolicLink()).isTrue();
        assertLinkText(dir.resolve("dst/l"), "f");
    }

    @Test
    void copyTreeFollowingLinksCopiesContent() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath src = dir.resolve("src").createDirectory();
        src.resolve("f").writeString("x");
        src.resolve("l").createSymbolicLink("f");
        src.copyTo(dir.resolve("dst"), RemoteCopyOption.FOLLOW_LINKS);
        assertThat(dir.resolve("dst/l").isSymbolicLink()).isFalse();
        assertThat(dir.resolve("dst/l").readString()).isEqualTo("x");
    }

    @Test
    void copyFollowingALinkLoopFailsInsteadOfRecursing() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SYMBOLIC_LINKS);
        RemotePath src = dir.resolve("src").createDirectory();
        src.resolve("f").writeString("x");
        src.resolve("sub").createDirectory().resolve("up").createSymbolicLink("..");
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                assertThatThrownBy(() -> src.copyTo(dir.resolve("dst"), RemoteCopyOption.FOLLOW_LINKS))
                        .isInstanceOf(FileSystemLoopException.class));
    }

    @Test
    void copyAcrossBackendsPreservesContentAndTime() throws IOException {
        assumeWritable();
        RemotePath other = otherBackendDirectory();
        RemotePath src = tree(dir.resolve("src"));
        Instant then = Instant.parse("2021-06-01T00:00:00Z");
        if (dir.fileSystem().capabilities().contains(Capability.SET_LAST_MODIFIED_TIME)) {
            src.resolve("a.txt").setLastModifiedTime(then);
        }
        src.copyTo(other.resolve("copy"));
        assertThat(relativeNames(other.resolve("copy"), other.resolve("copy").walk()))
                .isEqualTo(relativeNames(src, src.walk()));
        assertThat(other.resolve("copy/sub/c.txt").readString()).isEqualTo("charlie");
        FileStat copied = other.resolve("copy/a.txt").stat();
        Duration precision = src.resolve("a.txt").stat().lastModifiedPrecision();
        assertThat(Duration.between(copied.lastModified().orElseThrow(),
                src.resolve("a.txt").stat().lastModified().orElseThrow()).abs()).isLessThan(precision.plusNanos(1));
        other.fileSystem().close();
    }

    @Test
    void copyBackFromAnotherBackend() throws IOException {
        assumeWritable();
        RemotePath other = otherBackendDirectory();
        tree(other.resolve("t"));
        other.resolve("t").copyTo(dir.resolve("back"));
        assertThat(dir.resolve("back/sub/deeper/d.txt").readString()).isEqualTo("delta");
        other.fileSystem().close();
    }

    @Test
    void failedCopyLeavesOldTargetAndNoTemporary() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").write(new byte[300_000]);
        RemotePath dst = dir.resolve("dst").writeString("previous version");
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(dir.fileSystem()).failWritesAfter(100_000);
        assertThatThrownBy(() -> src.copyTo(faulty.wrap(dst), StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(IOException.class).hasMessageContaining("injected");
        assertThat(dst.readString()).isEqualTo("previous version");
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("dst", "src");
    }

    @Test
    void failedCopyOfNewFileLeavesNothing() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").write(new byte[300_000]);
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(dir.fileSystem()).failWritesAfter(1000);
        assertThatThrownBy(() -> src.copyTo(faulty.wrap(dir.resolve("dst")))).isInstanceOf(IOException.class);
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("src");
    }

    // ------------------------------------------------------------------ moving

    @Test
    void moveFileRenames() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("m");
        src.moveTo(dir.resolve("dst"));
        assertThat(src.exists()).isFalse();
        assertThat(dir.resolve("dst").readString()).isEqualTo("m");
    }

    @Test
    void moveTreeRenames() throws IOException {
        assumeWritable();
        tree(dir.resolve("src"));
        dir.resolve("src").moveTo(dir.resolve("moved"));
        assertThat(dir.resolve("src").exists()).isFalse();
        assertThat(dir.resolve("moved/sub/deeper/d.txt").readString()).isEqualTo("delta");
    }

    @Test
    void moveOntoExistingWithoutReplaceFails() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("new");
        RemotePath dst = dir.resolve("dst").writeString("old");
        assertThatThrownBy(() -> src.moveTo(dst)).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(dst.readString()).isEqualTo("old");
        assertThat(src.readString()).isEqualTo("new");
    }

    @Test
    void moveWithReplaceReplaces() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src").writeString("new");
        RemotePath dst = dir.resolve("dst").writeString("old");
        src.moveTo(dst, StandardCopyOption.REPLACE_EXISTING);
        assertThat(dst.readString()).isEqualTo("new");
        assertThat(src.exists()).isFalse();
    }

    @Test
    void moveMissingFails() throws IOException {
        assumeWritable();
        assertThatThrownBy(() -> dir.resolve("nope").moveTo(dir.resolve("dst"))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void moveIntoItselfIsRefused() throws IOException {
        assumeWritable();
        tree(dir.resolve("src"));
        assertThatThrownBy(() -> dir.resolve("src").moveTo(dir.resolve("src/sub/x"))).isInstanceOf(FileSystemException.class);
        assertThat(dir.resolve("src/a.txt").exists()).isTrue();
    }

    @Test
    void moveAcrossBackendsCopiesThenDeletes() throws IOException {
        assumeWritable();
        RemotePath other = otherBackendDirectory();
        tree(dir.resolve("src"));
        dir.resolve("src").moveTo(other.resolve("moved"));
        assertThat(dir.resolve("src").exists()).isFalse();
        assertThat(other.resolve("moved/sub/c.txt").readString()).isEqualTo("charlie");
        other.fileSystem().close();
    }

    @Test
    void atomicMoveAcrossBackendsIsRefused() throws IOException {
        assumeWritable();
        RemotePath other = otherBackendDirectory();
        RemotePath src = dir.resolve("src").writeString("x");
        assertThatThrownBy(() -> src.moveTo(other.resolve("x"), StandardCopyOption.ATOMIC_MOVE))
                .isInstanceOf(AtomicMoveNotSupportedException.class);
        assertThat(src.exists()).isTrue();
        other.fileSystem().close();
    }
}
