package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Syncs into a target that does not tell names apart by case or Unicode normalization (a
 * {@link FoldingDisk}, as macOS's and Windows' disks are): a name whose case changed in the
 * source is updated, not written and then deleted as extraneous; two source names the target
 * takes for one are refused by name, never written over each other. The same trees into a
 * target that tells them apart (mem) keep behaving as before.
 */
class FoldingTargetSyncTest {

    @TempDir
    Path temp;

    private static final String COMPOSED = "caf\u00e9.txt";
    private static final String DECOMPOSED = "cafe\u0301.txt";

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static Path write(Path p, String content) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
        return p;
    }

    private static SyncReport sync(Path src, RemotePath target) throws IOException {
        return PathSyncer.builder(RemotePaths.of(src), target).deleteExtraneous(true).build().run();
    }

    @Test
    void aFileWhoseCaseChangedInTheSourceIsKeptNotDeletedAfterItsCopy() throws Exception {
        RemotePath target = FoldingDisk.root().resolve("dst");
        Path src = temp.resolve("src");
        write(src.resolve("report.txt"), "old");
        assertThat(sync(src, target).succeeded()).isTrue();
        // Renamed in the source (only its case), and changed.
        Files.move(src.resolve("report.txt"), src.resolve("Report.txt"));
        Files.writeString(src.resolve("Report.txt"), "new content");

        SyncReport r = sync(src, target);

        assertThat(r.errors()).isEmpty();
        assertThat(r.filesDeleted()).isZero();
        assertThat(target.resolve("Report.txt").readString()).isEqualTo("new content");
        assertThat(target.list()).hasSize(1);
        SyncReport again = sync(src, target);
        assertThat(again.succeeded()).isTrue();
        assertThat(again.filesCopied()).isZero();
        assertThat(again.filesDeleted()).isZero();
        assertThat(target.resolve("report.txt").readString()).isEqualTo("new content");
    }

    @Test
    void aDirectoryWhoseCaseChangedIsMergedIntoTheTargetsSpelling() throws Exception {
        RemotePath target = FoldingDisk.root().resolve("dst");
        Path src = temp.resolve("src");
        write(src.resolve("docs/a.txt"), "a");
        write(src.resolve("docs/b.txt"), "b");
        assertThat(sync(src, target).succeeded()).isTrue();
        Files.move(src.resolve("docs"), src.resolve("Docs"));
        write(src.resolve("Docs/c.txt"), "c");
        Files.delete(src.resolve("Docs/b.txt"));

        SyncReport r = sync(src, target);

        assertThat(r.errors()).isEmpty();
        assertThat(r.refusal()).isEmpty();
        assertThat(r.filesCopied()).isEqualTo(1);
        assertThat(r.filesDeleted()).isEqualTo(1); // b.txt, not the directory
        assertThat(r.directoriesDeleted()).isZero();
        assertThat(target.resolve("docs").list().stream().map(DirEntry::name).sorted().toList()).containsExactly("a.txt", "c.txt");
        assertThat(target.resolve("Docs/c.txt").readString()).isEqualTo("c");
    }

    @Test
    void twoSourceNamesTheTargetTakesForOneAreRefusedByNameNotWrittenOverEachOther() throws Exception {
        RemotePath target = FoldingDisk.root().resolve("dst");
        Path src = temp.resolve("src");
        write(src.resolve("README"), "upper");
        write(src.resolve("readme"), "lower");
        write(src.resolve("other.txt"), "other");

        SyncReport r = sync(src, target);

        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.relativePath()).isEqualTo("readme");
            assertThat(e.message()).contains("\"readme\"", "\"README\"", "case");
        });
        assertThat(r.filesCopied()).isEqualTo(2);
        assertThat(target.resolve("README").readString()).isEqualTo("upper");
        assertThat(target.list().stream().map(DirEntry::name).sorted().toList()).containsExactly("README", "other.txt");
        // Resynced with the target holding one of them: the other is refused again, nothing rewritten.
        SyncReport again = sync(src, target);
        assertThat(again.errors()).singleElement().satisfies(e -> assertThat(e.relativePath()).isEqualTo("readme"));
        assertThat(again.filesCopied()).isZero();
        assertThat(target.resolve("README").readString()).isEqualTo("upper");
    }

    @Test
    void namesThatDifferOnlyInUnicodeNormalizationAreOneNameThere() throws Exception {
        RemotePath target = FoldingDisk.root().resolve("dst");
        Path src = temp.resolve("src");
        write(src.resolve(COMPOSED), "composed");
        assertThat(sync(src, target).succeeded()).isTrue();
        // The source now holds the decomposed spelling (as a Mac's copy of the tree would).
        Files.move(src.resolve(COMPOSED), src.resolve(DECOMPOSED));

        SyncReport r = sync(src, target);

        assertThat(r.errors()).isEmpty();
        assertThat(r.filesDeleted()).isZero();
        assertThat(target.resolve(COMPOSED).readString()).isEqualTo("composed");
        // Both in the source at once: one is refused.
        write(src.resolve(COMPOSED), "both");
        SyncReport both = sync(src, target);
        assertThat(both.errors()).singleElement().satisfies(e -> assertThat(e.message()).contains("normalization"));
    }

    @Test
    void aTargetThatTellsTheNamesApartGetsBothAndLosesTheOldSpelling() throws Exception {
        RemotePath target = RemotePaths.get("mem://variants/dst");
        Path src = temp.resolve("src");
        write(src.resolve("report.txt"), "old");
        assertThat(sync(src, target).succeeded()).isTrue();
        Files.move(src.resolve("report.txt"), src.resolve("Report.txt"));
        write(src.resolve("README"), "upper");
        write(src.resolve("readme"), "lower");

        SyncReport r = sync(src, target);

        assertThat(r.errors()).isEmpty();
        assertThat(r.filesCopied()).isEqualTo(3);
        assertThat(r.filesDeleted()).isEqualTo(1);
        assertThat(target.list().stream().map(DirEntry::name).sorted().toList()).containsExactly("README", "Report.txt", "readme");
        assertThat(target.resolve("readme").readString()).isEqualTo("lower");
    }

    /**
     * A target whose lookups find every name, listed or not (a server that lies): finding the new
     * spelling is no evidence that it is the listed file, so nothing is paired, nothing deleted,
     * and the entry fails naming the target path.
     */
    @Test
    void aTargetThatFindsEveryNameIsNoEvidenceOfOneFile() throws Exception {
        RemotePath mem = RemotePaths.get("mem://variants-liar/dst");
        dev.remotepath.testkit.ForwardingFileSystem liar = new dev.remotepath.testkit.ForwardingFileSystem(mem.fileSystem()) {
            @Override
            public dev.remotepath.FileStat stat(RemotePath path, boolean followLinks) throws IOException {
                try {
                    return super.stat(path, followLinks);
                } catch (java.nio.file.NoSuchFileException e) {
                    if (path.name().equals(path.name().toLowerCase(java.util.Locale.ROOT))) {
                        throw e; // the liar's lies are for names with capitals: the rest of the sync runs as usual
                    }
                    return dev.remotepath.FileStat.ofType(dev.remotepath.FileType.FILE);
                }
            }
        };
        RemotePath target = liar.wrap(mem);
        Path src = temp.resolve("src");
        write(src.resolve("report.txt"), "old");
        assertThat(PathSyncer.builder(RemotePaths.of(src), target).deleteExtraneous(true).build().run().errors()).isEmpty();
        Files.move(src.resolve("report.txt"), src.resolve("Report.txt"));
        Files.writeString(src.resolve("Report.txt"), "new content");

        SyncReport r = PathSyncer.builder(RemotePaths.of(src), target).deleteExtraneous(true).build().run();

        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.relativePath()).isEqualTo("Report.txt");
            assertThat(e.message()).contains("mem://variants-liar/dst/Report.txt", "no evidence");
        });
        assertThat(r.filesDeleted()).isZero();
        assertThat(mem.resolve("report.txt").readString()).isEqualTo("old");
    }

    @Test
    void aDryRunOfACaseRenamePlansAnUpdateNotADeletion() throws Exception {
        RemotePath target = FoldingDisk.root().resolve("dst");
        Path src = temp.resolve("src");
        write(src.resolve("notes.md"), "v1");
        assertThat(sync(src, target).succeeded()).isTrue();
        Files.move(src.resolve("notes.md"), src.resolve("NOTES.md"));
        Files.writeString(src.resolve("NOTES.md"), "version two");
        Files.setLastModifiedTime(src.resolve("NOTES.md"), FileTime.from(Instant.now().plusSeconds(60)));

        List<SyncAction> plan = PathSyncer.builder(RemotePaths.of(src), target).deleteExtraneous(true).build().plan();

        assertThat(plan).singleElement().satisfies(a -> {
            assertThat(a.kind()).isNotIn(SyncAction.Kind.DELETE_FILE, SyncAction.Kind.COPY_NEW);
            assertThat(a.relativePath()).isEqualTo("NOTES.md");
        });
    }

    @Test
    void probesForNewVariantsLeaveNothingBehind() throws Exception {
        RemotePath target = FoldingDisk.root().resolve("dst");
        Path src = temp.resolve("src");
        write(src.resolve("sub/Makefile"), "1");
        write(src.resolve("sub/makefile"), "2");
        String longName = "L".repeat(150) + "\u00e9".repeat(40);
        write(src.resolve("sub/" + longName), "long");
        write(src.resolve("sub/" + longName.toLowerCase(java.util.Locale.ROOT)), "long lower");

        SyncReport r = sync(src, target);

        assertThat(r.errors()).extracting(SyncError::relativePath)
                .containsExactlyInAnyOrder("sub/makefile", "sub/" + longName.toLowerCase(java.util.Locale.ROOT));
        assertThat(target.resolve("sub").list().stream().map(DirEntry::name).sorted().toList())
                .containsExactly(longName, "Makefile");
    }

    @Test
    void aTreeCopyRefusesTwoNamesTheTargetTakesForOneBeforeWritingEither() throws Exception {
        RemotePath target = FoldingDisk.root().resolve("copy");
        Path src = temp.resolve("src");
        write(src.resolve("ok.txt"), "ok");
        write(src.resolve("sub/README"), "upper");
        write(src.resolve("sub/readme"), "lower");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RemotePaths.of(src).copyTo(target,
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class)
                .hasMessageContaining("readme").hasMessageContaining("README").hasMessageContaining("case");
        assertThat(target.resolve("sub").list()).isEmpty(); // neither written, no probe left

        RemotePath apart = RemotePaths.get("mem://variants-copy/dst");
        RemotePaths.of(src).copyTo(apart);
        assertThat(apart.resolve("sub/readme").readString()).isEqualTo("lower");
        assertThat(apart.resolve("sub/README").readString()).isEqualTo("upper");
    }

    @Test
    void groupsHoldOnlyNamesWithAVariantInListingOrder() throws Exception {
        dev.remotepath.RemotePath dir = dev.remotepath.RemotePaths.get("mem://variants-groups/");
        for (String n : new String[] {"A.txt", "B.txt", "a.txt", "c.txt", "caf\u00e9", "cafe\u0301"}) {
            dir.resolve(n).writeString(n);
        }
        var groups = dev.remotepath.tree.NameVariants.groups(dev.remotepath.tree.Listings.sorted(dir, dev.remotepath.spi.ListDetail.FILE_STATS));
        assertThat(groups).hasSize(2);
        assertThat(groups.get(0)).extracting(dev.remotepath.DirEntry::name).containsExactly("A.txt", "a.txt");
        assertThat(groups.get(1)).extracting(dev.remotepath.DirEntry::name).containsExactly("cafe\u0301", "caf\u00e9");
    }
}
