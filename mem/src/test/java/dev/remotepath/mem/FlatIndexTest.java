package dev.remotepath.mem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.testkit.ForwardingFileSystem;
import dev.remotepath.tree.FlatIndex;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link FlatIndex} fed by a scripted flat listing, as a hostile or odd server could send it:
 * every name of every path is checked as a directory's own listing checks it, and a bad name
 * fails only the directory that holds it.
 */
class FlatIndexTest {

    /** A file system whose flat listing is whatever the test says. */
    private static RemotePath scripted(List<ListedEntry> entries) throws Exception {
        RemotePath real = RemotePaths.get("mem://flat-" + UUID.randomUUID() + "/").createDirectories();
        ForwardingFileSystem fs = new ForwardingFileSystem(real.fileSystem()) {
            @Override
            public Set<Capability> capabilities() {
                Set<Capability> c = EnumSet.copyOf(super.capabilities());
                c.add(Capability.FLAT_LISTING);
                return c;
            }

            @Override
            public DirectoryListing listTree(RemotePath directory, ListDetail detail) {
                return DirectoryListing.of(entries);
            }
        };
        return fs.wrap(real);
    }

    private static ListedEntry file(String path, long size) {
        return new ListedEntry(path, FileStat.builder(FileType.FILE).size(size).build());
    }

    private static List<String> names(List<DirEntry> entries) {
        List<String> out = new ArrayList<>();
        entries.forEach(e -> out.add(e.name() + (e.isDirectory() ? "/" : "")));
        return out;
    }

    @Test
    void directoriesAreImpliedByWhatIsBelowThemAndServedSortedOnce() throws Exception {
        RemotePath root = scripted(List.of(file("z.txt", 1), file("a/b/c.txt", 3), file("a/a.txt", 2),
                new ListedEntry("empty", FileStat.ofType(FileType.DIRECTORY)), file("a/b/d.txt", 4),
                new ListedEntry("a/b", FileStat.ofType(FileType.DIRECTORY))));
        FlatIndex index = FlatIndex.read(root, ListDetail.FILE_STATS, 100).orElseThrow();
        assertThat(names(index.take(root).orElseThrow())).containsExactly("a/", "empty/", "z.txt");
        assertThat(names(index.take(root.resolve("a")).orElseThrow())).containsExactly("a.txt", "b/");
        assertThat(names(index.take(root.resolve("a/b")).orElseThrow())).containsExactly("c.txt", "d.txt");
        assertThat(index.take(root.resolve("empty")).orElseThrow()).isEmpty();
        assertThat(index.take(root.resolve("a"))).isEmpty();
        assertThat(index.directoriesHeld()).isZero();
        assertThat(FlatIndex.read(root, ListDetail.FILE_STATS, 5)).as("6 entries over a budget of 5").isEmpty();
    }

    @Test
    void aBadNameFailsOnlyTheDirectoryHoldingIt() throws Exception {
        RemotePath root = scripted(List.of(file("ok.txt", 1), file("a/../escape.txt", 1), file("c//d.txt", 1),
                file("dup", 1), file("dup/inner.txt", 1), file("n/x\u0000y", 1), file("fine/f.txt", 1)));
        FlatIndex index = FlatIndex.read(root, ListDetail.FILE_STATS, 100).orElseThrow();
        // The root lists "dup" twice (a file and a directory): ambiguous, so the root fails, as its own listing would.
        assertThatThrownBy(() -> index.take(root)).isInstanceOf(UnsafeNameException.class).hasMessageContaining("dup");
        assertThatThrownBy(() -> index.take(root.resolve("a"))).isInstanceOf(UnsafeNameException.class);
        assertThatThrownBy(() -> index.take(root.resolve("c"))).isInstanceOf(UnsafeNameException.class);
        assertThatThrownBy(() -> index.take(root.resolve("n"))).isInstanceOf(UnsafeNameException.class);
        assertThat(names(index.take(root.resolve("fine")).orElseThrow())).containsExactly("f.txt");
        assertThat(names(index.take(root.resolve("dup")).orElseThrow())).containsExactly("inner.txt");
    }

    @Test
    void anEmptyNameInTheRootFailsTheRoot() throws Exception {
        RemotePath root = scripted(List.of(file("/lead.txt", 1), file("ok.txt", 1)));
        FlatIndex index = FlatIndex.read(root, ListDetail.FILE_STATS, 100).orElseThrow();
        assertThatThrownBy(() -> index.take(root)).isInstanceOf(UnsafeNameException.class);
    }
}
