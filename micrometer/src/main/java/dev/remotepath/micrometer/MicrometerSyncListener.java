package dev.remotepath.micrometer;

import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncError;
import dev.remotepath.syncer.SyncListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sync's progress as Micrometer meters, tagged with any tags given (a job name, say):
 * <ul>
 *   <li>{@code remotepath.sync.actions} (counter): actions ended, by {@code kind}
 *       ({@code copy_new}, {@code delete_file}...) and {@code outcome}</li>
 *   <li>{@code remotepath.sync.bytes} (counter, bytes): content bytes copied</li>
 *   <li>{@code remotepath.sync.errors} (counter): every error of the run as it happens</li>
 *   <li>{@code remotepath.sync.skipped} (counter): entries deliberately left out (links by policy...)</li>
 *   <li>{@code remotepath.sync.actions.scheduled} and {@code remotepath.sync.actions.active}
 *       (gauges): actions queued so far and under way, for progress and stalls</li>
 * </ul>
 * One listener per run, or one for runs sharing the tags; pass it to
 * {@code PathSyncer.Builder.listener}.
 */
public final class MicrometerSyncListener implements SyncListener {

    private final MeterRegistry registry;
    private final Tags tags;
    private final AtomicLong scheduled;
    private final AtomicLong active;
    private final Counter bytes;
    private final Counter errors;
    private final Counter skipped;

    public MicrometerSyncListener(MeterRegistry registry, Iterable<Tag> tags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tags = Tags.of(tags);
        this.scheduled = registry.gauge("remotepath.sync.actions.scheduled", this.tags, new AtomicLong());
        this.active = registry.gauge("remotepath.sync.actions.active", this.tags, new AtomicLong());
        this.bytes = Counter.builder("remotepath.sync.bytes").baseUnit("bytes").description("content bytes copied")
                .tags(this.tags).register(registry);
        this.errors = Counter.builder("remotepath.sync.errors").description("errors of sync runs").tags(this.tags)
                .register(registry);
        this.skipped = Counter.builder("remotepath.sync.skipped").description("entries deliberately not synced")
                .tags(this.tags).register(registry);
    }

    public MicrometerSyncListener(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    @Override
    public void scheduled(SyncAction action) {
        scheduled.incrementAndGet();
    }

    @Override
    public void started(SyncAction action) {
        active.incrementAndGet();
    }

    @Override
    public void progress(SyncAction action, long n) {
        bytes.increment(n);
    }

    @Override
    public void finished(SyncAction action) {
        ended(action, "success");
    }

    @Override
    public void failed(SyncAction action, IOException error) {
        ended(action, "failure");
    }

    private void ended(SyncAction action, String outcome) {
        active.decrementAndGet();
        Counter.builder("remotepath.sync.actions").description("sync actions ended")
                .tags(tags.and("kind", action.kind().name().toLowerCase(Locale.ROOT), "outcome", outcome))
                .register(registry).increment();
    }

    @Override
    public void error(SyncError error) {
        errors.increment();
    }

    @Override
    public void skipped(String relativePath, String why) {
        skipped.increment();
    }
}
