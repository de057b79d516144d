package dev.remotepath.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.NoSuchFileException;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Micrometer binding over a real (in-memory) backend and a real sync, read back from a real registry. */
class MicrometerBindingTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private RemotePath mem;

    @BeforeEach
    void volume() throws Exception {
        mem = RemotePaths.get("mem://micrometer-" + UUID.randomUUID() + "/");
    }

    @AfterEach
    void close() throws Exception {
        mem.fileSystem().close();
        registry.close();
    }

    private Timer requests(String operation, String outcome) {
        return registry.find("remotepath.requests").tags("backend", "mem", "operation", operation, "outcome", outcome)
                .timer();
    }

    @Test
    void requestsBytesEntriesAndErrorsArePublishedPerBackendAndOperation() throws Exception {
        RemotePath root = MicrometerFileSystemEvents.observe(mem, registry);
        root.resolve("a.txt").writeString("alpha");
        root.resolve("b.txt").writeString("bravo!");
        assertThat(root.resolve("a.txt").readString()).isEqualTo("alpha");
        assertThat(root.list()).hasSize(2);
        assertThatThrownBy(() -> root.resolve("missing").stat()).isInstanceOf(NoSuchFileException.class);

        assertThat(requests("write", "success").count()).isEqualTo(2);
        assertThat(requests("read", "success").count()).isEqualTo(1);
        assertThat(requests("list", "success").count()).isEqualTo(1);
        assertThat(registry.find("remotepath.requests").tags("operation", "stat", "outcome", "failure",
                "error", "NoSuchFileException").timer().count()).isEqualTo(1);
        assertThat(registry.find("remotepath.bytes").tags("backend", "mem", "operation", "write").counter().count())
                .isEqualTo(11);
        assertThat(registry.find("remotepath.bytes").tags("operation", "read").counter().count()).isEqualTo(5);
        assertThat(registry.find("remotepath.entries").tags("operation", "list").counter().count()).isEqualTo(2);
        assertThat(registry.find("remotepath.requests.active").tags("backend", "mem").gauge().value()).isZero();
        assertThat(requests("write", "success").totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
    }

    @Test
    void aSyncsProgressIsPublishedWithTheTagsGiven() throws Exception {
        for (int i = 0; i < 5; i++) {
            mem.resolve("src/d" + (i % 2)).createDirectories().resolve("f" + i + ".txt").writeString("x".repeat(100 + i));
        }
        mem.resolve("dst").createDirectories().resolve("stale.txt").writeString("old");
        MicrometerSyncListener listener = new MicrometerSyncListener(registry, Tags.of("job", "nightly"));
        // Another file system object over the same store, so the bytes stream (no server-side copy).
        RemotePath target = MicrometerFileSystemEvents.observe(mem.resolve("dst"), registry);
        SyncReport r = PathSyncer.builder(mem.resolve("src"), target).deleteExtraneous(true).listener(listener).build()
                .run();
        assertThat(r.errors()).isEmpty();
        assertThat(registry.find("remotepath.sync.actions").tags("job", "nightly", "kind", "copy_new", "outcome", "success")
                .counter().count()).isEqualTo(5);
        assertThat(registry.find("remotepath.sync.actions").tags("kind", "delete_file").counter().count()).isEqualTo(1);
        assertThat(registry.find("remotepath.sync.bytes").tags("job", "nightly").counter().count()).isEqualTo(r.bytesCopied())
                .isEqualTo(510);
        assertThat(registry.find("remotepath.sync.actions.active").gauge().value()).isZero();
        assertThat(registry.find("remotepath.sync.actions.scheduled").gauge().value()).isGreaterThanOrEqualTo(5);
        assertThat(registry.find("remotepath.sync.errors").counter().count()).isZero();
        // The target's own requests, from the same registry: five uploads of 510 bytes in all.
        assertThat(registry.find("remotepath.bytes").tags("operation", "write").counter().count()).isEqualTo(510);
    }
}
