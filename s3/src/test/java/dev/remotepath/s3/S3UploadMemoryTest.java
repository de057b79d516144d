package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.AbortableOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * {@code uploadMemory} bounds the parts in flight across all writers of one file system, not
 * per writer: four writers of large objects at once never have more UploadParts running than
 * the budget allows (they had four each), and every place in the budget comes back, after
 * closes and aborts alike.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3UploadMemoryTest {

    private static final int PART = S3Options.MIN_PART_SIZE;

    /** UploadParts running at once, and the most seen. */
    private static final class Concurrency implements ExecutionInterceptor {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        /** Each UploadPart's number and length, in the order they were sent. */
        final List<long[]> parts = java.util.Collections.synchronizedList(new ArrayList<>());

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof software.amazon.awssdk.services.s3.model.UploadPartRequest u) {
                parts.add(new long[] {u.partNumber(), u.contentLength()});
            }
            if ("UploadPart".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))) {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(20); // long enough for the other writers to pile up
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            ended(attributes);
        }

        @Override
        public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
            ended(attributes);
        }

        private void ended(ExecutionAttributes attributes) {
            if ("UploadPart".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))) {
                running.decrementAndGet();
            }
        }
    }

    private TestS3Server server;
    private final Concurrency concurrency = new Concurrency();
    private RemotePath bucket;
    private S3FileSystem fs;

    @BeforeAll
    void start() throws Exception {
        server = new TestS3Server();
        server.createBucket("budget");
        bucket = RemotePaths.get(URI.create("s3://budget/"), server.options(b -> b.partSize(PART)
                .multipartThreshold(PART).uploadConcurrency(4).uploadMemory(2L * PART)
                .clientCustomizer(c -> c.overrideConfiguration(o -> o.addExecutionInterceptor(concurrency)))));
        fs = (S3FileSystem) bucket.fileSystem();
    }

    @AfterAll
    void stop() throws Exception {
        bucket.fileSystem().close();
        server.close();
    }

    @Test
    void partsInFlightAcrossWritersStayWithinTheBudget() throws Exception {
        concurrency.most.set(0);
        byte[] content = new byte[4 * PART + 17];
        ExecutorService writers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int id = w;
                done.add(writers.submit(() -> {
                    byte[] mine = content.clone();
                    Arrays.fill(mine, (byte) id);
                    bucket.resolve("big-" + id).write(mine);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            writers.shutdownNow();
        }
        assertThat(concurrency.most.get()).as("UploadParts running at once, four writers of five parts")
                .isBetween(1, 2);
        for (int w = 0; w < 4; w++) {
            byte[] back = bucket.resolve("big-" + w).readAllBytes();
            assertThat(back).hasSize(content.length);
            assertThat(back[0]).isEqualTo((byte) w);
            assertThat(back[back.length - 1]).isEqualTo((byte) w);
        }
        assertThat(fs.streams.partBuffers.freePlaces()).as("every place given back").isEqualTo(2);
    }

    /**
     * The buffers being filled and the parts held back below the threshold are inside the budget
     * too: they doubled it before (four writers each filling a part beside the two in flight). With
     * a threshold of three parts, four writers each holding parts back would each wait for one
     * more place with nothing in flight to free one; a writer that cannot get a place starts its
     * multipart upload instead, so all of them finish.
     */
    @Test
    void buffersBeingFilledAndHeldBackAreInsideTheBudgetWithoutDeadlock() throws Exception {
        server.createBucket("budget-held");
        RemotePath held = RemotePaths.get(URI.create("s3://budget-held/"), server.options(b -> b.partSize(PART)
                .multipartThreshold(3L * PART).uploadConcurrency(4).uploadMemory(2L * PART)));
        S3FileSystem heldFs = (S3FileSystem) held.fileSystem();
        try {
            byte[] content = new byte[5 * PART + 3];
            ExecutorService writers = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < 4; w++) {
                    int id = w;
                    done.add(writers.submit(() -> {
                        byte[] mine = content.clone();
                        Arrays.fill(mine, (byte) (id + 1));
                        try (OutputStream out = heldFs.openWrite(held.resolve("big-" + id),
                                dev.remotepath.spi.WriteMode.CREATE_OR_TRUNCATE)) {
                            for (int at = 0; at < mine.length; at += 64 * 1024) {
                                out.write(mine, at, Math.min(64 * 1024, mine.length - at));
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(120, java.util.concurrent.TimeUnit.SECONDS);
                }
            } finally {
                writers.shutdownNow();
            }
            assertThat(heldFs.streams.partBuffers.made()).as("part buffers ever allocated, budget of two")
                    .isLessThanOrEqualTo(2);
            for (int w = 0; w < 4; w++) {
                byte[] back = held.resolve("big-" + w).readAllBytes();
                assertThat(back).hasSize(content.length);
                assertThat(back[PART]).isEqualTo((byte) (w + 1));
                assertThat(back[back.length - 1]).isEqualTo((byte) (w + 1));
            }
            // a writer held back below the threshold and aborted gives its places back too
            OutputStream out = heldFs.openWrite(held.resolve("aborted"), dev.remotepath.spi.WriteMode.CREATE_OR_TRUNCATE);
            out.write(new byte[2 * PART + 1]);
            ((AbortableOutputStream) out).abort();
            assertThat(held.resolve("aborted").exists()).isFalse();
            assertThat(heldFs.streams.partBuffers.freePlaces()).as("every place given back").isEqualTo(2);
            assertThat(heldFs.openStreams()).isZero();
        } finally {
            heldFs.close();
        }
    }

    @Test
    void abortedAndFailedWritersGiveTheirPlacesBack() throws Exception {
        for (int round = 0; round < 3; round++) {
            OutputStream out = fs.openWrite(bucket.resolve("aborted-" + round), dev.remotepath.spi.WriteMode.CREATE_OR_TRUNCATE);
            out.write(new byte[3 * PART]);
            ((AbortableOutputStream) out).abort();
            assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class);
        }
        assertThat(bucket.resolve("aborted-0").exists()).isFalse();
        assertThat(fs.streams.partBuffers.freePlaces()).as("places after aborts").isEqualTo(2);
        assertThat(fs.openStreams()).isZero();
    }

    /**
     * S3 takes 10,000 parts and a stream cannot know its size: past the first five steps the
     * parts double every step (here a step is one part), and one larger than the whole budget
     * (two parts of 5 MiB) goes alone rather than waiting for room that cannot come.
     */
    @Test
    void partsGrowPastTheFirstStepsAndOneLargerThanTheBudgetGoesAlone() throws Exception {
        concurrency.parts.clear();
        RemotePath file = bucket.resolve("growing.bin");
        byte[] content = new byte[5 * PART + 2 * PART + 4 * PART + 8 * PART + 12345];
        new java.util.Random(11).nextBytes(content);
        try (S3UploadStream out = new S3UploadStream(fs, file, fs.key(file), java.util.Map.of(), false, 1)) {
            for (int at = 0; at < content.length; at += 100_000) {
                out.write(content, at, Math.min(100_000, content.length - at));
            }
        }
        assertThat(file.readAllBytes()).isEqualTo(content);
        List<Long> sizes = concurrency.parts.stream().sorted(java.util.Comparator.comparingLong(p -> p[0]))
                .map(p -> p[1]).toList();
        long p = PART;
        assertThat(sizes).containsExactly(p, p, p, p, p, 2 * p, 4 * p, 8 * p, 12345L);
        assertThat(fs.streams.partBuffers.freePlaces()).as("every byte of room given back").isEqualTo(2);
        assertThat(fs.openStreams()).isZero();
    }
}
