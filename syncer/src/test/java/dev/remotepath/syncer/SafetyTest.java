package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.testkit.RewrittenListings;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The promises of docs/safety.md for tree copies and syncs on real local trees: nothing is
 * written outside the target, nothing the user keeps is deleted, whatever links and listings
 * the source holds. Each case failed before its fix.
 */
class SafetyTest {

    @TempDir
    Path temp;

    private static long filesUnder(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    /** A listing that names {@code x} twice: a link to a directory outside, and a directory. */
    private static RewrittenListings twinListing(dev.remotepath.spi.RemoteFileSystem delegate) {
        return new RewrittenListings(delegate, (directory, entries) -> {
            if (directory.name().equals("src")) {
                // The server lists the link "x" and then a directory "x" as well.
                entries.add(new ListedEntry("x", FileStat.ofType(FileType.DIRECTORY)));
            }
            return entries;
        });
    }

    @Test
    void aNameListedTwiceFailsTheCopyAndNothingIsWrittenThroughTheLink() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Path src = Files.createDirectories(temp.resolve("top/src"));
        Files.createSymbolicLink(src.resolve("x"), outside);
        Files.writeString(temp.resolve("top/other.txt"), "other");
        RewrittenListings fs = twinListing(RemotePaths.of(temp).fileSystem());
        RemotePath source = fs.wrap(RemotePaths.of(src));
        RemotePath target = fs.wrap(RemotePaths.of(temp.resolve("dst")));

        assertThatThrownBy(() -> source.copyTo(target, StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(UnsafeNameException.class).hasMessageContaining("'x'").hasMessageContaining("listed twice");
        assertThat(filesUnder(outside)).isZero();

        // A sync fails that directory only, and (having an error) deletes nothing.
        SyncReport r = PathSyncer.builder(fs.wrap(RemotePaths.of(temp.resolve("top"))), target)
                .symlinks(SymlinkPolicy.PRESERVE).deleteExtraneous(true).build().run();
        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.relativePath()).isEqualTo("src");
            assertThat(e.message()).contains("listed twice");
        });
        assertThat(r.filesCopied()).isEqualTo(1);
        assertThat(filesUnder(outside)).isZero();
    }

    @Test
    void aCopyRefusesToMergeIntoALinkWhereTheSourceHasADirectory() throws Exception {
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Path src = Files.createDirectories(temp.resolve("src/d"));
        Files.writeString(src.resolve("f.txt"), "payload");
        Path dst = Files.createDirectories(temp.resolve("dst"));
        Files.createSymbolicLink(dst.resolve("d"), outside);

        assertThatThrownBy(() -> RemotePaths.of(temp.resolve("src")).copyTo(RemotePaths.of(dst),
                StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining("cannot overwrite non-directory with directory");
        assertThat(filesUnder(outside)).isZero();
        assertThat(Files.isSymbolicLink(dst.resolve("d"))).isTrue();
    }

    @Test
    void aTargetThatAliasesTheSourceIsRefusedBeforeAnythingIsDeleted() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src"));
        Files.writeString(src.resolve("keep.txt"), "keep");
        Path alias = Files.createSymbolicLink(temp.resolve("alias"), src);
        PathSyncer same = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(alias)).deleteExtraneous(true).build();
        assertThatThrownBy(same::run).isInstanceOf(SyncRefusedException.class)
                .hasMessageContaining("same directory").hasMessageContaining("symbolic links");
        assertThatThrownBy(same::plan).isInstanceOf(SyncRefusedException.class);

        // The source reached through an alias inside the target: --delete would delete the source.
        Path dst = Files.createDirectories(temp.resolve("dst"));
        Files.createDirectories(dst.resolve("inner"));
        Files.writeString(dst.resolve("inner/own.txt"), "own");
        Path viaLink = Files.createSymbolicLink(temp.resolve("link"), dst);
        PathSyncer inside = PathSyncer.builder(RemotePaths.of(viaLink.resolve("inner")), RemotePaths.of(dst))
                .deleteExtraneous(true).build();
        assertThatThrownBy(inside::run).isInstanceOf(SyncRefusedException.class)
                .hasMessageContaining("the source lies inside the target");
        assertThat(Files.readString(src.resolve("keep.txt"))).isEqualTo("keep");
        assertThat(Files.readString(dst.resolve("inner/own.txt"))).isEqualTo("own");

        assertThatThrownBy(() -> RemotePaths.of(src).copyTo(RemotePaths.of(alias.resolve("copy"))))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("inside the source tree");
    }

    private Path tenThousandFileTarget() throws IOException {
        // 20 directories of 10 files is enough to show the guard; the 10,000 behave the same.
        Path dst = Files.createDirectories(temp.resolve("dst"));
        for (int d = 0; d < 20; d++) {
            Path dir = Files.createDirectories(dst.resolve("d" + d));
            for (int f = 0; f < 10; f++) {
                Files.writeString(dir.resolve("f" + f + ".txt"), "x");
            }
        }
        return dst;
    }

    @Test
    void aSourceOfOnlyEmptyDirectoriesDoesNotEmptyTheTarget() throws Exception {
        Path src = Files.createDirectories(temp.resolve("mnt"));
        Files.createDirectories(src.resolve("lost+found")); // an unmounted mount point looks like this
        Path dst = tenThousandFileTarget();
        PathSyncer sync = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true)
                .maxDelete(100).build();
        assertThatThrownBy(sync::run).isInstanceOf(SyncRefusedException.class)
                .hasMessageContaining("holds no file to sync").hasMessageContaining("allowEmptySource");
        assertThatThrownBy(sync::plan).isInstanceOf(SyncRefusedException.class);
        assertThat(filesUnder(dst)).isEqualTo(200);

        SyncReport allowed = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true)
                .allowEmptySource(true).build().run();
        assertThat(allowed.errors()).isEmpty();
        assertThat(filesUnder(dst)).isZero();
    }

    @Test
    void filtersThatExcludeEverySourceFileDoNotEmptyTheTarget() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src/sub"));
        Files.writeString(src.resolve("only.log"), "log");
        Path dst = tenThousandFileTarget();
        PathSyncer sync = PathSyncer.builder(RemotePaths.of(temp.resolve("src")), RemotePaths.of(dst))
                .deleteExtraneous(true).include("*.txt").exclude("*.txt").build();
        assertThatThrownBy(sync::run).isInstanceOf(SyncRefusedException.class).hasMessageContaining("after filters");
        assertThat(filesUnder(dst)).isEqualTo(200);
    }

    @Test
    void maxDeleteCountsWhatARecursiveDeleteRemoves() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src"));
        Files.writeString(src.resolve("kept.txt"), "kept");
        Path dst = tenThousandFileTarget();
        SyncReport r = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true)
                .maxDelete(100).build().run();
        // 20 directories of 10 files are 220 deletions, not 20.
        assertThat(r.refusal()).hasValueSatisfying(m -> assertThat(m)
                .startsWith(PathSyncer.MAX_DELETE_REFUSAL).contains("220 deletions"));
        assertThat(filesUnder(dst)).isEqualTo(201);

        SyncReport within = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true)
                .maxDelete(220).build().run();
        assertThat(within.refusal()).isEmpty();
        assertThat(filesUnder(dst)).isEqualTo(1);
    }

    @Test
    void aKilledCopysTemporaryIsNeverSyncedAndTheNextSyncRemovesItsOwn() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src/sub"));
        Files.writeString(src.resolve("a.txt"), "a");
        Files.writeString(src.resolve(".a.txt.0123456789ab.rptmp"), "half a copy, left by kill -9");
        Path dst = Files.createDirectories(temp.resolve("dst/sub"));
        Files.writeString(dst.resolve(".b.bin.fedcba987654.rptmp"), "another leftover");
        Files.writeString(dst.resolve(".notours.rptmp"), "not of our naming: kept");

        SyncReport r = PathSyncer.builder(RemotePaths.of(temp.resolve("src")), RemotePaths.of(temp.resolve("dst")))
                .build().run();
        assertThat(r.errors()).isEmpty();
        assertThat(r.filesCopied()).isEqualTo(1); // a.txt; the source's leftover is not a file of the tree
        assertThat(dst.resolve(".a.txt.0123456789ab.rptmp")).doesNotExist();
        assertThat(dst.resolve(".b.bin.fedcba987654.rptmp")).doesNotExist(); // our own leftover: removed
        assertThat(Files.readString(dst.resolve(".notours.rptmp"))).isEqualTo("not of our naming: kept");

        RemotePaths.of(temp.resolve("src")).copyTo(RemotePaths.of(temp.resolve("copy")));
        assertThat(temp.resolve("copy/sub/a.txt")).exists();
        assertThat(temp.resolve("copy/sub/.a.txt.0123456789ab.rptmp")).doesNotExist();
        assertThat(dev.remotepath.tree.FileTransfer.isTemporary(
                dev.remotepath.tree.FileTransfer.temporarySibling(RemotePaths.of(temp.resolve("x.bin"))).name())).isTrue();
        assertThat(dev.remotepath.tree.FileTransfer.isTemporary(".x.rptmp")).isFalse();
    }

    @Test
    void aCopyUnderWayInAnotherProcessKeepsItsTemporaryWhileADeadOnesGoes() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src/sub"));
        Files.writeString(src.resolve("a.txt"), "a");
        Path dst = Files.createDirectories(temp.resolve("dst/sub"));
        Path dead = Files.writeString(dst.resolve(".b.bin.fedcba987654.rptmp"), "left by kill -9");
        Path live = dst.resolve(".c.bin.00112233aabb.rptmp");
        java.util.List<String> skipped = new java.util.concurrent.CopyOnWriteArrayList<>();
        // Another process's copy: its temporary open and growing all through the sync.
        try (var out = java.nio.channels.FileChannel.open(live, java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            java.util.concurrent.atomic.AtomicBoolean syncing = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    while (syncing.get()) {
                        out.write(java.nio.ByteBuffer.wrap("0123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
                        Thread.sleep(100);
                    }
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            SyncReport r;
            try {
                r = PathSyncer.builder(RemotePaths.of(temp.resolve("src")), RemotePaths.of(temp.resolve("dst")))
                        .listener(new SyncListener() {
                            @Override
                            public void skipped(String relativePath, String why) {
                                skipped.add(relativePath + ": " + why);
                            }
                        }).build().run();
            } finally {
                syncing.set(false);
                writer.join();
            }
            assertThat(r.errors()).isEmpty();
            assertThat(r.filesCopied()).isEqualTo(1);
            assertThat(dead).doesNotExist();
            // Still the file the writer holds, whole: not deleted and made anew.
            assertThat(live).exists();
            assertThat(Files.size(live)).isEqualTo(out.size()).isPositive();
            assertThat(skipped).anySatisfy(s -> assertThat(s).startsWith("sub/.c.bin.00112233aabb.rptmp: ")
                    .contains("another copy is writing"));
        }
        // Once its writer is gone (killed), the next sync takes it for a leftover.
        PathSyncer.builder(RemotePaths.of(temp.resolve("src")), RemotePaths.of(temp.resolve("dst"))).build().run();
        assertThat(live).doesNotExist();
    }
}
