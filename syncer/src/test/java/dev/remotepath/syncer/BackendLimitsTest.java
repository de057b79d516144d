package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.BackendLimits;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.WriteMode;
import dev.remotepath.testkit.ForwardingFileSystem;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BackendLimits}: transfers and listings bounded per file system across every run of the
 * JVM at once, not per run; two limited file systems copying into each other do not deadlock.
 */
class BackendLimitsTest {

    /** Counts the writes and listings in flight at once (each held a little, so runs overlap). */
    static final class Watched extends ForwardingFileSystem {
        final AtomicInteger writing = new AtomicInteger();
        final AtomicInteger mostWriting = new AtomicInteger();
        final AtomicInteger listing = new AtomicInteger();
        final AtomicInteger mostListing = new AtomicInteger();

        Watched(RemoteFileSystem delegate) {
            super(delegate);
        }

        private static void enter(AtomicInteger now, AtomicInteger most) {
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
        }

        private static void pause() throws IOException {
            try {
                Thread.sleep(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException();
            }
        }

        private OutputStream watched(OutputStream out) throws IOException {
            enter(writing, mostWriting);
            pause();
            return new FilterOutputStream(out) {
                private boolean closed;

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    if (!closed) {
                        closed = true;
                        writing.decrementAndGet();
                    }
                    super.close();
                }
            };
        }

        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
            return watched(super.openWrite(file, mode));
        }

        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
            return watched(super.openWrite(file, mode, lastModified));
        }

        @Override
        public OutputStream openWrite(RemotePath file, WriteMode mode, dev.remotepath.spi.WriteAttributes attributes)
                throws IOException {
            return watched(super.openWrite(file, mode, attributes));
        }

        @Override
        public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
            enter(listing, mostListing);
            try {
                pause();
                return super.list(directory, detail);
            } finally {
                listing.decrementAndGet();
            }
        }

        @Override
        public DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
                throws IOException {
            return list(directory, detail);
        }
    }

    private RemotePath mem;
    private final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();

    @BeforeEach
    void trees() throws IOException {
        mem = RemotePaths.get("mem://limits-" + UUID.randomUUID() + "/");
        for (String tree : List.of("a", "b", "c")) {
            for (int d = 0; d < 6; d++) {
                RemotePath dir = mem.resolve(tree + "/d" + d).createDirectories();
                for (int f = 0; f < 6; f++) {
                    dir.resolve("f" + f + ".txt").writeString(tree + d + f);
                }
            }
        }
    }

    @AfterEach
    void close() throws IOException {
        pool.shutdownNow();
        mem.fileSystem().close();
    }

    /** Three runs at once from three trees into one watched file system, 8 transfers each. */
    private Watched threeRunsInto(boolean limited) throws Exception {
        Watched target = new Watched(mem.fileSystem());
        if (limited) {
            BackendLimits.limitTransfers(target, 3);
        }
        List<Callable<SyncReport>> runs = new ArrayList<>();
        for (String tree : List.of("a", "b", "c")) {
            runs.add(() -> PathSyncer.builder(mem.resolve(tree), target.wrap(mem.resolve("out-" + limited + "/" + tree)))
                    .transfers(8).build().run());
        }
        for (Future<SyncReport> r : pool.invokeAll(runs, 60, TimeUnit.SECONDS)) {
            assertThat(r.get().errors()).isEmpty();
            assertThat(r.get().filesCopied()).isEqualTo(36);
        }
        assertThat(mem.resolve("out-" + limited + "/b/d4/f5.txt").readString()).isEqualTo("b45");
        return target;
    }

    @Test
    void aTransferLimitHoldsAcrossRunsOfOneFileSystem() throws Exception {
        Watched unlimited = threeRunsInto(false);
        assertThat(unlimited.mostWriting.get()).as("without a limit, three runs of 8 overlap").isGreaterThan(3);

        Watched limited = threeRunsInto(true);
        assertThat(limited.mostWriting.get()).isBetween(2, 3);
        assertThat(BackendLimits.transfers(limited)).hasValue(3);
        assertThat(BackendLimits.transfers(unlimited)).isEmpty();
    }

    @Test
    void aListingLimitHoldsAcrossRunsAndTheRunsOwnCheckersBoundEachRun() throws Exception {
        Watched source = new Watched(mem.fileSystem());
        BackendLimits.limitListings(source, 2);
        List<Callable<SyncReport>> runs = new ArrayList<>();
        for (String tree : List.of("a", "b", "c")) {
            runs.add(() -> PathSyncer.builder(source.wrap(mem.resolve(tree)), mem.resolve("out/" + tree)).checkers(8)
                    .build().run());
        }
        for (Future<SyncReport> r : pool.invokeAll(runs, 60, TimeUnit.SECONDS)) {
            assertThat(r.get().errors()).isEmpty();
            assertThat(r.get().filesCopied()).isEqualTo(36);
        }
        assertThat(source.mostListing.get()).isBetween(1, 2);

        Watched one = new Watched(mem.fileSystem());
        SyncReport r = PathSyncer.builder(one.wrap(mem.resolve("a")), mem.resolve("out1")).checkers(1).build().run();
        assertThat(r.filesCopied()).isEqualTo(36);
        assertThat(one.mostListing.get()).isEqualTo(1);
        assertThatThrownBy(() -> PathSyncer.builder(mem.resolve("a"), mem.resolve("x")).checkers(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("checkers");
    }

    @Test
    void copiesBetweenTwoLimitedFileSystemsInBothDirectionsAtOnceDoNotDeadlock() throws Exception {
        Watched left = new Watched(mem.fileSystem());
        Watched right = new Watched(mem.fileSystem());
        BackendLimits.limitTransfers(left, 1);
        BackendLimits.limitTransfers(right, 1);
        List<Callable<SyncReport>> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String n = "" + i;
            runs.add(() -> PathSyncer.builder(left.wrap(mem.resolve("a")), right.wrap(mem.resolve("ab" + n)))
                    .transfers(4).build().run());
            runs.add(() -> PathSyncer.builder(right.wrap(mem.resolve("b")), left.wrap(mem.resolve("ba" + n)))
                    .transfers(4).build().run());
        }
        long t0 = System.nanoTime();
        List<Future<SyncReport>> done = pool.invokeAll(runs, 60, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(60));
        for (Future<SyncReport> r : done) {
            assertThat(r.isCancelled()).as("a run that never finished: deadlock").isFalse();
            assertThat(r.get().errors()).isEmpty();
            assertThat(r.get().filesCopied()).isEqualTo(36);
        }
        // One place each: every copy held both (one reads left and writes right, or the other way).
        assertThat(left.mostWriting.get()).isEqualTo(1);
        assertThat(right.mostWriting.get()).isEqualTo(1);
    }

    @Test
    void aLimitBelowOneIsRefused() throws IOException {
        assertThatThrownBy(() -> BackendLimits.limitTransfers(mem.fileSystem(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> BackendLimits.limitListings(mem.fileSystem(), -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(BackendLimits.listings(mem.fileSystem())).isEmpty();
    }
}
