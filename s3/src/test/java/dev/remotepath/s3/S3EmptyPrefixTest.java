package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Prefixes that hold nothing, on a store that keeps directories (s3proxy's file system
 * provider: an empty directory lists as a prefix of its parent, its own listing is empty, and
 * {@code HEAD dir/} answers 200). They are empty directories: listing, stat, sync and rm -r all
 * complete, and a sync killed after it made its directories finishes on the rerun.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3EmptyPrefixTest {

    private TestS3Server server;
    private S3Client raw;
    private S3Options options;

    @BeforeAll
    void start() throws Exception {
        server = TestS3Server.onDisk();
        server.createBucket("prefixes");
        raw = server.rawClient();
        options = server.options();
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(URI.create("s3://prefixes/"), options).fileSystem().close();
        raw.close();
        server.close();
    }

    private void marker(String key) {
        raw.putObject(p -> p.bucket("prefixes").key(key), RequestBody.empty());
    }

    private RemotePath path(String rel) throws Exception {
        return RemotePaths.get(URI.create("s3://prefixes/" + rel), options);
    }

    @Test
    void anEmptyPrefixIsAnEmptyDirectory() throws Exception {
        marker("lone/");
        assertThat(raw.listObjectsV2(l -> l.bucket("prefixes").prefix("lone/").delimiter("/")).keyCount()).isZero();
        assertThat(path("lone").list()).isEmpty();
        assertThat(path("lone").isDirectory()).isTrue();
        assertThat(path("").list()).extracting(e -> e.path().name()).contains("lone");
        path("lone").delete();
        assertThat(path("lone").exists()).isFalse();
    }

    @Test
    void aSyncKilledAfterMakingItsDirectoriesFinishesOnTheRerun(@TempDir Path local) throws Exception {
        Files.createDirectories(local.resolve("a/b/c"));
        Files.writeString(local.resolve("a/b/c/f.txt"), "deep");
        Files.writeString(local.resolve("a/g.txt"), "shallow");
        Files.createDirectories(local.resolve("empty"));
        // What the killed run left: the directories, no file.
        for (String m : new String[] {"mirror/", "mirror/a/", "mirror/a/b/", "mirror/a/b/c/", "mirror/empty/"}) {
            marker(m);
        }
        RemotePath source = RemotePaths.of(local);
        SyncReport first = PathSyncer.builder(source, path("mirror")).deleteExtraneous(true).build().run();
        assertThat(first.errors()).isEmpty();
        assertThat(first.succeeded()).isTrue();
        assertThat(first.filesCopied()).isEqualTo(2);
        assertThat(path("mirror/a/b/c/f.txt").readString()).isEqualTo("deep");
        SyncReport again = PathSyncer.builder(source, path("mirror")).deleteExtraneous(true).build().run();
        assertThat(again.succeeded()).isTrue();
        assertThat(again.filesCopied()).isZero();
        assertThat(again.filesDeleted()).isZero();
    }

    @Test
    void removingATreeWithEmptyDirectoriesRemovesAllOfIt() throws Exception {
        marker("doomed/");
        marker("doomed/empty/");
        marker("doomed/sub/");
        marker("doomed/sub/deeper/");
        raw.putObject(p -> p.bucket("prefixes").key("doomed/sub/f.txt"), RequestBody.fromString("x"));
        path("doomed").deleteRecursively();
        assertThat(path("doomed").exists()).isFalse();
        assertThat(raw.listObjectsV2(l -> l.bucket("prefixes").prefix("doomed")).contents()).isEmpty();
    }

    /**
     * The root of a disk or a server is never removed whole (TreeRemover, as rm -r /); a
     * bucket's root may be emptied, as {@code aws s3 rm --recursive} does.
     */
    @Test
    void aBucketsRootMayBeEmptied() throws Exception {
        server.createBucket("emptied");
        RemotePath root = RemotePaths.get(URI.create("s3://emptied/"), options);
        root.resolve("a.txt").writeString("a");
        root.resolve("d/b.txt").writeString("b");
        root.deleteRecursively();
        org.assertj.core.api.Assertions.assertThat(raw.listObjectsV2(l -> l.bucket("emptied")).contents()).isEmpty();
    }
}
