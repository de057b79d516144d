package dev.remotepath;

import static dev.remotepath.PureFileSystem.pure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.tree.Listings;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Paths made from listings join their path only when asked and equal paths made any other way;
 * a listing is read without trusting the size its backend claims.
 */
class ListedPathsTest {

    @Test
    void aListedChildEqualsTheSamePathMadeByParsing() {
        RemotePath dir = pure("/data/photos");
        RemotePath child = dir.child("a b.jpg");
        assertThat(child.parent()).isSameAs(dir);
        assertThat(child.name()).isEqualTo("a b.jpg");
        assertThat(child.isAbsolute()).isTrue();
        assertThat(child).isEqualTo(pure("/data/photos/a b.jpg")).hasSameHashCodeAs(pure("/data/photos/a b.jpg"));
        assertThat(child.pathString()).isEqualTo("/data/photos/a b.jpg");
        assertThat(child.child("x").pathString()).isEqualTo("/data/photos/a b.jpg/x");
        assertThat(pure("/").child("top").pathString()).isEqualTo("/top");
        assertThat(pure("/").child("top").parent()).isEqualTo(pure("/"));
        assertThat(child.compareTo(pure("/data/photos/a c.jpg"))).isNegative();
        assertThat(child.relativize(pure("/data/x")).pathString()).isEqualTo("../../x");
        assertThat(child.toString()).isEqualTo("pure://vol/data/photos/a%20b.jpg");
        RemotePath relative = pure("/data").relativize(pure("/data/sub")).child("leaf");
        assertThat(relative.isAbsolute()).isFalse();
        assertThat(relative.pathString()).isEqualTo("sub/leaf");
    }

    /** Joining a deep chain of unjoined children needs no stack: it runs on a 64 KiB one. */
    @Test
    void aDeepChainOfChildrenJoinsWithoutRecursion() throws Exception {
        RemotePath top = pure("/");
        RemotePath deep = top;
        for (int i = 0; i < 5_000; i++) {
            deep = deep.child("d");
        }
        RemotePath chain = deep;
        String[] joined = new String[1];
        Throwable[] failed = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try {
                joined[0] = chain.pathString();
            } catch (Throwable e) {
                failed[0] = e;
            }
        }, "small-stack", 64 * 1024);
        t.start();
        t.join();
        assertThat(failed[0]).isNull();
        assertThat(joined[0]).hasSize(2 * 5_000).startsWith("/d/d/").endsWith("/d");
        assertThat(chain.parent().pathString()).hasSize(2 * 4_999);
    }

    /** A listing claiming more entries than it has (a buggy or hostile backend) costs no more. */
    @Test
    void aListingsClaimedSizeIsNotTrusted() throws Exception {
        List<ListedEntry> three = List.of(entry("c"), entry("a"), entry("b"));
        DirectoryListing lying = new DirectoryListing() {
            private int next;

            @Override
            public int size() {
                return Integer.MAX_VALUE;
            }

            @Override
            public boolean hasNext() {
                return next < three.size();
            }

            @Override
            public ListedEntry next() {
                return three.get(next++);
            }
        };
        List<DirEntry> entries = Listings.drain(lying, pure("/dir"), true);
        assertThat(entries).extracting(DirEntry::name).containsExactly("a", "b", "c");
    }

    @Test
    void unsafeAndTwinNamesStillFailTheListing() {
        assertThatThrownBy(() -> Listings.drain(DirectoryListing.of(List.of(entry("ok"), entry(".."))), pure("/dir"), true))
                .isInstanceOf(UnsafeNameException.class);
        assertThatThrownBy(() -> Listings.drain(DirectoryListing.of(List.of(entry("x"), entry("x"))), pure("/dir"), true))
                .isInstanceOf(UnsafeNameException.class).hasMessageContaining("listed twice");
    }

    private static ListedEntry entry(String name) {
        return new ListedEntry(name, FileStat.ofType(FileType.FILE));
    }
}
