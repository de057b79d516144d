package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Between in-process file systems a small file is copied by the walker that found it, in a
 * transfer slot all the same; a large one, or any file to or from a remote backend, goes to a
 * transfer thread.
 */
class InProcessCopyTest {

    private RemotePath source;
    private RemotePath target;

    @BeforeEach
    void trees() throws IOException {
        source = RemotePaths.get("mem://inline-src-" + UUID.randomUUID() + "/tree").createDirectories();
        target = RemotePaths.get("mem://inline-dst-" + UUID.randomUUID() + "/tree");
        for (int d = 0; d < 4; d++) {
            RemotePath dir = source.resolve("d" + d).createDirectory();
            for (int f = 0; f < 25; f++) {
                dir.resolve("small" + f).write(new byte[100 + f]);
            }
            dir.resolve("large").write(new byte[(int) FileSync.INLINE_COPY_MAX + 1]);
        }
    }

    @AfterEach
    void close() throws IOException {
        source.fileSystem().close();
        target.fileSystem().close();
    }

    /** Records, per file, whether it was copied on the thread that scheduled it, and how many copies ran at once. */
    static final class Threads implements SyncListener {
        final Map<String, Thread> scheduledOn = new ConcurrentHashMap<>();
        final Map<String, Boolean> sameThread = new ConcurrentHashMap<>();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();

        @Override
        public void scheduled(SyncAction action) {
            scheduledOn.put(action.relativePath(), Thread.currentThread());
        }

        @Override
        public void started(SyncAction action) {
            if (action.kind() == SyncAction.Kind.COPY_NEW) {
                sameThread.put(action.relativePath(), scheduledOn.get(action.relativePath()) == Thread.currentThread());
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(2); // long enough for copies in parallel to overlap
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void finished(SyncAction action) {
            if (action.kind() == SyncAction.Kind.COPY_NEW) {
                running.decrementAndGet();
            }
        }
    }

    @Test
    void smallFilesAreCopiedByTheWalkerLargeOnesByATransferThread() throws IOException {
        Threads threads = new Threads();
        SyncReport report = PathSyncer.builder(source, target).listener(threads).build().run();
        assertThat(report.filesCopied()).isEqualTo(104);
        assertThat(threads.sameThread).hasSize(104);
        threads.sameThread.forEach((path, same) -> assertThat(same)
                .as("%s copied on the thread that found it", path).isEqualTo(!path.endsWith("large")));
        assertThat(target.resolve("d3/small24").readAllBytes()).hasSize(124);
        assertThat(target.resolve("d3/large").stat().size()).hasValue(FileSync.INLINE_COPY_MAX + 1);
    }

    @Test
    void copiesOnTheWalkersStillTakeATransferSlot() throws IOException {
        Threads threads = new Threads();
        SyncReport report = PathSyncer.builder(source, target).transfers(1).listener(threads).build().run();
        assertThat(report.filesCopied()).isEqualTo(104);
        assertThat(threads.mostAtOnce.get()).as("copies at once with one transfer slot").isEqualTo(1);
    }
}
