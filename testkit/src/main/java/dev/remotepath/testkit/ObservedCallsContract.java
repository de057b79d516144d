package dev.remotepath.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.FileSystemCall;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ObservedFileSystem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ObservedFileSystem} over every backend: each call started once and ended once (finished
 * or failed) with the same call, the bytes of reads and writes and the entries of listings as
 * the backend moved them, and the backend's own errors passed through unchanged.
 */
public interface ObservedCallsContract {

    /** A directory holding the contract's standard tree (a.txt "alpha", b.bin, sub/..., empty/). */
    RemotePath observedTree() throws Exception;

    /** Every event, in order, as "started READ a.txt", "finished READ a.txt 5". */
    final class Recorder implements FileSystemEvents {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final List<FileSystemCall> open = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void started(FileSystemCall call) {
            open.add(call);
            lines.add("started " + call.operation() + " " + call.path().name());
        }

        @Override
        public void finished(FileSystemCall call, long amount, Duration took) {
            assertThat(open.remove(call)).as("finished a call that was started: %s", call).isTrue();
            assertThat(took.isNegative()).isFalse();
            lines.add("finished " + call.operation() + " " + call.path().name() + " " + amount);
        }

        @Override
        public void failed(FileSystemCall call, long amount, IOException error, Duration took) {
            assertThat(open.remove(call)).as("failed a call that was started: %s", call).isTrue();
            lines.add("failed " + call.operation() + " " + call.path().name() + " " + error.getClass().getSimpleName());
        }
    }

    @Test
    default void everyCallIsReportedOnceWithWhatItMovedAndTheBackendsOwnErrors() throws Exception {
        Recorder events = new Recorder();
        RemotePath root = ObservedFileSystem.observe(observedTree(), events);

        assertThat(root.resolve("a.txt").readString()).isEqualTo("alpha");
        assertThat(events.lines).containsSubsequence("started READ a.txt", "finished READ a.txt 5");

        events.lines.clear();
        assertThat(root.list()).hasSize(4); // a.txt, b.bin, empty, sub
        assertThat(events.lines).contains("finished LIST " + root.name() + " 4");

        events.lines.clear();
        assertThatThrownBy(() -> root.resolve("missing.txt").stat()).isInstanceOf(NoSuchFileException.class);
        assertThat(events.lines).containsExactly("started STAT missing.txt", "failed STAT missing.txt NoSuchFileException");

        events.lines.clear();
        try (InputStream in = root.resolve("sub/c.txt").newInputStream()) {
            assertThat(in.readNBytes(4)).isEqualTo("char".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(events.lines).containsExactly("started READ c.txt", "finished READ c.txt 4");

        if (root.fileSystem().capabilities().contains(Capability.WRITE)) {
            events.lines.clear();
            RemotePath written = root.resolve("sub/new.txt").writeString("foxtrot!");
            assertThat(events.lines).contains("finished WRITE new.txt 8").doesNotContain("failed WRITE new.txt");
            assertThat(written.readString()).isEqualTo("foxtrot!");
            written.delete();
            assertThat(events.lines).contains("finished DELETE_FILE new.txt 0");
        }
        assertThat(events.open).as("calls started and never ended").isEmpty();
        assertThat(root.fileSystem()).isInstanceOf(ObservedFileSystem.class);
        assertThat(root.fileSystem().capabilities()).isEqualTo(((ObservedFileSystem) root.fileSystem()).observed().capabilities());
    }
}
