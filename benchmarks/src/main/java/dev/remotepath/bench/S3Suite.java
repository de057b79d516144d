package dev.remotepath.bench;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.s3.S3Credentials;
import dev.remotepath.s3.S3Options;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.tree.TreeCopier;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * S3 against s3proxy (in-memory store) started in this process: a 10k-object listing, 1000 x
 * 4 KiB up and down, 256 MiB multipart up and down, and local-to-S3 sync of 10k small files
 * (first sync, no-op resync); RemotePath beside {@code rclone} against the same server. The
 * request counts of RemotePath's no-op resync are recorded in the notes.
 */
final class S3Suite implements Suite {

    private static final String BUCKET = "bench";
    private final List<String> notes = new ArrayList<>();
    private IsolatedS3Server server;
    private RemotePath bucket;
    private Path work;
    private Path big;
    private Path small;
    private Path tree;
    private boolean rclone;
    private final AtomicLong round = new AtomicLong();

    @Override
    public String name() {
        return "s3";
    }

    @Override
    public String description() {
        return "in-process s3proxy: list 10k, 1000 x 4 KiB up/down, 256 MiB multipart up/down, sync 10k; RemotePath vs rclone";
    }

    @Override
    public void prepare(Path fixtures) throws Exception {
        Files.createDirectories(fixtures);
        big = Fixtures.randomFile(fixtures.resolve("s3-256MiB.bin"), 256);
        small = Fixtures.smallFiles(fixtures.resolve("s3-1000x4KiB"), 1000, 4096);
        tree = Fixtures.tree(fixtures.resolve("s3-tree-10k"), 10, 10, 100);
        work = fixtures.resolve("s3-work");
        LocalTrees.delete(work);
        Files.createDirectories(work);

        server = new IsolatedS3Server();
        server.createBucket(BUCKET);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception ignored) {
                // the process is going away anyway
            }
        }));
        bucket = RemotePaths.get(URI.create("s3://" + BUCKET + "/"), S3Options.builder().endpoint(server.endpoint)
                .pathStyle(true).region("us-east-1")
                .credentials(S3Credentials.of(IsolatedS3Server.ACCESS_KEY, IsolatedS3Server.SECRET_KEY)).build());
        rclone = Fixtures.succeeds("rclone", "version");
        notes.add("server: s3proxy 2.6.0, jclouds transient (in-memory) store, in this JVM on 127.0.0.1");
        notes.add(rclone ? "rclone: " + Fixtures.firstLineOf("rclone", "version") + " (provider Other, path style)"
                : "rclone not installed: its cases are left out");

        // Listing fixture, and the sync targets that the no-op resyncs find already in place.
        Path tenK = fixtures.resolve("s3-objects-10k");
        if (!Files.exists(tenK.resolve("f9999.dat"))) {
            Files.createDirectories(tenK);
            for (int i = 0; i < 10_000; i++) {
                Files.write(tenK.resolve("f" + i + ".dat"), new byte[100]);
            }
        }
        requireSuccess(PathSyncer.builder(RemotePaths.of(tenK), bucket.resolve("list-10k")).transfers(16).build().run());
        int listedEntries = bucket.resolve("list-10k").list().size();
        if (listedEntries != 10_000) {
            throw new IllegalStateException("the listing fixture holds " + listedEntries + " entries, not 10,000");
        }
        SyncReport seeded = PathSyncer.builder(RemotePaths.of(tree), bucket.resolve("noop-rp")).transfers(16).build().run();
        if (!seeded.succeeded()) {
            throw new IllegalStateException("seeding failed: " + seeded.errors());
        }
        if (rclone) {
            rclone("sync", "--transfers", "16", tree.toString(), "bench:" + BUCKET + "/noop-rclone");
        }
        SyncReport check = PathSyncer.builder(RemotePaths.of(tree), bucket.resolve("noop-rp")).build().run();
        notes.add(String.format("no-op local->s3 of %d files: copied %d, skipped %d, content bytes read %d",
                check.filesSkipped() + check.filesCopied(), check.filesCopied(), check.filesSkipped(),
                check.contentBytesRead()));
        if (check.filesCopied() != 0) {
            throw new IllegalStateException("the no-op resync copied files: " + notes.getLast());
        }
    }

    @Override
    public List<String> notes() {
        return notes;
    }

    @Override
    public List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        String listed = "list-10k";
        if (rclone) {
            cases.add(new Case("list-10k", "rclone", true, () -> rclone("ls", "--max-depth", "1", "bench:" + BUCKET + "/" + listed)));
        }
        cases.add(new Case("list-10k", "remotepath", !rclone, () -> bucket.resolve(listed).list().size() / 10_000));

        String[] fresh = {null};
        Op newPrefix = () -> {
            fresh[0] = "up-" + round.incrementAndGet();
            return 0;
        };
        if (rclone) {
            cases.add(new Case("upload-1000x4KiB", "rclone", true, newPrefix,
                    () -> rclone("copy", small.toString(), "bench:" + BUCKET + "/" + fresh[0])));
        }
        cases.add(new Case("upload-1000x4KiB", "remotepath-sync", !rclone, newPrefix, () -> {
            requireSuccess(PathSyncer.builder(RemotePaths.of(small), bucket.resolve(fresh[0])).build().run());
            return 1;
        }));
        cases.add(new Case("upload-1000x4KiB", "remotepath-copy", false, newPrefix, () -> {
            TreeCopier.copy(RemotePaths.of(small), bucket.resolve(fresh[0]));
            return 1;
        }));

        Path down = work.resolve("down");
        Op clearDown = () -> {
            LocalTrees.delete(down);
            return 0;
        };
        RemotePath smallRemote = bucket.resolve("small-source");
        Op ensureSmall = () -> {
            clearDown.run();
            if (!smallRemote.exists()) {
                requireSuccess(PathSyncer.builder(RemotePaths.of(small), smallRemote).build().run());
            }
            return 0;
        };
        if (rclone) {
            cases.add(new Case("download-1000x4KiB", "rclone", true, ensureSmall,
                    () -> rclone("copy", "bench:" + BUCKET + "/small-source", down.toString())));
        }
        cases.add(new Case("download-1000x4KiB", "remotepath-sync", !rclone, ensureSmall, () -> {
            requireSuccess(PathSyncer.builder(smallRemote, RemotePaths.of(down)).build().run());
            return 1;
        }));

        Op newKey = () -> {
            if (fresh[0] != null && fresh[0].startsWith("big-")) {
                bucket.resolve(fresh[0]).deleteIfExists(); // the in-memory store must not fill the heap
            }
            fresh[0] = "big-" + round.incrementAndGet() + ".bin";
            return 0;
        };
        if (rclone) {
            cases.add(new Case("write-256MiB", "rclone", true, newKey,
                    () -> rclone("copyto", big.toString(), "bench:" + BUCKET + "/" + fresh[0])));
        }
        cases.add(new Case("write-256MiB", "remotepath", !rclone, newKey, () -> {
            RemotePaths.of(big).copyTo(bucket.resolve(fresh[0]));
            return 1;
        }));

        RemotePath bigRemote = bucket.resolve("big-source.bin");
        Path downBig = work.resolve("down.bin");
        Op ensureBig = () -> {
            Files.deleteIfExists(downBig);
            if (!bigRemote.exists()) {
                RemotePaths.of(big).copyTo(bigRemote);
            }
            return 0;
        };
        if (rclone) {
            cases.add(new Case("read-256MiB", "rclone", true, ensureBig,
                    () -> rclone("copyto", "bench:" + BUCKET + "/big-source.bin", downBig.toString())));
        }
        cases.add(new Case("read-256MiB", "remotepath", !rclone, ensureBig, () -> {
            bigRemote.copyTo(RemotePaths.of(downBig), StandardCopyOption.REPLACE_EXISTING);
            return 1;
        }));

        if (rclone) {
            cases.add(new Case("noop-resync-10k", "rclone", true,
                    () -> rclone("sync", tree.toString(), "bench:" + BUCKET + "/noop-rclone")));
        }
        cases.add(new Case("noop-resync-10k", "remotepath", !rclone, () -> {
            SyncReport r = PathSyncer.builder(RemotePaths.of(tree), bucket.resolve("noop-rp")).build().run();
            requireSuccess(r);
            if (r.filesCopied() != 0) {
                throw new IllegalStateException("no-op copied " + r.filesCopied());
            }
            return 1;
        }));
        return cases;
    }

    @Override
    public List<Target> targets() {
        return rclone ? List.of(Target.speedup("noop-resync-10k", "remotepath", "rclone", 1.5)) : List.of();
    }

    private static void requireSuccess(SyncReport r) {
        if (!r.succeeded()) {
            throw new IllegalStateException("sync failed: " + r.errors());
        }
    }

    private long rclone(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("env", "-u", "AWS_CA_BUNDLE", "RCLONE_CONFIG=/dev/null",
                "RCLONE_CONFIG_BENCH_TYPE=s3", "RCLONE_CONFIG_BENCH_PROVIDER=Other", "RCLONE_CONFIG_BENCH_ENV_AUTH=false",
                "RCLONE_CONFIG_BENCH_ACCESS_KEY_ID=" + IsolatedS3Server.ACCESS_KEY,
                "RCLONE_CONFIG_BENCH_SECRET_ACCESS_KEY=" + IsolatedS3Server.SECRET_KEY,
                "RCLONE_CONFIG_BENCH_REGION=us-east-1", "RCLONE_CONFIG_BENCH_ENDPOINT=" + server.endpoint,
                "RCLONE_CONFIG_BENCH_FORCE_PATH_STYLE=true", "rclone",
                "--header-upload", "Content-Type: application/octet-stream"));
        cmd.addAll(List.of(args));
        Fixtures.exec(cmd.toArray(String[]::new));
        return 1;
    }
}
