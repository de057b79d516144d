package dev.remotepath.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.testkit.ForwardingFileSystem;
import java.io.IOException;
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
    private static final class RepeatingListing extends ForwardingFileSystem {
        RepeatingListing(dev.remotepath.spi.RemoteFileSystem delegate) {
            super(delegate);
        }

        @Override
        public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
            List<ListedEntry> entries = new ArrayList<>();
            try (DirectoryListing l = super.list(directory, detail)) {
                while (l.hasNext()) {
                    ListedEntry e = l.next();
                    entries.add(e);
                    if (e.stat().isDirectory()) {
                        entries.add(e);
                    }
                }
            }
            return DirectoryListing.of(entries);
        }
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
        RepeatingListing fs = new RepeatingListing(RemotePaths.of(temp).fileSystem());
        // The api refuses the listing: the driver and the task then leave the directory whole,
        // and its own sync reports the listing; no two shards ever sync one subtree.
        assertThatThrownBy(() -> Subtrees.splittable(probe, "", fs.wrap(RemotePaths.of(src)), RemotePaths.of(dst), 1))
                .isInstanceOf(dev.remotepath.UnsafeNameException.class).hasMessageContaining("listed twice");
    }
}
