package dev.remotepath.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.testkit.RewrittenListings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a directory is cut into shards when its listing is odd. */
class SubtreesTest {

    @TempDir
    Path temp;

    /** Names every directory twice, as a broken or hostile server might. */
    private static RewrittenListings repeatingListing(dev.remotepath.spi.RemoteFileSystem delegate) {
        return new RewrittenListings(delegate, (directory, entries) -> {
            List<ListedEntry> twice = new ArrayList<>();
            for (ListedEntry e : entries) {
                twice.add(e);
                if (e.stat().isDirectory()) {
                    twice.add(e);
                }
            }
            return twice;
        });
    }

    @Test
    void aListingThatRepeatsANameIsRefusedNotCut() throws Exception {
        Path src = temp.resolve("src");
        for (String d : List.of("a", "b", "c")) {
            Files.createDirectories(src.resolve(d));
        }
        Path dst = Files.createDirectories(temp.resolve("dst"));
        PathSyncer probe = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).build();
        assertThat(Subtrees.splittable(probe, "", RemotePaths.of(src), RemotePaths.of(dst), 1)).containsExactly("a", "b", "c");
        RewrittenListings fs = repeatingListing(RemotePaths.of(temp).fileSystem());
        // The api refuses the listing: the driver and the task then leave the directory whole,
        // and its own sync reports the listing; no two shards ever sync one subtree.
        assertThatThrownBy(() -> Subtrees.splittable(probe, "", fs.wrap(RemotePaths.of(src)), RemotePaths.of(dst), 1))
                .isInstanceOf(dev.remotepath.UnsafeNameException.class).hasMessageContaining("listed twice");
    }
}
