package dev.remotepath.bench;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.sftp.SftpOptions;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.OpenSshd;
import dev.remotepath.tree.TreeCopier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * SFTP against a loopback OpenSSH sshd started for the run: 256 MiB download and upload,
 * 1000 x 4 KiB upload, a 10k-entry listing; RemotePath (MINA client) beside OpenSSH's own
 * {@code sftp -b} and {@code rclone}, each tool connecting as it does by default (the sftp and
 * rclone processes pay their own SSH handshake per run; RemotePath keeps its connection, as a
 * library user's long-lived file system does). Every case counts one unit per run, so the
 * allocation column compares like with like.
 */
final class SftpSuite implements Suite {

    private final List<String> notes = new ArrayList<>();
    private OpenSshd sshd;
    private Path work;
    private Path big;
    private Path small;
    private Path listed;
    private Path walked;
    private RemotePath remoteRoot;
    private RemotePath sshjRoot;
    private boolean rclone;

    @Override
    public String name() {
        return "sftp";
    }

    @Override
    public String description() {
        return "loopback OpenSSH: 256 MiB read/write, 1000 x 4 KiB upload, 10k listing, walk of 10k files in 110 dirs; "
                + "RemotePath (MINA, sshj) vs sftp -b and rclone";
    }

    @Override
    public void prepare(Path fixtures) throws Exception {
        if (!Files.isExecutable(OpenSshd.SSHD)) {
            throw new IOException("OpenSSH sshd is not installed (" + OpenSshd.SSHD + "): apt-get install openssh-server");
        }
        Files.createDirectories(fixtures);
        big = Fixtures.randomFile(fixtures.resolve("sftp-256MiB.bin"), 256);
        small = Fixtures.smallFiles(fixtures.resolve("sftp-1000x4KiB"), 1000, 4096);
        listed = Fixtures.flat(fixtures.resolve("sftp-list-10k"), 10_000);
        walked = Fixtures.tree(fixtures.resolve("sftp-walk"), 10, 10, 100);
        work = fixtures.resolve("sftp-work");
        LocalTrees.delete(work);
        Files.createDirectories(work.resolve("up"));
        sshd = new OpenSshd(Files.createDirectories(work.resolve("sshd")));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                sshd.close();
            } catch (Exception ignored) {
                // the process is going away anyway
            }
        }));
        remoteRoot = RemotePaths.get(sshd.uri(fixtures.toAbsolutePath()), SftpOptions.builder()
                .identityFiles(List.of(sshd.clientKey)).knownHosts(sshd.knownHosts).build());
        sshjRoot = RemotePaths.get(sshd.uri(fixtures.toAbsolutePath()), SftpOptions.builder()
                .identityFiles(List.of(sshd.clientKey)).knownHosts(sshd.knownHosts).client(SftpOptions.Client.SSHJ).build());
        rclone = Fixtures.succeeds("rclone", "version");
        notes.add("OpenSSH: " + Fixtures.firstLineOf("ssh", "-V") + "; sftp client: OpenSSH's, batch mode");
        notes.add(rclone ? "rclone: " + Fixtures.firstLineOf("rclone", "version") + " (--sftp-disable-hashcheck: no remote md5sum, "
                + "as RemotePath verifies none either)" : "rclone not installed: its cases are left out");
    }

    @Override
    public List<String> notes() {
        return notes;
    }

    @Override
    public List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        Path down = work.resolve("down.bin");
        Op clearDown = () -> {
            Files.deleteIfExists(down);
            return 0;
        };
        cases.add(new Case("read-256MiB", "openssh-sftp", true, clearDown,
                () -> sftpBatch("get " + big + " " + down)));
        cases.add(new Case("read-256MiB", "remotepath-mina", false, clearDown, () -> {
            remote(big).copyTo(RemotePaths.of(down), StandardCopyOption.REPLACE_EXISTING);
            return 1;
        }));
        cases.add(new Case("read-256MiB", "remotepath-sshj", false, clearDown, () -> {
            remoteSshj(big).copyTo(RemotePaths.of(down), StandardCopyOption.REPLACE_EXISTING);
            return 1;
        }));
        if (rclone) {
            cases.add(new Case("read-256MiB", "rclone", false, clearDown, () -> rclone("copyto", "bench:" + big, down.toString())));
        }

        Path up = work.resolve("up.bin");
        Op clearUp = () -> {
            Files.deleteIfExists(up);
            return 0;
        };
        cases.add(new Case("write-256MiB", "openssh-sftp", true, clearUp, () -> sftpBatch("put " + big + " " + up)));
        cases.add(new Case("write-256MiB", "remotepath-mina", false, clearUp, () -> {
            RemotePaths.of(big).copyTo(remote(up), StandardCopyOption.REPLACE_EXISTING);
            return 1;
        }));
        cases.add(new Case("write-256MiB", "remotepath-sshj", false, clearUp, () -> {
            RemotePaths.of(big).copyTo(remoteSshj(up), StandardCopyOption.REPLACE_EXISTING);
            return 1;
        }));
        if (rclone) {
            cases.add(new Case("write-256MiB", "rclone", false, clearUp, () -> rclone("copyto", big.toString(), "bench:" + up)));
        }

        Path[] fresh = {null};
        Op newTarget = () -> {
            fresh[0] = work.resolve("up").resolve("t" + System.nanoTime());
            return 0;
        };
        if (rclone) {
            cases.add(new Case("upload-1000x4KiB", "rclone", true, newTarget,
                    () -> rclone("copy", small.toString(), "bench:" + fresh[0])));
        }
        cases.add(new Case("upload-1000x4KiB", "openssh-sftp", !rclone, newTarget,
                () -> sftpBatch("mkdir " + fresh[0], "put -r " + small + "/. " + fresh[0])));
        cases.add(new Case("upload-1000x4KiB", "remotepath-mina", false, newTarget, () -> {
            TreeCopier.copy(RemotePaths.of(small), remote(fresh[0]));
            return 1;
        }));
        cases.add(new Case("upload-1000x4KiB", "remotepath-sshj", false, newTarget, () -> {
            TreeCopier.copy(RemotePaths.of(small), remoteSshj(fresh[0]));
            return 1;
        }));
        // rclone copy runs 4 transfers; PathSyncer is RemotePath's tool with the same parallelism.
        cases.add(new Case("upload-1000x4KiB", "remotepath-mina-sync", false, newTarget, () -> {
            var r = dev.remotepath.syncer.PathSyncer.builder(RemotePaths.of(small), remote(fresh[0])).build().run();
            if (!r.succeeded()) {
                throw new IllegalStateException("sync failed: " + r.errors());
            }
            return 1;
        }));

        cases.add(new Case("list-10k", "openssh-sftp", true, () -> sftpBatch("ls -l " + listed)));
        cases.add(new Case("list-10k", "remotepath-mina", false, () -> remote(listed).list().size() / 10_000));
        cases.add(new Case("list-10k", "remotepath-sshj", false, () -> remoteSshj(listed).list().size() / 10_000));
        if (rclone) {
            cases.add(new Case("list-10k", "rclone", false, () -> rclone("lsl", "--max-depth", "1", "bench:" + listed)));
            // sftp -b has no recursive listing: rclone's is the baseline of the walk.
            cases.add(new Case("walk-10k-110-dirs", "rclone", true, () -> rclone("lsl", "bench:" + walked)));
        }
        cases.add(new Case("walk-10k-110-dirs", "remotepath-mina", !rclone, () -> walk(remote(walked))));
        cases.add(new Case("walk-10k-110-dirs", "remotepath-sshj", false, () -> walk(remoteSshj(walked))));
        return cases;
    }

    @Override
    public List<Target> targets() {
        List<Target> t = new ArrayList<>(List.of(
                Target.speedup("read-256MiB", "remotepath-mina", "openssh-sftp", 1.0),
                Target.speedup("read-256MiB", "remotepath-sshj", "openssh-sftp", 1.0),
                Target.speedup("write-256MiB", "remotepath-mina", "openssh-sftp", 1.0),
                Target.speedup("write-256MiB", "remotepath-sshj", "openssh-sftp", 1.0)));
        if (rclone) {
            t.add(Target.speedup("upload-1000x4KiB", "remotepath-mina", "rclone", 1.5));
            t.add(Target.speedup("upload-1000x4KiB", "remotepath-sshj", "rclone", 1.5));
            t.add(Target.speedup("upload-1000x4KiB", "remotepath-mina-sync", "rclone", 1.5));
        }
        return t;
    }

    /** Entries of a walk with the sizes and times a sync compares (FILE_STATS): READDIRs only. */
    private static long walk(RemotePath root) throws IOException {
        try (var entries = root.walk(dev.remotepath.WalkOptions.defaults().withDetail(dev.remotepath.spi.ListDetail.FILE_STATS))) {
            long n = entries.count();
            if (n != 10_110) {
                throw new IllegalStateException("walk found " + n + " entries, expected 10110");
            }
            return n;
        }
    }

    private RemotePath remote(Path local) {
        return RemotePath.of(remoteRoot.fileSystem(), local.toAbsolutePath().toString());
    }

    private RemotePath remoteSshj(Path local) {
        return RemotePath.of(sshjRoot.fileSystem(), local.toAbsolutePath().toString());
    }

    private long sftpBatch(String... commands) throws Exception {
        Path batch = work.resolve("batch.txt");
        Files.writeString(batch, String.join("\n", commands) + "\n");
        Fixtures.exec("sftp", "-q", "-F", "/dev/null", "-b", batch.toString(), "-i", sshd.clientKey.toString(),
                "-o", "IdentitiesOnly=yes", "-o", "UserKnownHostsFile=" + sshd.knownHosts,
                "-o", "StrictHostKeyChecking=yes", "-P", Integer.toString(sshd.port), sshd.user + "@127.0.0.1");
        return 1;
    }

    private long rclone(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("env", "RCLONE_CONFIG=/dev/null",
                "RCLONE_CONFIG_BENCH_TYPE=sftp", "RCLONE_CONFIG_BENCH_HOST=127.0.0.1",
                "RCLONE_CONFIG_BENCH_PORT=" + sshd.port, "RCLONE_CONFIG_BENCH_USER=" + sshd.user,
                "RCLONE_CONFIG_BENCH_KEY_FILE=" + sshd.clientKey,
                "RCLONE_CONFIG_BENCH_KNOWN_HOSTS_FILE=" + sshd.knownHosts, "rclone", "--sftp-disable-hashcheck"));
        cmd.addAll(List.of(args));
        Fixtures.exec(cmd.toArray(String[]::new));
        return 1;
    }
}
