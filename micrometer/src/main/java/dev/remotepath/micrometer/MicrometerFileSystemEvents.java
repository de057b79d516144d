package dev.remotepath.micrometer;

import dev.remotepath.FileSystemCall;
import dev.remotepath.FileSystemEvents;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ObservedFileSystem;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A file system's events as Micrometer meters, tagged with the backend (the URI scheme:
 * {@code sftp}, {@code s3}...), the operation ({@code read}, {@code list}, {@code stat}...) and
 * any tags given:
 * <ul>
 *   <li>{@code remotepath.requests} (timer): each call's duration, with {@code outcome}
 *       ({@code success}/{@code failure}) and {@code error} (the exception's class, {@code none})</li>
 *   <li>{@code remotepath.bytes} (counter, bytes): content read, written or copied server-side</li>
 *   <li>{@code remotepath.entries} (counter): entries of listings</li>
 *   <li>{@code remotepath.requests.active} (gauge, per backend): calls under way (open streams and
 *       listings included)</li>
 * </ul>
 * Tags stay few by design (no path, no host): a meter per file would swamp any registry.
 */
public final class MicrometerFileSystemEvents implements FileSystemEvents {

    private final MeterRegistry registry;
    private final Tags common;
    private final Map<String, AtomicInteger> active = new ConcurrentHashMap<>();

    /** Meters in {@code registry}, each also tagged with {@code tags}. */
    public MicrometerFileSystemEvents(MeterRegistry registry, Iterable<Tag> tags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.common = Tags.of(tags);
    }

    public MicrometerFileSystemEvents(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /** {@code path} on a file system that publishes its file system's calls to {@code registry}. */
    public static RemotePath observe(RemotePath path, MeterRegistry registry) {
        return ObservedFileSystem.observe(path, new MicrometerFileSystemEvents(registry));
    }

    private static String backend(FileSystemCall call) {
        String prefix = call.path().fileSystem().uriPrefix();
        int colon = prefix.indexOf(':');
        return colon < 0 ? prefix : prefix.substring(0, colon);
    }

    private AtomicInteger active(String backend) {
        return active.computeIfAbsent(backend, b -> registry.gauge("remotepath.requests.active",
                common.and("backend", b), new AtomicInteger()));
    }

    @Override
    public void started(FileSystemCall call) {
        active(backend(call)).incrementAndGet();
    }

    @Override
    public void finished(FileSystemCall call, long amount, Duration took) {
        ended(call, amount, took, "success", "none");
    }

    @Override
    public void failed(FileSystemCall call, long amount, IOException error, Duration took) {
        ended(call, amount, took, "failure", error.getClass().getSimpleName());
    }

    private void ended(FileSystemCall call, long amount, Duration took, String outcome, String error) {
        String backend = backend(call);
        active(backend).decrementAndGet();
        Tags tags = common.and("backend", backend, "operation", call.operation().label());
        Timer.builder("remotepath.requests").description("primitive calls of a file system")
                .tags(tags.and("outcome", outcome, "error", error)).register(registry).record(took);
        if (amount <= 0) {
            return;
        }
        switch (call.operation()) {
            case READ, WRITE, COPY_FILE -> Counter.builder("remotepath.bytes").baseUnit("bytes")
                    .description("content bytes read, written or copied server-side").tags(tags).register(registry)
                    .increment(amount);
            case LIST, LIST_TREE -> Counter.builder("remotepath.entries").description("entries of directory listings")
                    .tags(tags).register(registry).increment(amount);
            default -> {
            }
        }
    }
}
