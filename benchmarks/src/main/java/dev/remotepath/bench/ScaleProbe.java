package dev.remotepath.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.FaultInjectingFileSystem;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * One measurement of the {@code scale} suite (issue #19), run in a JVM of its own by
 * {@code benchmarks/scale/suite.sh}: a no-op sync of a large tree, timed, with the peak of the
 * heap that stayed live after each collection during the run (the run's own memory: what was
 * live before it, such as a mem tree, is subtracted). With a small young generation the
 * collector runs every few megabytes, so that peak is a close reading of the live set.
 *
 * <pre>
 *   ScaleProbe make DIR DIRS FILES_PER_DIR        DIRS x FILES_PER_DIR files of 16 bytes, 100 directories per parent
 *   ScaleProbe noop local-local SRC DST           DST a mirror of SRC (made first, untimed)
 *   ScaleProbe noop local-mem SRC                 into a mem copy (made first, untimed)
 *   ScaleProbe noop mem-latency SRC MS            a mem copy of SRC whose listings take MS ms, into mem
 * </pre>
 * Prints one line: {@code files=N ms=T peakLiveMB=P baseMB=B ownMB=O nsPerFile=X}: the peak live
 * heap, what was live before the timed run, and the peak beyond that.
 */
public final class ScaleProbe {

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
     * by its largest directory: a tree whose root grew with the total would measure that).
     */
    private static void make(Path root, int dirs, int perDir) throws IOException {
        FileTime t = FileTime.from(Instant.parse("2024-06-01T00:00:00Z"));
        byte[] content = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
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
        // A warm-up no-op, then the timed one: the figure is the steady cost per file.
        PathSyncer.builder(src, dst).build().run();
        System.gc();
        long base = heapUsed();
        AtomicLong peak = new AtomicLong(base);
        watchCollections(peak);
        long t0 = System.nanoTime();
        SyncReport r = PathSyncer.builder(src, dst).build().run();
        long nanos = System.nanoTime() - t0;
        System.gc(); // one more reading, at the end
        Thread.sleep(200); // collection notifications arrive on a thread of their own
        if (!r.succeeded() || r.filesCopied() != 0) {
            throw new IllegalStateException("the no-op did work or failed: " + r);
        }
        long files = r.filesSkipped();
        System.out.printf(Locale.ROOT, "files=%d ms=%.1f peakLiveMB=%.1f baseMB=%.1f ownMB=%.1f nsPerFile=%.0f%n", files,
                nanos / 1e6, peak.get() / 1048576.0, base / 1048576.0, Math.max(0, peak.get() - base) / 1048576.0,
                nanos / (double) files);
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Records, after every collection, how much of the heap stayed in use: the live set then. */
    private static void watchCollections(AtomicLong peak) {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((n, hb) -> {
                if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                    return;
                }
                GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                long after = 0;
                for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                    if (!e.getKey().contains("Metaspace") && !e.getKey().contains("Code")
                            && !e.getKey().contains("Compressed Class")) {
                        after += e.getValue().getUsed();
                    }
                }
                peak.accumulateAndGet(after, Math::max);
            }, null, null);
        }
    }
}
