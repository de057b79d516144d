package dev.remotepath.bench;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.FaultInjectingFileSystem;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.ObjectName;

/**
 * One measurement of the {@code scale} suite (issue #19), run in a JVM of its own by
 * {@code benchmarks/scale/suite.sh}: a no-op sync of a large tree, timed, then the same no-op
 * again (up to three times, until there are ten readings), untimed, with a class histogram (a
 * full collection, then a count of the bytes of every object that survived it) every
 * {@value #SAMPLE_MILLIS} ms, or as long as the last one took if longer: the live set then. The peak of those readings less what
 * was live before the run (such as a mem tree) is the run's own memory. Young collections'
 * after-readings are not used: what was in flight at a young collection is promoted and stays
 * as floating garbage until a full one, which made a large old generation (a mem tree) read as
 * the run's own.
 *
 * <pre>
 *   ScaleProbe make DIR DIRS FILES_PER_DIR        DIRS x FILES_PER_DIR empty files, 100 directories per parent
 *   ScaleProbe noop local-local SRC DST           DST a mirror of SRC (made first, untimed)
 *   ScaleProbe noop local-mem SRC [BALLAST]       into a mem copy (made first, untimed), with a mem
 *                                                 copy of BALLAST beside it in the heap if given
 *   ScaleProbe noop mem-latency SRC MS            a mem copy of SRC whose listings take MS ms, into mem
 * </pre>
 * Prints one line: {@code files=N ms=T peakLiveMB=P baseMB=B ownMB=O nsPerFile=X readings=R}: the
 * timed run, then the live-set run's peak, what was live before it, the peak beyond that, and how
 * many histograms it took (a failed one ends the program: a peak without readings would be the
 * base).
 */
public final class ScaleProbe {

    /** How often the live-set run collects, at most: tens of readings at 10^5 files. */
    private static final long SAMPLE_MILLIS = 20;

    private ScaleProbe() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "make" -> make(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            case "noop" -> noop(args);
            default -> throw new IllegalArgumentException("make or noop, not " + args[0]);
        }
    }

    /**
     * {@code dirs} directories of {@code perDir} files, grouped 100 to a parent directory, so
     * that the largest directory holds 100 entries whatever the total (a run's memory is bounded
     * by its largest directory: a tree whose root grew with the total would measure that). The
     * files are empty: a no-op compares sizes and times, not content, so a mem copy holds no
     * content and the heap beside the run is the tree's entries alone.
     */
    private static void make(Path root, int dirs, int perDir) throws IOException {
        FileTime t = FileTime.from(Instant.parse("2024-06-01T00:00:00Z"));
        byte[] content = new byte[0];
        for (int d = 0; d < dirs; d++) {
            Path dir = Files.createDirectories(root.resolve(String.format(Locale.ROOT, "g%03d/d%03d", d / 100, d % 100)));
            for (int f = 0; f < perDir; f++) {
                Path file = Files.write(dir.resolve(String.format(Locale.ROOT, "f%04d.txt", f)), content);
                Files.setLastModifiedTime(file, t);
            }
        }
    }

    private static void noop(String[] args) throws Exception {
        String mode = args[1];
        RemotePath src;
        RemotePath dst;
        RemotePath local = RemotePaths.of(Path.of(args[2]));
        switch (mode) {
            case "local-local" -> {
                src = local;
                dst = RemotePaths.of(Path.of(args[3]));
            }
            case "local-mem" -> {
                src = local;
                dst = RemotePaths.get("mem://scale-" + UUID.randomUUID() + "/dst");
                if (args.length > 3) { // a control: a larger tree in the same heap, not synced
                    SyncReport ballast = PathSyncer.builder(RemotePaths.of(Path.of(args[3])), dst.resolveSibling("ballast"))
                            .build().run();
                    if (!ballast.succeeded()) {
                        throw new IllegalStateException("the ballast copy failed: " + ballast.errors());
                    }
                }
            }
            case "mem-latency" -> {
                RemotePath mem = RemotePaths.get("mem://scale-" + UUID.randomUUID() + "/");
                PathSyncer.builder(local, mem.resolve("src")).build().run();
                src = new FaultInjectingFileSystem(mem.fileSystem())
                        .listingLatency(Duration.ofNanos((long) (Double.parseDouble(args[3]) * 1_000_000)))
                        .wrap(mem.resolve("src"));
                dst = mem.resolve("dst");
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        SyncReport first = PathSyncer.builder(src, dst).build().run(); // untimed: makes the mirror
        if (!first.succeeded()) {
            throw new IllegalStateException("the first sync failed: " + first.errors());
        }
        // A full collection, a warm-up no-op, then the timed one: the figure is the steady cost
        // per file. The collection comes before the warm-up because a heap that grows after it
        // faults in its new pages during the next run: with the collection just before the timed
        // run, the 10^6 mem->mem no-op took 3.5 s instead of 1.6 s, all of it the kernel's
        // (the suite also starts the JVM with a fixed, pre-touched heap).
        System.gc();
        PathSyncer.builder(src, dst).build().run();
        long t0 = System.nanoTime();
        SyncReport r = PathSyncer.builder(src, dst).build().run();
        long nanos = System.nanoTime() - t0;
        if (!r.succeeded() || r.filesCopied() != 0) {
            throw new IllegalStateException("the no-op did work or failed: " + r);
        }
        // The live set: the same no-op again, untimed, with full collections beside it.
        long base = liveBytes();
        AtomicLong peak = new AtomicLong(base);
        AtomicLong readings = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Thread sampler = Thread.ofPlatform().daemon().name("live-set").start(() -> {
            while (running.get()) {
                long g0 = System.nanoTime();
                // a full collection, then a count of what survived it
                try {
                    peak.accumulateAndGet(liveBytes(), Math::max);
                } catch (RuntimeException e) {
                    failure.set(e);
                    return;
                }
                readings.incrementAndGet();
                // A histogram of a large heap (a mem tree of 10^6 files) takes seconds: the run
                // gets at least as long between them, or it would barely move.
                long pause = Math.max(SAMPLE_MILLIS, (System.nanoTime() - g0) / 1_000_000);
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        // Runs again until there are ten readings (a histogram of the 10^5 tree takes about as
        // long as its no-op), at most three runs.
        for (int run = 0; run < 3 && (run == 0 || readings.get() < 10); run++) {
            SyncReport measured = PathSyncer.builder(src, dst).build().run();
            if (!measured.succeeded() || measured.filesCopied() != 0) {
                throw new IllegalStateException("the measured no-op did work or failed: " + measured);
            }
        }
        running.set(false);
        sampler.join();
        if (failure.get() != null) {
            throw new IllegalStateException("a live-set reading failed", failure.get());
        }
        long files = r.filesSkipped();
        System.out.printf(Locale.ROOT,
                "files=%d ms=%.1f peakLiveMB=%.1f baseMB=%.1f ownMB=%.2f nsPerFile=%.0f readings=%d%n", files,
                nanos / 1e6, peak.get() / 1048576.0, base / 1048576.0, Math.max(0, peak.get() - base) / 1048576.0,
                nanos / (double) files, readings.get());
    }

    /**
     * The bytes of every object alive now, as a class histogram counts them after its own full
     * collection. Not the heap in use after {@code System.gc()}: beside a mem tree of 1.5 GB that
     * reading moved by tens of megabytes from one collection to the next, more than the run's
     * own objects weigh.
     */
    private static long liveBytes() {
        try {
            String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            String[] total = histogram.strip().lines().reduce((a, b) -> b).orElseThrow().trim().split("\\s+");
            if (!total[0].equals("Total")) {
                throw new IllegalStateException("no total in the class histogram: " + total[0]);
            }
            return Long.parseLong(total[2]);
        } catch (javax.management.JMException e) {
            throw new IllegalStateException("cannot read the class histogram", e);
        }
    }
}
