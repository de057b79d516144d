package dev.remotepath.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.RemotePath;
import dev.remotepath.s3.S3Options;
import dev.remotepath.s3.TestS3Server;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pair contract, local disk to S3 on s3proxy. The keys reach executors the way a cluster's
 * would (the AWS SDK's chain, here its system properties), never inside a task.
 */
class LocalToS3SparkSyncTest extends SparkSyncPairContract {

    static TestS3Server s3;

    /** S3's options as executors make them: endpoint and addressing only, credentials from the chain. */
    record S3At(String endpoint) implements Location.OptionsFactory {
        @Override
        public FileSystemOptions create() {
            return S3Options.builder().endpoint(URI.create(endpoint)).pathStyle(true).region("us-east-1").build();
        }
    }

    @BeforeAll
    static void startS3() throws Exception {
        s3 = new TestS3Server();
        s3.createBucket("pairs");
        System.setProperty("aws.accessKeyId", TestS3Server.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", TestS3Server.SECRET_KEY);
    }

    @AfterAll
    static void stopS3() throws Exception {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        s3.close();
    }

    /**
     * S3 lists a tree flat, in one listing: a single-machine run lists the target once, and each
     * shard lists its own part of it once (a whole subtree flat, an opened directory's files
     * per directory); the local side is listed per directory either way.
     */
    @Override
    long expectedShardListings(long singleNode, SparkSyncReport noOp) {
        long shards = noOp.shards().stream().filter(s -> s.phase() == ShardReport.Phase.COPY).count();
        return singleNode - 1 + shards;
    }

    @Override
    Location source(Path dir) {
        return Location.of(dir.toUri().toString());
    }

    @Override
    Location target(String name) {
        return Location.of("s3://pairs/" + name + "-" + UUID.randomUUID(), new S3At(s3.endpoint.toString()));
    }

    @Test
    void aSourceListedFlatIsCutWhereItsEntriesAre() throws Exception {
        // S3 lists whole trees flat: every subtree's size is known to the driver.
        Location source = target("flat-source");
        RemotePath src = source.open();
        for (int x = 0; x < 8; x++) {
            for (int f = 0; f < 20; f++) {
                src.child("data").child("big").child("x" + x).createDirectories().child("f" + f).writeString("f" + x + f);
            }
        }
        src.child("small").createDirectories().child("a").writeString("a");
        Path dst = temp.resolve("dst");
        SparkSyncReport r = SparkSync.builder(spark, source, Location.of(dst.toUri().toString())).shardsPerCore(2).build().run();
        assertThat(r.total().errors()).isEmpty();
        assertThat(r.total().filesCopied()).isEqualTo(161);
        // All of it sits below data/big: the cut is made there, not at the first levels.
        assertThat(r.shards().stream().filter(ShardReport::whole).map(ShardReport::relativePath))
                .containsExactlyInAnyOrder("data/big/x0", "data/big/x1", "data/big/x2", "data/big/x3", "data/big/x4",
                        "data/big/x5", "data/big/x6", "data/big/x7", "small");
        assertThat(Files.readString(dst.resolve("data/big/x7/f19"))).isEqualTo("f719");
    }
}
