package dev.remotepath.mem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.WriteMode;
import dev.remotepath.testkit.FaultInjectingFileSystem;
import dev.remotepath.testkit.ForwardingFileSystem;
import dev.remotepath.tree.TreeCopier;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Tree copies run several file copies at once, and still fail cleanly. */
class TreeCopierParallelTest {

    private static RemotePath tree(int files, int bigAt) throws IOException {
        RemotePath root = RemotePaths.get("mem://parallel-" + UUID.randomUUID() + "/src").createDirectories();
        for (int i = 0; i < files; i++) {
            RemotePath d = root.resolve("d" + (i % 3)).createDirectories();
            d.resolve("f" + i).write(new byte[i == bigAt ? 50_000 : 100]);
        }
        return root;
    }

    /** A target that takes its time per write and records how many writes overlap. */
    static final class SlowTarget extends ForwardingFileSystem {
        final AtomicInteger open = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();

        SlowTarget(dev.remotepath.spi.RemoteFileSystem delegate) {
            super(delegate);
        }

        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
            return slow(super.openWrite(file, mode));
        }

        /** mem stores the mtime with the write (MTIME_ON_WRITE): the copier calls this one. */
        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode, java.time.Instant lastModified) throws IOException {
            return slow(super.openWrite(file, mode, lastModified));
        }

        /** With the source's permissions too (mem keeps them): the copier calls this one. */
        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode, dev.remotepath.spi.WriteAttributes attributes)
                throws IOException {
            return slow(super.openWrite(file, mode, attributes));
        }

        private OutputStream slow(OutputStream out) {
            int now = open.incrementAndGet();
            mostAtOnce.accumulateAndGet(now, Math::max);
            return new FilterOutputStream(out) {
                @Override
                public void close() throws IOException {
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    open.decrementAndGet();
                    super.close();
                }
            };
        }
    }

    @Test
    void filesOfATreeAreCopiedSeveralAtOnce() throws Exception {
        RemotePath src = tree(24, -1);
        RemotePath dstRoot = RemotePaths.get("mem://parallel-dst-" + UUID.randomUUID() + "/");
        SlowTarget slow = new SlowTarget(dstRoot.fileSystem());
        AtomicLong reported = new AtomicLong();
        TreeCopier.copy(src, slow.wrap(dstRoot.resolve("copy")), reported::addAndGet);
        assertThat(slow.mostAtOnce.get()).isGreaterThan(1).isLessThanOrEqualTo(TreeCopier.TRANSFERS);
        assertThat(dstRoot.resolve("copy").walk().filter(DirEntry::isRegularFile).count()).isEqualTo(24);
        assertThat(reported.get()).isEqualTo(24 * 100);
        assertThat(slow.open.get()).as("nothing still writing after copy returned").isZero();
    }

    @Test
    void aFailedFileFailsTheCopyAfterTheOthersInFlightFinished() throws Exception {
        RemotePath src = tree(30, 7);
        RemotePath dstRoot = RemotePaths.get("mem://parallel-dst-" + UUID.randomUUID() + "/");
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(dstRoot.fileSystem()).failWritesAfter(10_000);
        RemotePath target = faulty.wrap(dstRoot.resolve("copy"));
        assertThatThrownBy(() -> TreeCopier.copy(src, target)).isInstanceOf(IOException.class)
                .hasMessageContaining("injected").hasMessageContaining("f7");
        long settled = dstRoot.resolve("copy").walk().filter(DirEntry::isRegularFile).count();
        Thread.sleep(100);
        assertThat(dstRoot.resolve("copy").walk().filter(DirEntry::isRegularFile).count())
                .as("no copy runs on after copy returned").isEqualTo(settled);
        assertThat(dstRoot.resolve("copy").walk().map(e -> e.name())).noneMatch(n -> n.endsWith(".rptmp"))
                .doesNotContain("f7");
    }
}
