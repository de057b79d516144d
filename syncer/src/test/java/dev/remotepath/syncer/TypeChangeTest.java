package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target entry whose type changed in the source (a link or file where the source now has a
 * directory, a directory where it has a file) is removed at the end and the source's entry is
 * then brought over by the same rules as any new entry: filters, link policy, times, counts.
 */
class TypeChangeTest {

    @TempDir
    Path temp;

    private static final Instant T0 = Instant.parse("2024-02-29T13:37:42Z");

    private static void write(Path file, String content, int minutes) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(file, FileTime.from(T0.plusSeconds(60L * minutes)));
    }

    @Test
    void aDirectoryReplacingALinkKeepsTheFiltersAndTheLinkPolicy() throws Exception {
        Path outside = temp.resolve("outside");
        write(outside.resolve("secret.txt"), "not to be touched", 0);
        Path src = temp.resolve("src");
        write(src.resolve("d/keep.txt"), "kept", 1);
        write(src.resolve("d/skip.log"), "excluded", 2);
        write(src.resolve("d/cache/big.bin"), "excluded directory", 3);
        write(src.resolve("d/sub/deeper.txt"), "deeper", 4);
        Files.createSymbolicLink(src.resolve("d/up"), outside);
        Path dst = temp.resolve("dst");
        Files.createDirectories(dst);
        Files.createSymbolicLink(dst.resolve("d"), outside); // what the source's d was before

        List<String> copied = Collections.synchronizedList(new ArrayList<>());
        SyncReport r = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true)
                .exclude("*.log", "cache/").listener(new SyncListener() {
                    @Override
                    public void finished(SyncAction action) {
                        if (action.kind() == SyncAction.Kind.COPY_NEW) {
                            copied.add(action.relativePath());
                        }
                    }
                }).build().run();

        assertThat(r.errors()).isEmpty();
        assertThat(Files.isSymbolicLink(dst.resolve("d"))).isFalse();
        assertThat(dst.resolve("d/keep.txt")).hasContent("kept");
        assertThat(dst.resolve("d/sub/deeper.txt")).hasContent("deeper");
        assertThat(Files.getLastModifiedTime(dst.resolve("d/sub/deeper.txt")).toInstant()).isEqualTo(T0.plusSeconds(240));
        assertThat(dst.resolve("d/skip.log")).doesNotExist();
        assertThat(dst.resolve("d/cache")).doesNotExist();
        assertThat(Files.exists(dst.resolve("d/up"), LinkOption.NOFOLLOW_LINKS)).isFalse(); // links are skipped
        assertThat(r.linksSkipped()).isEqualTo(1);
        assertThat(r.filesCopied()).isEqualTo(2);
        assertThat(r.bytesCopied()).isEqualTo("kept".length() + "deeper".length());
        assertThat(r.directoriesCreated()).isEqualTo(2); // d and d/sub
        assertThat(r.filesDeleted()).isEqualTo(1); // the link
        assertThat(copied).containsExactlyInAnyOrder("d/keep.txt", "d/sub/deeper.txt");
        assertThat(outside.resolve("secret.txt")).hasContent("not to be touched");
        try (var left = Files.list(outside)) {
            assertThat(left).hasSize(1);
        }

        SyncReport again = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true)
                .exclude("*.log", "cache/").build().run();
        assertThat(again.filesCopied()).isZero();
        assertThat(again.filesDeleted()).isZero();
    }

    @Test
    void aFileReplacingADirectoryIsCopiedAsAnyFileIs() throws Exception {
        Path src = temp.resolve("src");
        write(src.resolve("x"), "now a file", 5);
        Path dst = temp.resolve("dst");
        write(dst.resolve("x/a.txt"), "a", 0);
        write(dst.resolve("x/b/c.txt"), "c", 0);

        SyncReport r = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true).build().run();

        assertThat(r.errors()).isEmpty();
        assertThat(dst.resolve("x")).isRegularFile().hasContent("now a file");
        assertThat(Files.getLastModifiedTime(dst.resolve("x")).toInstant()).isEqualTo(T0.plusSeconds(300));
        assertThat(r.filesCopied()).isEqualTo(1);
        assertThat(r.bytesCopied()).isEqualTo("now a file".length());
        assertThat(r.filesDeleted()).isEqualTo(2);
        assertThat(r.directoriesDeleted()).isEqualTo(2);
    }

    @Test
    void whatTheReplacementCannotBringOverIsAnErrorOfTheRun() throws Exception {
        Path src = temp.resolve("src");
        write(src.resolve("d/ok.txt"), "ok", 1);
        Process mkfifo = new ProcessBuilder("mkfifo", src.resolve("d/pipe").toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).isZero();
        Path dst = temp.resolve("dst");
        write(dst.resolve("d"), "was a file", 0);

        SyncReport r = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true).build().run();

        assertThat(r.errors()).extracting(SyncError::relativePath).containsExactly("d/pipe");
        assertThat(r.succeeded()).isFalse();
        assertThat(dst.resolve("d/ok.txt")).hasContent("ok");
        assertThat(Files.exists(dst.resolve("d/pipe"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }
}
