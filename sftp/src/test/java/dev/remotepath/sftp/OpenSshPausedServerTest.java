package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncListener;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.OpenSshd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * OpenSSH paused with SIGSTOP (kill -STOP) while a sync runs against it: connections stay open
 * and nothing answers. Each request times out (SftpOptions.readTimeout) and the run gives up
 * after a few timeouts in a row, with both clients, instead of running until the server resumes.
 */
class OpenSshPausedServerTest {

    @TempDir
    Path work;

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aSyncAgainstAPausedServerEndsByItself(SftpOptions.Client client) throws Exception {
        OpenSshContractTest.requireInstalled(OpenSshd.SSHD, "OpenSSH sshd", "openssh-server");
        Path src = Files.createDirectories(work.resolve("src"));
        for (int d = 0; d < 20; d++) {
            Path dir = Files.createDirectories(src.resolve("d" + d));
            for (int f = 0; f < 20; f++) {
                Files.writeString(dir.resolve("f" + f), "x".repeat(100));
            }
        }
        Path dst = Files.createDirectories(work.resolve("dst"));
        try (OpenSshd server = new OpenSshd(Files.createDirectories(work.resolve("server")))) {
            SftpOptions options = SftpOptions.builder().identityFiles(java.util.List.of(server.clientKey))
                    .knownHosts(server.knownHosts).client(client).readTimeout(Duration.ofSeconds(2))
                    .connectTimeout(Duration.ofSeconds(2)).build();
            RemotePath target = RemotePaths.get(server.uri(dst), options);
            try {
                assertThat(target.isDirectory()).isTrue(); // connected before the pause
                java.util.concurrent.atomic.AtomicBoolean paused = new java.util.concurrent.atomic.AtomicBoolean();
                SyncListener pauseAtFirstCopy = new SyncListener() {
                    @Override
                    public void started(dev.remotepath.syncer.SyncAction a) {
                        if (a.kind() == dev.remotepath.syncer.SyncAction.Kind.COPY_NEW && !paused.getAndSet(true)) {
                            try {
                                server.pause(true);
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    }
                };
                SyncReport r = assertTimeoutPreemptively(Duration.ofSeconds(60),
                        () -> PathSyncer.builder(RemotePaths.of(src), target).listener(pauseAtFirstCopy).build().run());
                assertThat(r.succeeded()).isFalse();
                assertThat(r.errors()).isNotEmpty().hasSizeLessThan(100);
                assertThat(r.errors().toString()).contains("127.0.0.1:" + server.port);
                assertThat(r.refusal()).as(r.errors().toString()).hasValueSatisfying(m -> assertThat(m).contains("gave up"));
            } finally {
                server.pause(false);
                target.fileSystem().close();
            }
        }
    }
}
