package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a sharded mirror (SparkSync) needs of one subtree's run: anchored filters keep their
 * meaning below a {@code filterPrefix}, the filters' decisions can be asked without a run,
 * and every deletion the run defers is told to its listener before any is made.
 */
class SubtreeSyncTest {

    @TempDir
    Path temp;

    private static void write(Path file, String content) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    @Test
    void anchoredGlobsMatchFromTheTreeTheyWereWrittenFor() throws Exception {
        Path src = temp.resolve("src");
        write(src.resolve("docs/api/keep.txt"), "k");
        write(src.resolve("docs/api/skip.log"), "s");
        write(src.resolve("docs/api/tmp/x.txt"), "x");
        Path dst = temp.resolve("dst");
        // Run on docs/api alone, with globs written for the whole tree.
        SyncReport r = PathSyncer.builder(RemotePaths.of(src.resolve("docs/api")), RemotePaths.of(dst))
                .exclude("/docs/api/tmp/", "/*.log", "/docs/api/*.log").filterPrefix("docs/api").build().run();
        assertThat(r.succeeded()).isTrue();
        assertThat(dst.resolve("keep.txt")).exists();
        assertThat(dst.resolve("skip.log")).doesNotExist();
        assertThat(dst.resolve("tmp")).doesNotExist();
        assertThat(r.filesCopied()).isEqualTo(1);

        // Without the prefix the same globs match nothing below the subtree's roots.
        Path plain = temp.resolve("plain");
        PathSyncer.builder(RemotePaths.of(src.resolve("docs/api")), RemotePaths.of(plain))
                .exclude("/docs/api/tmp/", "/docs/api/*.log").build().run();
        assertThat(plain.resolve("skip.log")).exists();
    }

    @Test
    void ignoresAnswersAsTheRunDecides() throws Exception {
        RemotePath a = RemotePaths.of(temp.resolve("a"));
        RemotePath b = RemotePaths.of(temp.resolve("b"));
        PathSyncer s = PathSyncer.builder(a, b).exclude("cache/").include("/docs/**").build();
        assertThat(s.ignores("docs", true)).isFalse();
        assertThat(s.ignores("docs/cache", true)).isTrue();
        assertThat(s.ignores("src", true)).isTrue();
        assertThat(s.ignores("docs/a.txt", false)).isFalse();
        assertThat(PathSyncer.builder(a, b).build().ignores("anything", true)).isFalse();
        PathSyncer prefixed = PathSyncer.builder(a, b).include("/docs/**").filterPrefix("docs").build();
        assertThat(prefixed.ignores("a.txt", false)).isFalse();
        assertThatThrownBy(() -> PathSyncer.builder(a, b).filterPrefix("docs/../x"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void deferredDeletionsAreToldBeforeAnyIsMade() throws Exception {
        Path src = temp.resolve("s");
        write(src.resolve("a.txt"), "a");
        write(src.resolve("d/file"), "f");
        Path dst = temp.resolve("t");
        write(dst.resolve("old.txt"), "o");
        write(dst.resolve("gone/x"), "x");
        write(dst.resolve("d"), "was a file");
        List<String> told = Collections.synchronizedList(new ArrayList<>());
        SyncReport r = PathSyncer.builder(RemotePaths.of(src), RemotePaths.of(dst)).deleteExtraneous(true).maxDelete(0)
                .listener(new SyncListener() {
                    @Override
                    public void deletionDeferred(SyncAction action) {
                        told.add(action.kind() + " " + action.relativePath());
                    }
                }).build().run();
        assertThat(told).containsExactlyInAnyOrder("DELETE_FILE old.txt", "DELETE_DIRECTORY gone", "REPLACE_TYPE d");
        // maxDelete 0: told, and nothing deleted
        assertThat(r.refusedForSafety()).isTrue();
        assertThat(dst.resolve("old.txt")).exists();
        assertThat(dst.resolve("gone/x")).exists();
    }
}
