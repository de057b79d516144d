package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemoteCopyOption;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.WalkOptions;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SymlinkPolicy;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Following links over SFTP, where no file keys exist: a loop through an alias
 * ({@code alias -> .}, {@code src/a -> ../alias/src}) reads as a new path lexically and was
 * followed until killed. Loops are now found on what the server says links resolve to
 * (REALPATH), with both clients, by the walk, the tree copy and the syncer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SftpLinkLoopTest {

    private Path work;
    private TestSshServer server;

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-sftp-loop-");
        server = new TestSshServer(work);
        Path root = work.resolve("root");
        Files.createSymbolicLink(root.resolve("alias"), Path.of("."));
        Files.createDirectories(root.resolve("src"));
        Files.writeString(root.resolve("src/f.txt"), "f");
        Files.createSymbolicLink(root.resolve("src/a"), Path.of("../alias/src"));
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
        LocalTrees.delete(work);
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aLoopThroughAnAliasEnds(SftpOptions.Client client) throws Exception {
        RemotePath src = RemotePaths.get(server.uri("src"), server.options(client));
        try {
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                RemotePath mem = RemotePaths.get("mem://loop-" + UUID.randomUUID() + "/");
                try {
                    SyncReport r = PathSyncer.builder(src, mem.resolve("mirror")).symlinks(SymlinkPolicy.FOLLOW).build().run();
                    assertThat(r.errors()).singleElement().satisfies(e -> {
                        assertThat(e.relativePath()).isEqualTo("a");
                        assertThat(e.message()).contains("loop");
                    });
                    assertThat(mem.resolve("mirror/f.txt").readString()).isEqualTo("f");

                    assertThatThrownBy(() -> src.copyTo(mem.resolve("copy"), RemoteCopyOption.FOLLOW_LINKS))
                            .isInstanceOf(FileSystemLoopException.class);

                    java.util.List<RemotePath> loops = new java.util.ArrayList<>();
                    try (var walk = src.walk(WalkOptions.defaults().withFollowLinks(true)
                            .withErrorHandler((dir, e) -> loops.add(dir)))) {
                        assertThat(walk.count()).isEqualTo(2); // f.txt and the link a, not entered
                    }
                    assertThat(loops).extracting(RemotePath::name).containsExactly("a");
                } finally {
                    mem.fileSystem().close();
                }
            });
        } finally {
            src.fileSystem().close();
        }
    }
}
