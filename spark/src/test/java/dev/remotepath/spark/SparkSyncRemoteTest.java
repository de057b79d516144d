package dev.remotepath.spark;

import static dev.remotepath.spark.SparkTrees.contents;
import static dev.remotepath.spark.SparkTrees.tree;
import static dev.remotepath.spark.SparkTrees.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.cli.SyncCommandLine;
import dev.remotepath.s3.TestS3Server;
import dev.remotepath.testkit.OpenSshd;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SparkSyncMain's command line against real servers on 127.0.0.1, with rpath's backend flags
 * (credentials from where executors find them, never from a task): local to S3 on s3proxy,
 * SFTP on OpenSSH to local.
 */
class SparkSyncRemoteTest {

    static SparkContext spark;
    static TestS3Server s3;

    @TempDir
    Path temp;

    @BeforeAll
    static void start() throws Exception {
        spark = SparkTrees.spark();
        s3 = new TestS3Server();
        s3.createBucket("mirror");
        // The AWS SDK's chain on every executor (one JVM here) finds these, as it would a role's.
        System.setProperty("aws.accessKeyId", TestS3Server.ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", TestS3Server.SECRET_KEY);
        System.setProperty("aws.region", "us-east-1");
    }

    @AfterAll
    static void stop() throws Exception {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        System.clearProperty("aws.region");
        if (s3 != null) {
            s3.close();
        }
    }

    private record Run(int code, String json, String err) {
    }

    private static Run main(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SparkSyncMain.run(spark, SyncCommandLine.parse(List.of(args)), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8).strip(), err.toString(StandardCharsets.UTF_8));
    }

    private static Map<String, String> objects(RemotePath root) throws Exception {
        Map<String, String> all = new TreeMap<>();
        try (var walk = root.walk()) {
            for (DirEntry e : (Iterable<DirEntry>) walk::iterator) {
                if (!e.isDirectory()) {
                    all.put(root.relativize(e.path()).pathString(),
                            new String(e.path().readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        return all;
    }

    private static Map<String, String> files(Path root) throws Exception {
        Map<String, String> all = new TreeMap<>();
        contents(root).forEach((k, v) -> {
            if (!k.endsWith("/")) {
                all.put(k, v);
            }
        });
        return all;
    }

    @Test
    void localToS3FirstSyncNoOpChangeAndDeleteWithAGlobalMaxDelete() throws Exception {
        Path src = temp.resolve("src");
        tree(src, 5, 3, 4);
        String dst = "s3://mirror/data";
        String[] flags = {"--s3-endpoint", s3.endpoint.toString(), "--s3-path-style"};
        List<String> base = new ArrayList<>(List.of(src.toString(), dst));
        base.addAll(List.of(flags));

        Run first = main(base.toArray(String[]::new));
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.json()).contains("\"filesCopied\":" + (3 + 5 + 5 * 3 * 4) + ",").contains("\"errors\":[]");
        RemotePath bucket = SyncCommandLine.parse(base).open(dst);
        assertThat(objects(bucket)).isEqualTo(files(src));

        Run noOp = main(base.toArray(String[]::new));
        assertThat(noOp.json()).contains("\"filesCopied\":0,").contains("\"contentBytesRead\":0,")
                .contains("\"filesSkipped\":" + (3 + 5 + 5 * 3 * 4) + ",");

        write(src.resolve("top4/sub2/f1.bin"), "changed content of another size");
        Files.delete(src.resolve("top0/sub0/f0.bin"));
        Files.delete(src.resolve("top3/sub1/f3.bin"));
        Files.delete(src.resolve("root-b.txt"));
        List<String> delete = new ArrayList<>(base);
        delete.addAll(List.of("--delete", "--max-delete", "2"));
        Run refused = main(delete.toArray(String[]::new));
        assertThat(refused.code()).isEqualTo(SyncCommandLine.REFUSED);
        assertThat(refused.json()).contains("\"filesCopied\":1,").contains("max-delete exceeded: 3 deletions");
        assertThat(bucket.child("root-b.txt").exists()).isTrue();

        delete.set(delete.size() - 1, "3");
        Run done = main(delete.toArray(String[]::new));
        assertThat(done.code()).as(done.err()).isZero();
        assertThat(done.json()).contains("\"filesDeleted\":3,");
        assertThat(objects(bucket)).isEqualTo(files(src));
    }

    @Test
    void sftpOnOpenSshToLocalWithTheCommandLinesKeyAndKnownHosts() throws Exception {
        assumeThat(Files.isExecutable(OpenSshd.SSHD)).as("OpenSSH's sshd").isTrue();
        Path src = temp.resolve("served");
        tree(src, 4, 2, 3);
        Path dst = temp.resolve("dst");
        write(dst.resolve("top2/extra.txt"), "extra");
        try (OpenSshd sshd = new OpenSshd(Files.createDirectories(temp.resolve("sshd")))) {
            String uri = sshd.uri(src).toString();
            String[] args = {uri, dst.toString(), "--identity", sshd.clientKey.toString(), "--known-hosts",
                    sshd.knownHosts.toString(), "--delete"};
            Run first = main(args);
            assertThat(first.code()).as(first.err()).isZero();
            assertThat(first.json()).contains("\"filesCopied\":" + (3 + 4 + 4 * 2 * 3) + ",").contains("\"filesDeleted\":1,");
            assertThat(contents(dst)).isEqualTo(contents(src));

            Run noOp = main(args);
            assertThat(noOp.json()).contains("\"filesCopied\":0,").contains("\"contentBytesRead\":0,")
                    .contains("\"filesDeleted\":0,");
            write(src.resolve("top1/sub0/f2.bin"), "changed on the server, longer");
            Run change = main(args);
            assertThat(change.json()).contains("\"filesCopied\":1,");
            assertThat(contents(dst)).isEqualTo(contents(src));
        }
    }

    @Test
    void remotePathsOfTheSameUriAreOpenedOncePerExecutor() throws Exception {
        // Locations compare by value, so tasks on one executor share one file system.
        SyncCommandLine line = SyncCommandLine.parse(List.of("a", "b", "--s3-path-style"));
        assertThat(new SparkSyncMain.CommandLineLocation("s3://x/y", line))
                .isEqualTo(new SparkSyncMain.CommandLineLocation("s3://x/y", SyncCommandLine.parse(List.of("a", "b",
                        "--s3-path-style"))));
        assertThat(Location.of("mem://v/a")).isEqualTo(Location.of("mem://v/a"));
        assertThat(RemotePaths.schemes()).contains("s3", "sftp", "file");
    }
}
