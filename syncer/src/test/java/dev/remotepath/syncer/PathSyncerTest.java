package dev.remotepath.syncer;

import static dev.remotepath.testkit.CountingFileSystem.Call.LIST;
import static dev.remotepath.testkit.CountingFileSystem.Call.OPEN_READ;
import static dev.remotepath.testkit.CountingFileSystem.Call.STAT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.testkit.CountingFileSystem;
import dev.remotepath.testkit.FaultInjectingFileSystem;
import dev.remotepath.testkit.ForwardingFileSystem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PathSyncer over pairs of backends on real trees: local and mem here; the sftp and s3 modules
 * run the same cases over their pairs by extending this class (it is in the syncer's test jar)
 * and overriding {@link #pairs()}.
 */
@org.junit.jupiter.api.TestInstance(org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS)
public class PathSyncerTest {

    /** One side of a sync: where a fresh, empty root comes from. */
    public interface Backend {
        /** A fresh root; anything to undo afterwards goes into {@code cleanup}. */
        RemotePath newRoot(List<AutoCloseable> cleanup) throws Exception;

        /**
         * Whether the server keeps symbolic links its backend has (rclone's {@code serve sftp}
         * refuses them; its contract test checks the refusal).
         */
        default boolean serverKeepsLinks() {
            return true;
        }

        /** Whether the server keeps the permissions its backend can set (rclone's {@code serve sftp} does not). */
        default boolean serverKeepsPermissions() {
            return true;
        }
    }

    /** The backends every build has. */
    public enum Local implements Backend {
        LOCAL, MEM;

        @Override
        public RemotePath newRoot(List<AutoCloseable> cleanup) throws Exception {
            if (this == LOCAL) {
                Path dir = Files.createTempDirectory("rp-sync-");
                cleanup.add(() -> RemotePaths.of(dir).deleteRecursively());
                return RemotePaths.of(dir);
            }
            RemotePath root = RemotePaths.get("mem://sync-" + UUID.randomUUID() + "/");
            cleanup.add(() -> root.fileSystem().close());
            return root;
        }
    }

    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void clean() throws Exception {
        for (AutoCloseable c : cleanup) {
            c.close();
        }
        cleanup.clear(); // one instance serves every case (PER_CLASS, so subclasses can give pairs)
    }

    /** The (source, target) pairs every case runs over. */
    protected Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Local.LOCAL, Local.LOCAL), Arguments.of(Local.LOCAL, Local.MEM),
                Arguments.of(Local.MEM, Local.LOCAL), Arguments.of(Local.MEM, Local.MEM));
    }

    private static boolean links(RemotePath root) {
        return root.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.SYMBOLIC_LINKS);
    }

    /** Whether the backend's listings carry files' own mtimes (S3's carry only the upload time). */
    private static boolean listsMtimes(RemotePath root) throws IOException {
        return root.walk(dev.remotepath.WalkOptions.defaults().withDetail(ListDetail.FILE_STATS))
                .filter(DirEntry::isRegularFile).allMatch(e -> e.stat().lastModified().isPresent());
    }

    private RemotePath src;
    private RemotePath dst;

    private void roots(Backend from, Backend to) throws Exception {
        src = from.newRoot(cleanup).resolve("src").createDirectories();
        dst = to.newRoot(cleanup).resolve("dst");
        linksOnBothSides = links(src) && from.serverKeepsLinks() && links(dst) && to.serverKeepsLinks();
    }

    private boolean linksOnBothSides;

    /**
     * A link's text as the tree operations read it: reconciled with the size its listing gave
     * ({@link dev.remotepath.tree.LinkTargets#textOf}), which undoes a server's rewriting of
     * relative texts into absolute ones (ProFTPD).
     */
    private static String linkText(RemotePath link) throws IOException {
        DirEntry listed = link.parent().list().stream().filter(e -> e.name().equals(link.name())).findFirst()
                .orElseThrow(() -> new java.nio.file.NoSuchFileException(link.toString()));
        return dev.remotepath.tree.LinkTargets.textOf(link, listed.stat());
    }

    private static final Instant T0 = Instant.parse("2024-02-29T13:37:42Z");

    /** 3 directories + root, 7 files, distinct mtimes. */
    private void sourceTree() throws IOException {
        write(src.resolve("a.txt"), "alpha", 0);
        write(src.resolve("b.md"), "bravo!", 1);
        write(src.resolve("sub/c.txt"), "charlie", 2);
        write(src.resolve("sub/d.bin"), "d".repeat(100_000), 3);
        write(src.resolve("sub/deep/e.txt"), "echo", 4);
        write(src.resolve("sub/deep/f.md"), "foxtrot", 5);
        write(src.resolve("other/g.txt"), "golf", 6);
    }

    private static void write(RemotePath p, String content, int minutes) throws IOException {
        p.parent().createDirectories();
        p.writeString(content);
        p.setLastModifiedTime(T0.plusSeconds(60L * minutes));
    }

    /** relative path -> content ("<dir>" for directories), with mtimes for files. */
    private static Map<String, String> snapshot(RemotePath root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<DirEntry> s = root.walk(dev.remotepath.WalkOptions.defaults().withDetail(ListDetail.FILE_STATS))) {
            for (DirEntry e : s.toList()) {
                String rel = root.relativize(e.path()).pathString();
                out.put(rel, switch (e.type()) {
                    case DIRECTORY -> "<dir>";
                    case SYMLINK -> "<link " + dev.remotepath.tree.LinkTargets.textOf(e.path(), e.stat()) + ">";
                    default -> e.path().readString() + " @" + (e.stat().lastModified().isPresent()
                            ? e.stat().lastModified().get() : e.path().stat().lastModified().orElseThrow());
                });
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void firstSyncMirrorsContentAndTimes(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        SyncReport r = PathSyncer.builder(src, dst).build().run();
        assertThat(r.errors()).isEmpty();
        assertThat(snapshot(dst)).isEqualTo(snapshot(src));
        assertThat(r.filesCopied()).isEqualTo(7);
        assertThat(r.directoriesCreated()).isEqualTo(4); // the target root, sub, sub/deep, other
        assertThat(r.bytesCopied()).isEqualTo(5 + 6 + 7 + 100_000 + 4 + 7 + 4);
        assertThat(r.filesSkipped()).isZero();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void secondRunListsOncePerDirectoryAndReadsNothing(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        PathSyncer.builder(src, dst).build().run();
        RemotePath countedSrc = CountingFileSystem.counting(src);
        RemotePath countedDst = CountingFileSystem.counting(dst);
        SyncReport r = PathSyncer.builder(countedSrc, countedDst).build().run();
        assertThat(r.filesCopied()).isZero();
        assertThat(r.filesSkipped()).isEqualTo(7);
        assertThat(r.contentBytesRead()).isZero();
        boolean sourceListsMtimes = listsMtimes(src);
        boolean targetListsMtimes = listsMtimes(dst);
        for (RemotePath side : List.of(countedSrc, countedDst)) {
            CountingFileSystem c = CountingFileSystem.of(side);
            if (side.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.FLAT_LISTING)) {
                // One flat listing of the whole side instead (S3).
                assertThat(c.count(CountingFileSystem.Call.LIST_TREE)).as("flat listings on " + side).isEqualTo(1);
                assertThat(c.count(LIST)).as("lists on " + side).isZero();
            } else {
                assertThat(c.count(LIST)).as("lists on " + side).isEqualTo(4);
            }
            // A source listing without mtimes (S3) costs one stat per file. A target's (S3) costs
            // one for each file whose source cannot prove by its ctime that it has not changed
            // since the upload: here all or some of them, as the tree was written just before it.
            // (A local source listed without ctimes gives them by a local stat, for those files.)
            if (!targetListsMtimes && (side == countedDst || sourceListsMtimes)) {
                assertThat(c.count(STAT)).as("stats on " + side).isBetween(0L, 7L);
            } else {
                assertThat(c.count(STAT)).as("stats on " + side).isEqualTo(side == countedSrc && !sourceListsMtimes ? 7 : 0);
            }
            assertThat(c.count(OPEN_READ)).as("reads on " + side).isZero();
            // Metadata reuse holds for writes too: a no-op run changes nothing on either side.
            assertThat(c.counts(CountingFileSystem.Call.WRITES)).as("writes on " + side).isEmpty();
            assertThat(c.count(CountingFileSystem.Call.NATIVE_CHECKSUM)).as("checksums on " + side).isZero();
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void changesAreCopiedByQuickCheck(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        PathSyncer.builder(src, dst).build().run();
        write(src.resolve("a.txt"), "ALPHA", 30); // same size, new mtime
        if (!listsMtimes(dst)) {
            // A target listing only storage times (S3) takes content stored after the source's
            // mtime as current (docs/sync.md): an edit is seen by its mtime being the edit's time.
            src.resolve("a.txt").setLastModifiedTime(Instant.now().plusSeconds(5).truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        }
        write(src.resolve("sub/c.txt"), "charlie and more", 2); // new size, same mtime
        List<SyncAction> plan = PathSyncer.builder(src, dst).build().plan();
        // Both sides computing a checksum themselves (SFTP check-file, S3 ETags) let it decide instead.
        java.util.Set<ChecksumAlgorithm> shared = java.util.EnumSet.noneOf(ChecksumAlgorithm.class);
        shared.addAll(src.fileSystem().nativeChecksums());
        shared.retainAll(dst.fileSystem().nativeChecksums());
        String reason = shared.isEmpty() ? "mtime differs" : "checksum differs";
        assertThat(plan).extracting(SyncAction::relativePath, SyncAction::reason)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("a.txt", reason),
                        org.assertj.core.groups.Tuple.tuple("sub/c.txt", "size differs"));
        SyncReport r = PathSyncer.builder(src, dst).build().run();
        assertThat(r.filesCopied()).isEqualTo(2);
        assertThat(snapshot(dst)).isEqualTo(snapshot(src));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void planChangesNothing(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        List<SyncAction> plan = PathSyncer.builder(src, dst).deleteExtraneous(true).build().plan();
        assertThat(plan).filteredOn(a -> a.kind() == SyncAction.Kind.COPY_NEW).hasSize(7);
        assertThat(plan).filteredOn(a -> a.kind() == SyncAction.Kind.MKDIR).hasSize(4);
        assertThat(dst.exists()).isFalse();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void extraneousFilesStayUnlessDeletionIsAsked(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        PathSyncer.builder(src, dst).build().run();
        write(dst.resolve("extra.txt"), "x", 0);
        write(dst.resolve("olddir/inner.txt"), "y", 0);
        assertThat(PathSyncer.builder(src, dst).build().run().filesDeleted()).isZero();
        assertThat(dst.resolve("extra.txt").exists()).isTrue();
        SyncReport r = PathSyncer.builder(src, dst).deleteExtraneous(true).build().run();
        assertThat(r.filesDeleted()).isEqualTo(2);
        assertThat(snapshot(dst)).isEqualTo(snapshot(src));
    }

    /**
     * Names that differ only in case or Unicode normalization: a target that tells them apart
     * (every backend here) gets each as a file of its own, and a case rename's old spelling is
     * deleted; one that does not (NameVariantsTest) keeps one and refuses the other by name.
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void namesThatDifferOnlyInCaseOrNormalizationAreEachMirrored(Backend from, Backend to) throws Exception {
        roots(from, to);
        write(src.resolve("report.txt"), "first", 0);
        assertThat(PathSyncer.builder(src, dst).deleteExtraneous(true).build().run().succeeded()).isTrue();
        src.resolve("report.txt").delete();
        write(src.resolve("Report.txt"), "renamed", 1);
        write(src.resolve("README"), "upper", 2);
        write(src.resolve("readme"), "lower", 3);
        write(src.resolve("sub/caf\u00e9.txt"), "composed", 4);
        write(src.resolve("sub/cafe\u0301.txt"), "decomposed", 5);

        SyncReport r = PathSyncer.builder(src, dst).deleteExtraneous(true).build().run();

        assertThat(r.errors()).isEmpty();
        assertThat(r.filesDeleted()).isEqualTo(1);
        assertThat(snapshot(dst)).isEqualTo(snapshot(src));
        assertThat(dst.resolve("sub/cafe\u0301.txt").readString()).isEqualTo("decomposed");
        SyncReport again = PathSyncer.builder(src, dst).deleteExtraneous(true).build().run();
        assertThat(again.succeeded()).isTrue();
        assertThat(again.filesCopied() + again.filesDeleted()).isZero();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void maxDeleteRefusesBeforeDeletingAnything(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        PathSyncer.builder(src, dst).build().run();
        for (int i = 0; i < 5; i++) {
            write(dst.resolve("extra" + i), "x", 0);
        }
        SyncReport r = PathSyncer.builder(src, dst).deleteExtraneous(true).maxDelete(4).build().run();
        assertThat(r.refusedForSafety()).isTrue();
        assertThat(r.refusal()).hasValueSatisfying(m -> assertThat(m).contains("5 deletions"));
        assertThat(r.filesDeleted()).isZero();
        assertThat(dst.list()).extracting(DirEntry::name).contains("extra0", "extra4");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void missingOrEmptySourceNeverWipesTheTarget(Backend from, Backend to) throws Exception {
        roots(from, to);
        write(dst.resolve("precious.txt"), "keep", 0);
        assertThatThrownBy(() -> PathSyncer.builder(src.resolve("nope"), dst).deleteExtraneous(true).build().run())
                .isInstanceOf(SyncRefusedException.class).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> PathSyncer.builder(src, dst).deleteExtraneous(true).build().run())
                .isInstanceOf(SyncRefusedException.class).hasMessageContaining("empty");
        assertThat(dst.resolve("precious.txt").readString()).isEqualTo("keep");
        SyncReport r = PathSyncer.builder(src, dst).deleteExtraneous(true).allowEmptySource(true).build().run();
        assertThat(r.filesDeleted()).isEqualTo(1);
        assertThat(dst.list()).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void failedCopyKeepsOldTargetSkipsDeletesAndRerunCompletes(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        PathSyncer.builder(src, dst).build().run();
        write(src.resolve("sub/d.bin"), "D".repeat(200_000), 40);
        write(dst.resolve("extra.txt"), "x", 0);
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(dst.fileSystem()).failWritesAfter(50_000);
        SyncReport r = PathSyncer.builder(src, faulty.wrap(dst)).deleteExtraneous(true).build().run();
        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.relativePath()).isEqualTo("sub/d.bin");
            assertThat(e.message()).contains("injected");
        });
        assertThat(r.refusal()).hasValueSatisfying(m -> assertThat(m).contains("deletions skipped"));
        assertThat(dst.resolve("sub/d.bin").readString()).isEqualTo("d".repeat(100_000));
        assertThat(dst.resolve("extra.txt").exists()).isTrue();
        assertThat(dst.resolve("sub").list()).extracting(DirEntry::name).containsExactly("c.txt", "d.bin", "deep");

        SyncReport again = PathSyncer.builder(src, dst).deleteExtraneous(true).build().run();
        assertThat(again.succeeded()).isTrue();
        assertThat(snapshot(dst)).isEqualTo(snapshot(src));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void listingFailingHalfWayLeavesTargetConsistent(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        write(dst.resolve("extra.txt"), "x", 0);
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(src.fileSystem())
                .failListing(src.resolve("sub").pathString());
        SyncReport r = PathSyncer.builder(faulty.wrap(src), dst).deleteExtraneous(true).build().run();
        assertThat(r.errors()).extracting(SyncError::relativePath).containsExactly("sub");
        assertThat(dst.resolve("a.txt").readString()).isEqualTo("alpha");
        assertThat(dst.resolve("sub").exists()).isFalse();
        assertThat(dst.resolve("extra.txt").exists()).as("no deletion after an error").isTrue();
        assertThat(PathSyncer.builder(src, dst).deleteExtraneous(true).build().run().succeeded()).isTrue();
        assertThat(snapshot(dst)).isEqualTo(snapshot(src));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void filtersSelectAndProtect(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        write(dst.resolve("keep.md"), "target-only markdown", 0);
        PathSyncer.builder(src, dst).exclude("*.md").deleteExtraneous(true).build().run();
        assertThat(snapshot(dst).keySet()).containsExactly("a.txt", "keep.md", "other", "other/g.txt", "sub",
                "sub/c.txt", "sub/d.bin", "sub/deep", "sub/deep/e.txt");
        RemotePath only = dst.resolveSibling("only-txt");
        PathSyncer.builder(src, only).include("*.txt").build().run();
        assertThat(snapshot(only).keySet()).containsExactly("a.txt", "other", "other/g.txt", "sub", "sub/c.txt",
                "sub/deep", "sub/deep/e.txt");
        RemotePath anchored = dst.resolveSibling("anchored");
        PathSyncer.builder(src, anchored).include("/sub/**").exclude("deep/").build().run();
        assertThat(snapshot(anchored).keySet()).containsExactly("sub", "sub/c.txt", "sub/d.bin");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void symlinkPolicies(Backend from, Backend to) throws Exception {
        roots(from, to);
        org.junit.jupiter.api.Assumptions.assumeTrue(linksOnBothSides, "needs links on both sides");
        sourceTree();
        src.resolve("link.txt").createSymbolicLink("a.txt");
        src.resolve("linkdir").createSymbolicLink("sub/deep");
        SyncReport skipped = PathSyncer.builder(src, dst).build().run();
        assertThat(skipped.linksSkipped()).isEqualTo(2);
        assertThat(dst.resolve("link.txt").exists()).isFalse();

        RemotePath preserved = dst.resolveSibling("preserved");
        SyncReport p = PathSyncer.builder(src, preserved).symlinks(SymlinkPolicy.PRESERVE).build().run();
        assertThat(p.linksCreated()).isEqualTo(2);
        assertThat(linkText(preserved.resolve("link.txt"))).isEqualTo("a.txt");
        assertThat(PathSyncer.builder(src, preserved).symlinks(SymlinkPolicy.PRESERVE).build().run().linksCreated())
                .isZero();

        RemotePath followed = dst.resolveSibling("followed");
        PathSyncer.builder(src, followed).symlinks(SymlinkPolicy.FOLLOW).build().run();
        assertThat(followed.resolve("link.txt").isSymbolicLink()).isFalse();
        assertThat(followed.resolve("link.txt").readString()).isEqualTo("alpha");
        assertThat(followed.resolve("linkdir/e.txt").readString()).isEqualTo("echo");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void followingALoopIsReportedNotEndless(Backend from, Backend to) throws Exception {
        roots(from, to);
        org.junit.jupiter.api.Assumptions.assumeTrue(linksOnBothSides, "needs links on both sides");
        sourceTree();
        src.resolve("sub/deep/up").createSymbolicLink("../..");
        src.resolve("sub/up").createSymbolicLink("..");
        SyncReport r = PathSyncer.builder(src, dst).symlinks(SymlinkPolicy.FOLLOW).build().run();
        assertThat(r.errors()).extracting(SyncError::relativePath).contains("sub/deep/up", "sub/up");
        assertThat(r.errors()).extracting(SyncError::message).allMatch(m -> m.contains("loop"));
        assertThat(dst.resolve("sub/deep/e.txt").readString()).isEqualTo("echo");
        // Seen before it is entered: the tree is not copied again one level down first.
        assertThat(dst.resolve("sub/deep/up").exists()).isFalse();
        assertThat(dst.resolve("sub/up").exists()).isFalse();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void followingALoopIsReportedOnBackendsWithoutFileKeys(Backend from, Backend to) throws Exception {
        roots(from, to);
        org.junit.jupiter.api.Assumptions.assumeTrue(linksOnBothSides, "needs links on both sides");
        sourceTree();
        src.resolve("sub/deep/up").createSymbolicLink("../..");
        src.resolve("sub/up").createSymbolicLink("..");
        RemotePath keyless = new NoFileKeys(src.fileSystem()).wrap(src);
        SyncReport r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
                () -> PathSyncer.builder(keyless, dst).symlinks(SymlinkPolicy.FOLLOW).build().run());
        assertThat(r.errors()).extracting(SyncError::relativePath).contains("sub/deep/up", "sub/up");
        assertThat(r.errors()).extracting(SyncError::message).allMatch(m -> m.contains("loop"));
        assertThat(dst.resolve("sub/deep/e.txt").readString()).isEqualTo("echo");
        assertThat(dst.resolve("sub/deep/up").exists()).isFalse();
        assertThat(dst.resolve("sub/up").exists()).isFalse();
    }

    /** Like SFTP, S3 and HTTP: stats and listings carry no file identity. */
    static final class NoFileKeys extends ForwardingFileSystem {
        NoFileKeys(RemoteFileSystem delegate) {
            super(delegate);
        }

        private static FileStat strip(FileStat s) {
            // Everything but the file key, through the builder (FileStat has no public constructor).
            FileStat.Builder b = FileStat.builder(s.type());
            s.size().ifPresent(n -> {
                if (s.sizeExact()) {
                    b.size(n);
                } else {
                    b.approximateSize(n);
                }
            });
            s.lastModified().ifPresent(t -> b.lastModified(t, s.lastModifiedPrecision()));
            s.lastAccess().ifPresent(b::lastAccess);
            s.changeTime().ifPresent(b::changeTime);
            s.permissions().ifPresent(b::permissions);
            s.etag().ifPresent(b::etag);
            s.checksums().forEach(b::checksum);
            s.storedAt().ifPresent(b::storedAt);
            return b.build();
        }

        @Override
        public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
            return strip(super.stat(path, followLinks));
        }

        @Override
        public dev.remotepath.spi.DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
            List<ListedEntry> out = new ArrayList<>();
            try (var l = super.list(directory, detail)) {
                while (l.hasNext()) {
                    ListedEntry e = l.next();
                    out.add(new ListedEntry(e.name(), strip(e.stat())));
                }
            }
            return dev.remotepath.spi.DirectoryListing.of(out);
        }

        @Override
        public dev.remotepath.spi.DirectoryListing listChild(dev.remotepath.spi.DirectoryListing parent, RemotePath directory,
                ListDetail detail) throws IOException {
            return list(directory, detail);
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void typeChangesNeedDeletionAndAreThenReplaced(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        PathSyncer.builder(src, dst).build().run();
        src.resolve("a.txt").delete();
        write(src.resolve("a.txt/now-a-dir.txt"), "inside", 7);
        write(src.resolve("a.txt/below/deeper.txt"), "further in", 9);
        src.resolve("other").deleteRecursively();
        write(src.resolve("other"), "now a file", 8);
        SyncReport refused = PathSyncer.builder(src, dst).build().run();
        assertThat(refused.errors()).extracting(SyncError::relativePath).containsExactlyInAnyOrder("a.txt", "other");
        assertThat(refused.errors()).allMatch(e -> e.message().contains("type changed"));
        SyncReport r = PathSyncer.builder(src, dst).deleteExtraneous(true).build().run();
        assertThat(r.errors()).isEmpty();
        assertThat(snapshot(dst)).isEqualTo(snapshot(src));
        // Each replacement is brought over file by file, and counted so: not "1 file" a directory.
        assertThat(r.filesCopied()).isEqualTo(3);
        assertThat(r.bytesCopied()).isEqualTo("inside".length() + "further in".length() + "now a file".length());
        assertThat(r.filesDeleted()).isEqualTo(2); // a.txt, and other/g.txt
        assertThat(PathSyncer.builder(src, dst).deleteExtraneous(true).build().run().filesCopied()).isZero();
    }

    /**
     * A copy takes its source's permission bits, less the target's umask, as {@code cp} and
     * {@code sftp put} give them: a private file is not mirrored readable by everyone, a script
     * stays executable. Asserted as "within the source's bits, the owner's kept".
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void copiesTakeTheirSourcesPermissionsNeverWider(Backend from, Backend to) throws Exception {
        roots(from, to);
        org.junit.jupiter.api.Assumptions.assumeTrue(permissions(src) && from.serverKeepsPermissions()
                && permissions(dst) && to.serverKeepsPermissions(), "both sides keep permissions");
        Map<String, String> bits = Map.of("private.txt", "rw-------", "sub/run.sh", "rwxr-x---", "sub/read-only", "r--r-----");
        int minute = 0;
        for (Map.Entry<String, String> e : bits.entrySet()) {
            write(src.resolve(e.getKey()), e.getKey(), minute++);
            src.resolve(e.getKey()).setPermissions(java.nio.file.attribute.PosixFilePermissions.fromString(e.getValue()));
        }
        SyncReport r = PathSyncer.builder(src, dst).build().run();
        assertThat(r.errors()).isEmpty();
        assertThat(r.filesCopied()).isEqualTo(3);
        for (Map.Entry<String, String> e : bits.entrySet()) {
            RemotePath copy = dst.resolve(e.getKey());
            assertThat(copy.readString()).isEqualTo(e.getKey());
            java.util.Set<java.nio.file.attribute.PosixFilePermission> asked =
                    java.nio.file.attribute.PosixFilePermissions.fromString(e.getValue());
            java.util.Set<java.nio.file.attribute.PosixFilePermission> got = copy.stat().permissions().orElseThrow();
            assertThat(asked).as("%s: %s", e.getKey(), java.nio.file.attribute.PosixFilePermissions.toString(got))
                    .containsAll(got);
            assertThat(got).as(e.getKey()).contains(java.nio.file.attribute.PosixFilePermission.OWNER_READ);
            assertThat(got.contains(java.nio.file.attribute.PosixFilePermission.OWNER_EXECUTE)).as(e.getKey())
                    .isEqualTo(asked.contains(java.nio.file.attribute.PosixFilePermission.OWNER_EXECUTE));
        }
        // Directories take their source's group and other bits; the owner always has rwx.
        src.resolve("private-dir/read-only").createDirectories();
        write(src.resolve("private-dir/read-only/f"), "f", 20);
        src.resolve("private-dir/read-only").setPermissions(java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-x---"));
        src.resolve("private-dir").setPermissions(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        assertThat(PathSyncer.builder(src, dst).build().run().errors()).isEmpty();
        assertThat(dst.resolve("private-dir").stat().permissions().orElseThrow())
                .containsAll(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"))
                .doesNotContain(java.nio.file.attribute.PosixFilePermission.GROUP_READ,
                        java.nio.file.attribute.PosixFilePermission.OTHERS_READ,
                        java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE);
        assertThat(dst.resolve("private-dir/read-only").stat().permissions().orElseThrow())
                .contains(java.nio.file.attribute.PosixFilePermission.OWNER_WRITE)
                .doesNotContain(java.nio.file.attribute.PosixFilePermission.OTHERS_READ);
        src.resolve("private-dir/read-only").setPermissions(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        // An update is a new file too (written beside and renamed over): it takes the source's bits again.
        write(src.resolve("private.txt"), "changed", 30);
        assertThat(PathSyncer.builder(src, dst).build().run().filesCopied()).isEqualTo(1);
        assertThat(dst.resolve("private.txt").stat().permissions().orElseThrow())
                .doesNotContain(java.nio.file.attribute.PosixFilePermission.GROUP_READ,
                        java.nio.file.attribute.PosixFilePermission.OTHERS_READ);
    }

    private static boolean permissions(RemotePath root) {
        return root.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.POSIX_PERMISSIONS);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void checksumModeComparesContent(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        PathSyncer.builder(src, dst).build().run();
        write(dst.resolve("a.txt"), "ALPHA", 0); // same size and mtime, other content: quick-check misses it
        assertThat(PathSyncer.builder(src, dst).build().run().filesCopied()).isZero();
        SyncReport r = PathSyncer.builder(src, dst).comparison(Comparison.CHECKSUM).build().run();
        assertThat(r.filesCopied()).isEqualTo(1);
        assertThat(r.checksumsStreamed() + r.checksumsNative()).isEqualTo(7);
        if (src.fileSystem().nativeChecksums().isEmpty() || dst.fileSystem().nativeChecksums().isEmpty()) {
            assertThat(r.checksumsNative()).isZero();
        }
        assertThat(dst.resolve("a.txt").readString()).isEqualTo("alpha");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void quickCheckUsesSharedNativeChecksumsToOnlyFixMtimes(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        PathSyncer.builder(src, dst).build().run();
        org.junit.jupiter.api.Assumptions.assumeTrue(listsMtimes(dst),
                "the target's listing shows no mtime (S3): quick-check decides by storage time there");
        dst.resolve("sub/c.txt").setLastModifiedTime(T0.plusSeconds(999));
        RemotePath s = new NativeMd5FileSystem(src.fileSystem()).wrap(src);
        RemotePath d = new NativeMd5FileSystem(dst.fileSystem()).wrap(dst);
        SyncReport r = PathSyncer.builder(s, d).build().run();
        assertThat(r.mtimesFixed()).isEqualTo(1);
        assertThat(r.filesCopied()).isZero();
        assertThat(r.checksumsNative()).isEqualTo(1);
        assertThat(dst.resolve("sub/c.txt").stat().lastModified()).hasValue(T0.plusSeconds(120));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void listenerSeesPairedEventsAndEveryByte(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        AtomicLong bytes = new AtomicLong();
        SyncReport r = PathSyncer.builder(src, dst).transfers(8).listener(new SyncListener() {
            @Override
            public void started(SyncAction a) {
                events.add("start " + a.relativePath());
            }

            @Override
            public void progress(SyncAction a, long n) {
                bytes.addAndGet(n);
            }

            @Override
            public void finished(SyncAction a) {
                events.add("end " + a.relativePath());
            }
        }).build().run();
        assertThat(events).filteredOn(e -> e.startsWith("start")).hasSize(11);
        assertThat(events).filteredOn(e -> e.startsWith("end")).hasSize(11);
        assertThat(bytes.get()).isEqualTo(r.bytesCopied());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void hostileSourceNamesNeverReachOutsideTheTarget(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        write(dst.resolveSibling("outside.txt"), "precious", 0);
        FaultInjectingFileSystem tampered = new FaultInjectingFileSystem(src.fileSystem())
                .addToEveryListing(new ListedEntry("..", FileStat.builder(FileType.FILE).size(1)
                        .lastModified(T0, FileStat.EXACT).build()));
        assertThatThrownBy(() -> PathSyncer.builder(tampered.wrap(src), dst).deleteExtraneous(true).build().run())
                .isInstanceOf(UnsafeNameException.class);
        assertThat(dst.resolveSibling("outside.txt").readString()).isEqualTo("precious");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void overlappingRootsAreRefused(Backend from, Backend to) throws Exception {
        roots(from, to);
        assertThatThrownBy(() -> PathSyncer.builder(src, src.resolve("inside")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlap");
    }

    /**
     * Directory -> its mtime (seconds), as the listings of the tree show them; the root's own
     * stat when the sync's source is on this machine (a remote source root's is not asked for).
     */
    private Map<String, Long> directoryTimes(RemotePath root) throws IOException {
        Map<String, Long> out = new TreeMap<>();
        if (src.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.IN_PROCESS)) {
            out.put("", root.stat().lastModified().orElseThrow().getEpochSecond());
        }
        try (Stream<DirEntry> s = root.walk(dev.remotepath.WalkOptions.defaults().withDetail(ListDetail.FILE_STATS))) {
            for (DirEntry e : s.filter(DirEntry::isDirectory).toList()) {
                Instant t = e.stat().lastModified().isPresent() ? e.stat().lastModified().get()
                        : e.path().stat().lastModified().orElseThrow();
                out.put(root.relativize(e.path()).pathString(), t.getEpochSecond());
            }
        }
        return out;
    }

    private static void ageDirectories(RemotePath root) throws IOException {
        List<DirEntry> dirs;
        try (Stream<DirEntry> s = root.walk()) {
            dirs = s.filter(DirEntry::isDirectory).toList();
        }
        int i = 0;
        for (DirEntry d : dirs) {
            d.path().setLastModifiedTime(T0.minusSeconds(86_400L * ++i));
        }
        root.setLastModifiedTime(T0.minusSeconds(86_400L * 100));
    }

    /**
     * Whether the servers under test set directories' times as they do files'. A test overrides
     * this for a server whose backend documents that it cannot (MINA FtpServer's MFMT sets files only).
     */
    protected boolean serversSetDirectoryTimes() {
        return true;
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void directoriesGetTheirSourceTimesOnceTheirContentsAreWritten(Backend from, Backend to) throws Exception {
        roots(from, to);
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.remotepath.tree.FileTransfer.keepsDirectoryTimes(dst.fileSystem()),
                "the target has no directory times to set");
        org.junit.jupiter.api.Assumptions.assumeTrue(serversSetDirectoryTimes(), "the test server sets files' times only");
        org.junit.jupiter.api.Assumptions.assumeTrue(
                !src.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.IMPLICIT_DIRECTORIES),
                "the source has no directory times");
        sourceTree();
        ageDirectories(src);
        SyncReport first = PathSyncer.builder(src, dst).build().run();
        assertThat(first.errors()).isEmpty();
        assertThat(directoryTimes(dst)).isEqualTo(directoryTimes(src));

        // A change inside a directory (a new file, a deletion) changes the target's time; the run restores it.
        write(src.resolve("sub/new.txt"), "new", 9);
        write(dst.resolve("other/extra.txt"), "extra", 9);
        ageDirectories(src);
        SyncReport second = PathSyncer.builder(src, dst).deleteExtraneous(true).build().run();
        assertThat(second.errors()).isEmpty();
        assertThat(second.filesCopied()).isEqualTo(1);
        assertThat(second.filesDeleted()).isEqualTo(1);
        assertThat(directoryTimes(dst)).isEqualTo(directoryTimes(src));
        assertThat(snapshot(dst)).isEqualTo(snapshot(src));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void deletionsAreCountedFileByFileAndDirectoryByDirectory(Backend from, Backend to) throws Exception {
        roots(from, to);
        sourceTree();
        PathSyncer.builder(src, dst).build().run();
        for (int i = 0; i < 30; i++) {
            write(dst.resolve("gone/" + i + ".txt"), "x", 0);
        }
        write(dst.resolve("gone/inner/last.txt"), "x", 0);
        write(dst.resolve("stray.txt"), "x", 0);

        SyncReport refused = PathSyncer.builder(src, dst).deleteExtraneous(true).maxDelete(10).build().run();
        assertThat(refused.refusedForSafety()).isTrue();
        assertThat(refused.refusal()).hasValueSatisfying(m -> assertThat(m).contains("34 deletions"));
        assertThat(refused.filesDeleted()).isZero();
        assertThat(dst.resolve("gone/0.txt").exists()).isTrue();

        SyncReport r = PathSyncer.builder(src, dst).deleteExtraneous(true).maxDelete(34).build().run();
        assertThat(r.errors()).isEmpty();
        assertThat(r.filesDeleted()).isEqualTo(32); // 30 + last.txt + stray.txt
        assertThat(r.directoriesDeleted()).isEqualTo(2); // gone, gone/inner
        assertThat(snapshot(dst)).isEqualTo(snapshot(src));
    }

    /** Pretends the backend computes MD5 itself (as an SFTP server with check-file does). */
    static final class NativeMd5FileSystem extends ForwardingFileSystem {
        NativeMd5FileSystem(RemoteFileSystem delegate) {
            super(delegate);
        }

        @Override
        public Set<ChecksumAlgorithm> nativeChecksums() {
            return Set.of(ChecksumAlgorithm.MD5);
        }

        @Override
        public Optional<Checksum> nativeChecksum(RemotePath file, ChecksumAlgorithm algorithm) throws IOException {
            try (InputStream in = delegate.openRead(down(file), 0)) {
                Checksum c = dev.remotepath.tree.StreamingChecksum.of(algorithm, in);
                return Optional.of(new Checksum(algorithm, c.hex(), Checksum.Origin.NATIVE));
            }
        }
    }
}
