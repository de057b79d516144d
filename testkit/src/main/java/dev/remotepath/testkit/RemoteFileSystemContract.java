package dev.remotepath.testkit;

import static dev.remotepath.testkit.CountingFileSystem.Call.DELETE_FILES;
import static dev.remotepath.testkit.CountingFileSystem.Call.LIST;
import static dev.remotepath.testkit.CountingFileSystem.Call.OPEN_READ;
import static dev.remotepath.testkit.CountingFileSystem.Call.STAT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.WalkOptions;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour every backend promises, as one JUnit 5 suite. A backend's test extends this
 * class and supplies a fresh, empty directory per test on a real server. Cases that need a
 * capability the backend lacks are skipped by {@link #assumeCapability}, not copied out.
 * Read-only backends override the {@code seed*} hooks to build fixtures in their backing
 * store (the directory a test web server serves). The cases are kept a concern to a class:
 * {@link ReadingContract}, {@link WritingContract}, {@link CopyingContract}, the interfaces named
 * below, and here closing, access rights, attributes, hostile listings and counted metadata reuse.
 */
public abstract class RemoteFileSystemContract extends CopyingContract implements FlatListingContract,
        ObservedCallsContract, NioFacadeContract, StoreSpaceContract {

    @Override
    public final RemotePath flatListingTree() throws Exception {
        return tree(dir);
    }

    @Override
    public final RemotePath observedTree() throws Exception {
        return tree(dir);
    }

    @Override
    public final RemotePath nioTree() throws Exception {
        return tree(dir);
    }

    @Override
    public final RemotePath storeSpaceTree() throws Exception {
        return tree(dir);
    }

    /** The check above can fail: a stream held open is a file some process holds open. */
    @Test
    void theOpenFilesCheckSeesAStreamHeldOpen() throws Exception {
        java.util.Optional<java.nio.file.Path> disk = diskDirectoryOf(dir);
        assumeTrue(disk.isPresent() && OpenFiles.observable(), "the backend's files are not on this machine's disk");
        // Large enough that no server can have sent it all into socket buffers and closed it.
        MessageDigest ignored = MessageDigest.getInstance("SHA-256");
        seedLargeFile(dir.resolve("held.bin"), new PatternStream(48L << 20, ignored));
        try (InputStream in = dir.resolve("held.bin").newInputStream()) {
            assertThat(in.read()).isNotNegative();
            long deadline = System.nanoTime() + 5_000_000_000L;
            List<String> open = OpenFiles.under(disk.get());
            while (open.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
                open = OpenFiles.under(disk.get());
            }
            assertThat(open).as("a file held open below %s", disk.get()).isNotEmpty();
        }
    }

    @Test
    void aClosedFileSystemFailsEveryOperationWithClosedFileSystemException() throws Exception {
        RemotePath own = newDirectoryOnAFileSystemToClose();
        assumeTrue(own != null, "this backend's file systems are not closed");
        assertThat(own.fileSystem()).isNotSameAs(dir.fileSystem());
        RemotePath f = own.resolve("f");
        assertThat(f.exists()).isTrue();
        own.fileSystem().close();
        assertThat(own.fileSystem().isOpen()).isFalse();
        own.fileSystem().close(); // a second close is no error
        List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> operations = List.of(
                f::stat, own::list, f::readAllBytes, () -> f.writeString("x"), f::delete,
                () -> own.resolve("d").createDirectory());
        for (var op : operations) {
            assertThatThrownBy(op).isInstanceOf(java.nio.file.ClosedFileSystemException.class);
        }
    }

    @Test
    void whatTheUserMayNotTouchIsAccessDenied() throws Exception {
        RemotePath denied = newDirectoryAsAnUnprivilegedUser();
        assumeTrue(denied != null, "no unprivileged user for this backend's test server");
        try {
            assertThat(denied.fileSystem()).isNotSameAs(dir.fileSystem());
            assertThatThrownBy(() -> denied.resolve("secret").readAllBytes()).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> denied.resolve("locked").list()).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> denied.resolve("new.txt").writeString("x")).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> denied.resolve("d").createDirectory()).isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> denied.resolve("secret").delete()).isInstanceOf(AccessDeniedException.class);
            assertThat(denied.list()).extracting(DirEntry::name).containsExactly("locked", "secret");
        } finally {
            denied.fileSystem().close();
        }
    }

    // ------------------------------------------------------------------ attributes

    @Test
    void setLastModifiedTimeIsReadBack() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        Instant t = Instant.parse("2001-09-09T01:46:40Z");
        RemotePath f = dir.resolve("f").writeString("x").setLastModifiedTime(t);
        FileStat s = f.stat();
        assertThat(Duration.between(s.lastModified().orElseThrow(), t).abs()).isLessThan(s.lastModifiedPrecision().plusNanos(1));
        FileStat listed = dir.list(ListDetail.FILE_STATS).getFirst().stat();
        if (listed.lastModified().isPresent() || listed.storedAt().isEmpty()) { // S3 lists only storedAt
            assertThat(listed.lastModified()).isEqualTo(s.lastModified());
        }
    }

    /**
     * Whether the server under test can report times past 2038-01-19. A test class returns false
     * only for a server known not to, saying why; the client side must always can.
     */
    protected boolean serverKeepsTimesPast2038() {
        return true;
    }

    /**
     * Times past 2038-01-19 (where a signed 32-bit count of seconds ends; SFTP v3 carries an
     * unsigned one, good to 2106) are read and written like any other, in stats and listings.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"2038-01-19T03:14:08Z", "2040-02-29T12:00:00Z",
            "2105-12-31T23:59:59Z"})
    void timesPast2038RoundTrip(String when) throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        Instant t = Instant.parse(when);
        assumeTrue(serverKeepsTimesPast2038() || t.getEpochSecond() <= Integer.MAX_VALUE,
                "this server cannot answer with times past 2038-01-19 (see the test class)");
        RemotePath f = dir.resolve("future").writeString("x").setLastModifiedTime(t);
        FileStat s = f.stat();
        assertThat(s.lastModified()).as("stat of a file dated " + when).isPresent();
        assertThat(Duration.between(s.lastModified().orElseThrow(), t).abs()).isLessThan(s.lastModifiedPrecision().plusNanos(1));
        FileStat listed = dir.list(ListDetail.FILE_STATS).getFirst().stat();
        if (listed.lastModified().isPresent() || listed.storedAt().isEmpty()) { // S3 lists only storedAt
            assertThat(listed.lastModified()).as("listing of a file dated " + when).isEqualTo(s.lastModified());
        }
        if (dir.fileSystem().capabilities().contains(Capability.MTIME_ON_WRITE)) {
            RemotePath g = dir.resolve("written");
            try (OutputStream out = dir.fileSystem().openWrite(g, dev.remotepath.spi.WriteMode.CREATE_NEW, t)) {
                out.write(bytes("y"));
            }
            assertThat(Duration.between(g.stat().lastModified().orElseThrow(), t).abs())
                    .isLessThan(g.stat().lastModifiedPrecision().plusNanos(1));
        }
    }

    @Test
    void writeWithModificationTimeStoresIt() throws IOException {
        assumeWritable();
        assumeCapability(Capability.MTIME_ON_WRITE);
        Instant t = Instant.parse("2003-02-01T10:20:30.123456789Z");
        RemotePath f = dir.resolve("timed");
        try (OutputStream out = dir.fileSystem().openWrite(f, dev.remotepath.spi.WriteMode.CREATE_NEW, t)) {
            out.write(bytes("content"));
        }
        FileStat s = f.stat();
        assertThat(f.readString()).isEqualTo("content");
        assertThat(Duration.between(s.lastModified().orElseThrow(), t).abs()).isLessThan(s.lastModifiedPrecision().plusNanos(1));
    }

    /**
     * Setting a time on a link never reaches what it points to: a directory swapped for a link
     * while a sync runs must not have an outside directory's time set when the run ends.
     */
    @Test
    void setLastModifiedTimeOnALinkLeavesWhatItPointsToAlone() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        assumeCapability(Capability.SYMBOLIC_LINKS);
        Instant kept = Instant.parse("2004-05-06T07:08:09Z");
        RemotePath outside = dir.resolve("outside");
        outside.createDirectory();
        outside.resolve("f").writeString("x");
        outside.setLastModifiedTime(kept);
        RemotePath link = dir.resolve("swapped");
        link.createSymbolicLink("outside");
        try {
            link.setLastModifiedTime(Instant.parse("2020-01-01T00:00:00Z"));
        } catch (IOException refused) {
            assertThat(refused).hasMessageContaining("swapped"); // a backend that cannot set a link's own time
        }
        FileStat s = outside.stat();
        assertThat(Duration.between(s.lastModified().orElseThrow(), kept).abs())
                .isLessThan(s.lastModifiedPrecision().plusNanos(1));
        assertThat(link.fileSystem().stat(link, false).isSymbolicLink()).as("the link is still a link").isTrue();
    }

    @Test
    void setLastModifiedTimeOfMissingFails() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SET_LAST_MODIFIED_TIME);
        assertThatThrownBy(() -> dir.resolve("nope").setLastModifiedTime(Instant.EPOCH)).isInstanceOf(NoSuchFileException.class);
    }

    /** Whether this backend (this server) is known to report owners and groups: then it must. */
    protected boolean reportsOwners() {
        return false;
    }

    /**
     * An owner and group reported are the file's on disk (as numbers where the protocol has
     * only numbers, SFTP version 3), in a stat, in a listing, and through NIO's POSIX view.
     */
    @Test
    void ownersReportedAreTheFilesOwnersOnDisk() throws Exception {
        assumeWritable();
        RemotePath f = dir.resolve("owned.txt").writeString("x");
        FileStat s = f.stat();
        if (reportsOwners()) {
            assertThat(s.owner()).as("owner").isPresent();
            assertThat(s.group()).as("group").isPresent();
        }
        assumeTrue(s.owner().isPresent(), "the backend reports no owners");
        assertThat(dir.list().stream().filter(e -> e.name().equals("owned.txt")).findFirst().orElseThrow().stat().owner())
                .isEqualTo(s.owner());
        java.util.Optional<java.nio.file.Path> disk = diskDirectoryOf(dir);
        if (disk.isPresent()) {
            java.nio.file.Path onDisk = disk.get().resolve("owned.txt");
            assertThat(s.owner()).hasValue(String.valueOf(java.nio.file.Files.getAttribute(onDisk, "unix:uid")));
            assertThat(s.group()).hasValue(String.valueOf(java.nio.file.Files.getAttribute(onDisk, "unix:gid")));
        }
        java.nio.file.Path nio = dev.remotepath.nio.RemoteNio.of(f);
        if (!nio.getFileSystem().provider().getScheme().equals("file")) {
            assertThat(java.nio.file.Files.getOwner(nio).getName()).isEqualTo(s.owner().get());
            assertThat(java.nio.file.Files.readAttributes(nio, java.nio.file.attribute.PosixFileAttributes.class)
                    .group().getName()).isEqualTo(s.group().get());
        }
    }

    @Test
    void permissionsAreReadBack() throws IOException {
        assumeWritable();
        assumeCapability(Capability.POSIX_PERMISSIONS);
        Set<PosixFilePermission> perms = PosixFilePermissions.fromString("rw-r-----");
        RemotePath f = dir.resolve("f").writeString("x").setPermissions(perms);
        assertThat(f.stat().permissions()).hasValue(perms);
    }

    /**
     * A file a write creates takes the permissions asked of it, less the file system's own mask
     * (the umask of the process or the server that creates it), and so does a copy of a file:
     * never wider than its source, a private file private from its first byte. Asserted as
     * "within the asked bits, the owner's kept", whatever the umask.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rw-------", "rwxr-x---", "r--r-----"})
    void aNewFileAndACopyTakeTheirSourcesPermissionsNeverWider(String bits) throws IOException {
        assumeWritable();
        assumeCapability(Capability.POSIX_PERMISSIONS);
        Set<PosixFilePermission> asked = PosixFilePermissions.fromString(bits);
        RemotePath written = dir.resolve("written");
        try (OutputStream out = dir.fileSystem().openWrite(written, dev.remotepath.spi.WriteMode.CREATE_NEW,
                dev.remotepath.spi.WriteAttributes.NONE.withPermissions(asked))) {
            out.write('x');
        }
        assertWithinAndOwnersKept(written, asked);
        assertThat(written.readString()).isEqualTo("x");

        RemotePath source = dir.resolve("source").writeString("y");
        source.setPermissions(asked);
        RemotePath copy = dir.resolve("copy");
        source.copyTo(copy);
        assertWithinAndOwnersKept(copy, asked);
        assertThat(copy.readString()).isEqualTo("y");
    }

    /**
     * A directory made with permissions takes them less the file system's mask, and a tree's
     * copy makes each directory with its source's group and other bits (the owner's always
     * {@code rwx}, so the copy can be filled and updated): a private directory stays private.
     */
    @ParameterizedTest
    @ValueSource(strings = {"rwx------", "rwxr-x---", "r-xr-x---"})
    void aNewDirectoryAndATreesCopyTakeTheirSourcesPermissionsNeverWider(String bits) throws IOException {
        assumeWritable();
        assumeCapability(Capability.POSIX_PERMISSIONS);
        Set<PosixFilePermission> asked = PosixFilePermissions.fromString(bits);
        Set<PosixFilePermission> owned = new java.util.HashSet<>(asked);
        owned.addAll(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));
        RemotePath made = dir.resolve("made");
        dir.fileSystem().createDirectory(made, owned);
        assertWithinAndOwnersKept(made, owned);

        RemotePath tree = dir.resolve("tree");
        tree.resolve("inner").createDirectories();
        tree.resolve("inner/f").writeString("f");
        tree.resolve("inner").setPermissions(asked);
        tree.copyTo(dir.resolve("copy"));
        assertWithinAndOwnersKept(dir.resolve("copy/inner"), owned);
        assertThat(dir.resolve("copy/inner/f").readString()).isEqualTo("f");
        tree.resolve("inner").setPermissions(owned); // so the fixture can remove it
    }

    private static void assertWithinAndOwnersKept(RemotePath p, Set<PosixFilePermission> asked) throws IOException {
        Set<PosixFilePermission> got = p.stat().permissions().orElseThrow();
        assertThat(asked).as("%s: %s, asked %s", p, PosixFilePermissions.toString(got), PosixFilePermissions.toString(asked))
                .containsAll(got);
        for (PosixFilePermission owner : Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_EXECUTE)) {
            assertThat(got.contains(owner)).as("%s of %s", owner, p).isEqualTo(asked.contains(owner));
        }
    }

    @Test
    void unsupportedOptionalOperationsSaySo() throws IOException {
        assumeWritable();
        assumeTrue(!dir.fileSystem().capabilities().contains(Capability.SYMBOLIC_LINKS), "backend has links");
        assertThatThrownBy(() -> dir.resolve("l").createSymbolicLink("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void linksTheServerRefusesFailClearly() throws IOException {
        assumeWritable();
        assumeTrue(dir.fileSystem().capabilities().contains(Capability.SYMBOLIC_LINKS) && !serverKeepsSymbolicLinks(),
                "only where the backend has links and the server refuses them");
        file("f", "x");
        assertThatThrownBy(() -> dir.resolve("l").createSymbolicLink("f")).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("does not support symbolic links");
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("f");
    }

    // ------------------------------------------------------------------ hostile listings

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "", "a/b", "../../etc", "nul\0byte"})
    void unsafeListedNamesFailTheListing(String hostile) throws IOException {
        file("ok.txt", "fine");
        FaultInjectingFileSystem tampered = new FaultInjectingFileSystem(dir.fileSystem())
                .addToEveryListing(new ListedEntry(hostile, FileStat.ofType(FileType.FILE)));
        RemotePath root = tampered.wrap(dir);
        assertThatThrownBy(root::list).isInstanceOf(UnsafeNameException.class).hasMessageContaining("unsafe name");
        assertThatThrownBy(() -> relativeNames(root, root.walk())).isInstanceOf(UnsafeNameException.class);
    }

    @Test
    void unsafeListedNameStopsRecursiveDeleteBeforeItTouchesAnything() throws IOException {
        assumeWritable();
        RemotePath victim = file("outside/keep.txt", "precious");
        RemotePath doomed = file("doomed/f.txt", "x").parent();
        FaultInjectingFileSystem tampered = new FaultInjectingFileSystem(dir.fileSystem())
                .addToEveryListing(new ListedEntry("..", FileStat.ofType(FileType.DIRECTORY)));
        assertThatThrownBy(() -> tampered.wrap(doomed).deleteRecursively()).isInstanceOf(UnsafeNameException.class);
        assertThat(victim.readString()).isEqualTo("precious");
    }

    // ------------------------------------------------------------------ metadata reuse, counted

    /** Builds D directories holding N files in all; returns {D, N}. */
    private int[] countedTree(RemotePath root) throws IOException {
        int dirs = 1;
        int files = 0;
        for (int d = 0; d < 4; d++) {
            RemotePath sub = root.resolve("d" + d);
            seedDirectory(sub);
            dirs++;
            for (int f = 0; f < 5; f++) {
                seedFile(sub.resolve("f" + f + ".txt"), bytes("file " + d + "/" + f));
                files++;
            }
            RemotePath nested = sub.resolve("nested");
            seedDirectory(nested);
            dirs++;
            seedFile(nested.resolve("n.txt"), bytes("nested " + d));
            files++;
        }
        seedFile(root.resolve("top.txt"), bytes("top"));
        return new int[] {dirs, files + 1};
    }

    @Test
    void walkMakesOneListPerDirectoryAndNoStat() throws IOException {
        int[] dn = countedTree(dir);
        RemotePath root = CountingFileSystem.counting(dir);
        List<String> names = relativeNames(root, root.walk());
        CountingFileSystem c = CountingFileSystem.of(root);
        assertThat(names).hasSize(dn[0] - 1 + dn[1]);
        assertThat(c.count(LIST)).isEqualTo(dn[0]);
        assertThat(c.count(STAT)).isZero();
        assertThat(c.count(OPEN_READ)).isZero();
    }

    @Test
    void walkWithFileStatsStillMakesNoStat() throws IOException {
        countedTree(dir);
        RemotePath root = CountingFileSystem.counting(dir);
        try (Stream<DirEntry> s = root.walk(WalkOptions.defaults().withDetail(ListDetail.FILE_STATS))) {
            assertThat(s.filter(DirEntry::isRegularFile)).allMatch(e -> e.stat().size().isPresent());
        }
        assertThat(CountingFileSystem.of(root).count(STAT)).isZero();
    }

    @Test
    void globPrunesDirectoriesThatCannotMatch() throws IOException {
        countedTree(dir);
        RemotePath root = CountingFileSystem.counting(dir);
        assertThat(relativeNames(root, root.glob("d1/*.txt"))).hasSize(5);
        assertThat(CountingFileSystem.of(root).count(LIST)).isEqualTo(2);
        assertThat(CountingFileSystem.of(root).count(STAT)).isZero();
    }

    @Test
    void deleteRecursivelyMakesOneListPerDirectoryOrOneFlatListingAndOneStat() throws IOException {
        assumeWritable();
        RemotePath t = dir.resolve("t");
        int[] dn = countedTree(t);
        RemotePath root = CountingFileSystem.counting(t);
        root.deleteRecursively();
        CountingFileSystem c = CountingFileSystem.of(root);
        if (root.fileSystem().capabilities().contains(dev.remotepath.spi.Capability.FLAT_LISTING)) {
            // One flat listing of the whole tree instead (FlatIndex).
            assertThat(c.count(CountingFileSystem.Call.LIST_TREE)).isEqualTo(1);
            assertThat(c.count(LIST)).isZero();
        } else {
            assertThat(c.count(LIST)).isEqualTo(dn[0]);
        }
        assertThat(c.count(STAT)).as("only the start is stat'ed, to never follow a link there").isEqualTo(1);
        assertThat(c.count(DELETE_FILES)).isLessThanOrEqualTo(dn[0]);
        // Each file exactly once, one by one or in a batch: a batch path that deleted nothing, or twice, fails here.
        assertThat(c.filesDeleted()).isEqualTo(dn[1]);
        assertThat(t.exists()).isFalse();
    }

    @Test
    void serverSideCopySendsNoContentThroughTheClient() throws IOException {
        assumeWritable();
        assumeCapability(Capability.SERVER_SIDE_COPY);
        RemotePath src = file("src.bin", "copied where it lies");
        Instant t = Instant.parse("2012-12-12T12:12:12Z");
        if (dir.fileSystem().capabilities().contains(Capability.SET_LAST_MODIFIED_TIME)) {
            src.setLastModifiedTime(t);
        }
        RemotePath counted = CountingFileSystem.counting(src);
        CountingFileSystem c = CountingFileSystem.of(counted);
        counted.copyTo(counted.resolveSibling("dst.bin"));
        assertThat(c.count(OPEN_READ)).as("no content read through the client").isZero();
        assertThat(c.count(CountingFileSystem.Call.NATIVE_COPY)).isEqualTo(1);
        RemotePath dst = dir.resolve("dst.bin");
        assertThat(dst.readString()).isEqualTo("copied where it lies");
        if (dir.fileSystem().capabilities().contains(Capability.SET_LAST_MODIFIED_TIME)) {
            FileStat s = dst.stat();
            assertThat(Duration.between(s.lastModified().orElseThrow(), t).abs()).isLessThan(s.lastModifiedPrecision().plusNanos(1));
        }
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("dst.bin", "src.bin");
        // Onto an existing file: refused without REPLACE_EXISTING, replaced with it.
        RemotePath other = file("other.bin", "other");
        assertThatThrownBy(() -> other.copyTo(dst)).isInstanceOf(FileAlreadyExistsException.class);
        other.copyTo(dst, StandardCopyOption.REPLACE_EXISTING);
        assertThat(dst.readString()).isEqualTo("other");
        assertThat(dir.list()).extracting(DirEntry::name).containsExactly("dst.bin", "other.bin", "src.bin");
    }

    @Test
    void treeCopyStatsNothingItListed() throws IOException {
        assumeWritable();
        RemotePath src = dir.resolve("src");
        int[] dn = countedTree(src);
        RemotePath counted = CountingFileSystem.counting(src);
        CountingFileSystem c = CountingFileSystem.of(counted);
        FaultInjectingFileSystem clientSideTarget = new FaultInjectingFileSystem(dir.fileSystem());
        counted.copyTo(clientSideTarget.wrap(dir.resolve("dst")));
        assertThat(c.count(STAT)).as("only the start").isEqualTo(1);
        assertThat(c.count(LIST)).isEqualTo(dn[0]);
        assertThat(c.count(OPEN_READ)).isEqualTo(dn[1]);
        assertThat(dir.resolve("dst/d3/nested/n.txt").readString()).isEqualTo("nested 3");
    }

    @Test
    void treeCopyIntoNewTargetStatsNothingThere() throws IOException {
        assumeWritable();
        assumeCapability(Capability.ATOMIC_RENAME);
        RemotePath src = dir.resolve("src");
        countedTree(src);
        RemotePath target = CountingFileSystem.counting(dir.resolve("dst"));
        src.copyTo(target);
        assertThat(CountingFileSystem.of(target).count(STAT)).isZero();
        assertThat(CountingFileSystem.of(target).count(LIST)).isZero();
    }
}
