package dev.remotepath.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.WebDavServers;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the contract suite does not ask of a WebDAV backend, on real servers: the mtime property
 * giving way to the server's time when another client rewrote the file, a mirror onto a server
 * that keeps no mtimes (rclone), and Basic and Digest logins (Apache).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebDavBehaviourTest {

    private Path work;

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-dav-behaviour-");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));
    }

    @AfterAll
    void stop() throws Exception {
        LocalTrees.delete(work);
    }

    private Path newRoot() throws Exception {
        return Files.createDirectories(work.resolve("root-" + UUID.randomUUID()));
    }

    @Test
    void theMtimePropertyGivesWayWhenAnotherClientRewritesTheFile() throws Exception {
        Path root = newRoot();
        try (WebDavServers.Running server = WebDavServers.start("apache2", root, work)) {
            WebDavOptions options = WebDavOptions.builder().build();
            RemotePath dir = RemotePaths.get(URI.create(server.base() + "/"), options);
            assertThat(((WebDavFileSystem) dir.fileSystem()).mtimes()).isEqualTo(WebDavOptions.Mtimes.PROPERTY);
            Instant old = Instant.parse("2001-09-09T01:46:40.123456789Z");
            RemotePath f = dir.resolve("f.txt").writeString("ours");
            f.setLastModifiedTime(old);
            assertThat(f.stat().lastModified()).contains(old);
            assertThat(f.stat().lastModifiedPrecision()).isEqualTo(Duration.ofNanos(1));

            // another client rewrites it (same size), some seconds later by the server's clock
            Path onDisk = root.resolve("f.txt");
            Files.writeString(onDisk, "OURS");
            Instant later = Instant.now().plusSeconds(10);
            Files.setLastModifiedTime(onDisk, FileTime.from(later));
            FileStat st = f.stat();
            assertThat(st.lastModified()).as("the server's time, not the stale property")
                    .contains(later.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
            assertThat(st.lastModifiedPrecision()).isEqualTo(Duration.ofSeconds(1));
            dir.fileSystem().close();
        }
    }

    @Test
    void aServerThatKeepsNoMtimesIsMirroredByUploadTimes() throws Exception {
        Path root = newRoot();
        Path src = Files.createDirectories(work.resolve("src-" + UUID.randomUUID()));
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Files.writeString(src.resolve("sub/b.txt"), "bravo");
        Instant past = Instant.now().minusSeconds(3600);
        Files.setLastModifiedTime(src.resolve("a.txt"), FileTime.from(past));
        Files.setLastModifiedTime(src.resolve("sub/b.txt"), FileTime.from(past));
        try (WebDavServers.Running server = WebDavServers.start("rclone", root, work)) {
            RemotePath target = RemotePaths.get(URI.create(server.base() + "/mirror/"), WebDavOptions.defaults());
            assertThat(((WebDavFileSystem) target.fileSystem()).mtimes()).isEqualTo(WebDavOptions.Mtimes.SERVER);
            RemotePath from = RemotePaths.of(src);
            SyncReport first = PathSyncer.builder(from, target).build().run();
            assertThat(first.filesCopied()).isEqualTo(2);
            assertThat(Files.readString(root.resolve("mirror/sub/b.txt"))).isEqualTo("bravo");
            SyncReport again = PathSyncer.builder(from, target).build().run();
            assertThat(again.filesCopied()).as(again.toString()).isZero();
            assertThat(again.bytesCopied()).isZero();

            Files.writeString(src.resolve("a.txt"), "ALPHA"); // changed now: newer than its upload
            Files.setLastModifiedTime(src.resolve("a.txt"), FileTime.from(Instant.now().plusSeconds(5)));
            SyncReport changed = PathSyncer.builder(from, target).build().run();
            assertThat(changed.filesCopied()).isEqualTo(1);
            assertThat(Files.readString(root.resolve("mirror/a.txt"))).isEqualTo("ALPHA");
            target.fileSystem().close();
        }
    }

    @Test
    void basicAndDigestLoginsWorkAndAWrongPasswordIsAccessDenied() throws Exception {
        for (String scheme : new String[] {"Basic", "Digest"}) {
            Path root = newRoot();
            Files.writeString(root.resolve("hello.txt"), "hi");
            try (WebDavServers.Running server = WebDavServers.startWithLogin(root, work, scheme, "alice", "s3cret")) {
                WebDavOptions right = WebDavOptions.builder().password("alice", "s3cret").build();
                RemotePath dir = RemotePaths.get(URI.create(server.base() + "/"), right);
                assertThat(dir.resolve("hello.txt").readString()).as(scheme).isEqualTo("hi");
                dir.resolve("new.txt").writeString("written as alice");
                assertThat(Files.readString(root.resolve("new.txt"))).isEqualTo("written as alice");
                dir.fileSystem().close();

                WebDavOptions wrong = WebDavOptions.builder().password("alice", "guess").build();
                assertThatThrownBy(() -> RemotePaths.get(URI.create(server.base() + "/hello.txt"), wrong).readString())
                        .as(scheme).isInstanceOf(AccessDeniedException.class)
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("guess"));
                assertThatThrownBy(() -> RemotePaths.get(URI.create(server.base() + "/x"), WebDavOptions.builder()
                        .userAgent("anonymous").build()).stat()).as(scheme).isInstanceOf(AccessDeniedException.class);
            }
        }
    }

    @Test
    void credentialsAreRefusedInTheUriAndHiddenInOptions() {
        assertThatThrownBy(() -> RemotePaths.get(URI.create("webdav://alice:pw@127.0.0.1:1/x"), WebDavOptions.defaults()))
                .isInstanceOf(java.nio.file.InvalidPathException.class).satisfies(e -> assertThat(e.getMessage())
                        .doesNotContain("pw"));
        assertThat(WebDavOptions.builder().password("alice", "s3cret").build().toString()).doesNotContain("s3cret");
        assertThat(WebDavOptions.builder().bearerToken("tok3n").build().toString()).doesNotContain("tok3n");
    }
}
