package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.net.URI;
import java.nio.file.StandardCopyOption;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;

/**
 * A server-side copy in parts (UploadPartCopy) that fails midway, as a dropped connection on
 * its second part: the old target is left exactly as it was, and no unfinished multipart
 * upload is left in the bucket (it would be billed, and listed by every lifecycle audit).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3ServerCopyFaultTest {

    private TestS3Server server;
    private S3Client raw;
    private final AtomicInteger partCopies = new AtomicInteger();
    private volatile int failAtPart;

    @BeforeAll
    void start() throws Exception {
        server = new TestS3Server();
        server.createBucket("copies");
        raw = server.rawClient();
    }

    @AfterAll
    void stop() throws Exception {
        raw.close();
        server.close();
    }

    /** Fails the Nth UploadPartCopy before it is sent, as a connection dropped under it would. */
    private final ExecutionInterceptor breaker = new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (context.request() instanceof UploadPartCopyRequest && partCopies.incrementAndGet() == failAtPart) {
                throw software.amazon.awssdk.core.exception.SdkClientException.create(
                        "injected: connection dropped during UploadPartCopy");
            }
        }
    };

    private RemotePath bucket() throws IOException {
        S3Options o = server.options(b -> b.partSize(S3Options.MIN_PART_SIZE)
                .multipartCopyThreshold(S3Options.MIN_PART_SIZE).maxRetries(0)
                .clientCustomizer(c -> c.overrideConfiguration(x -> x.addExecutionInterceptor(breaker))));
        return RemotePaths.get(URI.create("s3://copies/"), o);
    }

    @Test
    void aPartCopyFailingMidwayLeavesTheOldTargetAndNoUpload() throws Exception {
        RemotePath root = bucket();
        byte[] big = new byte[2 * S3Options.MIN_PART_SIZE + 12345];
        new Random(7).nextBytes(big);
        RemotePath source = root.resolve("big.bin").write(big);
        RemotePath target = root.resolve("old.txt").writeString("the old target");
        partCopies.set(0);
        failAtPart = 2;
        assertThatThrownBy(() -> source.copyTo(target, StandardCopyOption.REPLACE_EXISTING))
                .isInstanceOf(IOException.class);
        assertThat(partCopies.get()).as("the copy went by parts and stopped at the second").isEqualTo(2);
        assertThat(target.readString()).isEqualTo("the old target");
        assertThat(raw.listMultipartUploads(l -> l.bucket("copies")).uploads()).isEmpty();
        assertThat(root.list()).extracting(e -> e.name()).containsExactlyInAnyOrder("big.bin", "old.txt");

        // Unbroken, the same copy goes through.
        failAtPart = 0;
        source.copyTo(target, StandardCopyOption.REPLACE_EXISTING);
        assertThat(target.readAllBytes()).isEqualTo(big);
        assertThat(raw.listMultipartUploads(l -> l.bucket("copies")).uploads()).isEmpty();
        root.fileSystem().close();
    }
}
