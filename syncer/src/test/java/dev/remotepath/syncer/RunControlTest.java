package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.WriteMode;
import dev.remotepath.testkit.ForwardingFileSystem;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Retries of failures that pass, and the run's bandwidth limit. */
class RunControlTest {

    /** Each path's first write, and each directory's first listing, fail as a dropped connection does. */
    static final class FlakyOnce extends ForwardingFileSystem {
        final Set<String> failed = ConcurrentHashMap.newKeySet();
        private final IOException kind;
        private final boolean listings;

        FlakyOnce(RemoteFileSystem delegate, IOException kind, boolean listings) {
            super(delegate);
            this.kind = kind;
            this.listings = listings;
        }

        /** The file a temporary stands for: {@code dir/.name.hex.rptmp} is {@code dir/name}. */
        private static String finalName(RemotePath file) {
            return file.parent().pathString() + "/" + file.name().replaceAll("^\\.(.*)\\.[0-9a-f]+\\.rptmp$", "$1");
        }

        private void once(String what) throws IOException {
            if (failed.add(what)) {
                throw kind;
            }
        }

        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode, java.time.Instant lastModified) throws IOException {
            once("write " + finalName(file));
            return super.openWrite(file, mode, lastModified);
        }

        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
            once("write " + finalName(file));
            return super.openWrite(file, mode);
        }

        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode, dev.remotepath.spi.WriteAttributes attributes)
                throws IOException {
            once("write " + finalName(file));
            return super.openWrite(file, mode, attributes);
        }

        @Override
        public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
            if (listings) {
                once("list " + directory.pathString());
            }
            return super.list(directory, detail);
        }

        @Override
        public DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
                throws IOException {
            return list(directory, detail);
        }
    }

    private RemotePath mem;

    @BeforeEach
    void tree() throws IOException {
        mem = RemotePaths.get("mem://rc-" + UUID.randomUUID() + "/");
        for (int i = 0; i < 5; i++) {
            mem.resolve("src/d" + i).createDirectories().resolve("f.txt").writeString("file " + i);
        }
    }

    @AfterEach
    void close() throws IOException {
        mem.fileSystem().close();
    }

    @Test
    void transientFailuresOfListingsAndCopiesAreRetriedBeforeTheyAreReported() throws IOException {
        FlakyOnce flaky = new FlakyOnce(mem.fileSystem(), new IOException("connection reset by peer"), true);
        SyncReport r = PathSyncer.builder(flaky.wrap(mem.resolve("src")), mem.resolve("dst")).build().run();
        assertThat(r.errors()).isEmpty();
        assertThat(r.filesCopied()).isEqualTo(5);
        assertThat(flaky.failed).hasSize(6); // the root's and five directories' listings
        assertThat(mem.resolve("dst/d3/f.txt").readString()).isEqualTo("file 3");

        FlakyOnce target = new FlakyOnce(mem.fileSystem(), new IOException("broken pipe"), false);
        SyncReport copies = PathSyncer.builder(mem.resolve("src"), target.wrap(mem.resolve("dst2"))).build().run();
        assertThat(copies.errors()).isEmpty();
        assertThat(copies.filesCopied()).isEqualTo(5);
        assertThat(target.failed).filteredOn(k -> k.startsWith("write")).hasSize(5);
    }

    @Test
    void withoutRetriesOrForAFinalAnswerEachFailureIsReported() throws IOException {
        FlakyOnce target = new FlakyOnce(mem.fileSystem(), new IOException("broken pipe"), false);
        SyncReport none = PathSyncer.builder(mem.resolve("src"), target.wrap(mem.resolve("dst"))).retries(0).build().run();
        assertThat(none.errors()).hasSize(5);
        assertThat(none.filesCopied()).isZero();

        FlakyOnce denied = new FlakyOnce(mem.fileSystem(), new AccessDeniedException("/dst3"), false);
        SyncReport r = PathSyncer.builder(mem.resolve("src"), denied.wrap(mem.resolve("dst3"))).build().run();
        assertThat(r.errors()).hasSize(5); // an answer of the file system: not tried again
        assertThatThrownBy(() -> PathSyncer.builder(mem.resolve("src"), mem.resolve("x")).retries(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBandwidthLimitHoldsAcrossTransfers() throws IOException {
        for (int i = 0; i < 4; i++) {
            mem.resolve("big/b" + i).createDirectories().resolve("x.bin").write(new byte[512 * 1024]);
        }
        long t0 = System.nanoTime();
        // Another file system object over the same store: the bytes stream through, no server-side copy.
        RemotePath target = new ForwardingFileSystem(mem.fileSystem()).wrap(mem.resolve("big-copy"));
        SyncReport r = PathSyncer.builder(mem.resolve("big"), target).bandwidthLimit(4L << 20).build().run();
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.errors()).isEmpty();
        assertThat(r.bytesCopied()).isEqualTo(4L * 512 * 1024);
        // 2 MiB at 4 MiB/s, less the quarter second of burst an idle limit allows: at least 0.25 s.
        assertThat(seconds).isGreaterThanOrEqualTo(0.24);
        assertThatThrownBy(() -> PathSyncer.builder(mem.resolve("big"), mem.resolve("x")).bandwidthLimit(0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
