package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.OpenSshd;
import dev.remotepath.tree.TreeCopier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The system's OpenSSH killed with SIGKILL (listener and session processes) while a client
 * works: every operation after it fails promptly with an IOException naming the server, never
 * hangs, and a copy cut off midway leaves nothing under the target's name.
 */
class OpenSshKilledServerTest {

    @TempDir
    Path work;

    private OpenSshd start() throws Exception {
        boolean installed = Files.isExecutable(OpenSshd.SSHD);
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("OpenSSH sshd is not installed (" + OpenSshd.SSHD + "); .ci/run installs it");
        }
        assumeTrue(installed, "OpenSSH sshd is not installed: skipped");
        return new OpenSshd(work);
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void operationsAfterTheKillFailPromptlyNamingTheServer(SftpOptions.Client client) throws Exception {
        OpenSshd server = start();
        Path data = Files.createDirectories(work.resolve("data"));
        Files.writeString(data.resolve("a.txt"), "alive");
        RemotePath dir = RemotePaths.get(server.uri(data), OpenSshContractTest.optionsFor(server, client));
        assertThat(dir.resolve("a.txt").readString()).isEqualTo("alive");
        server.kill();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int i = 0; i < 3; i++) { // the first sees the dead session, the others a refused reconnect
                assertThatThrownBy(() -> dir.resolve("a.txt").readString()).isInstanceOf(IOException.class)
                        .hasMessageContaining("127.0.0.1:" + server.port);
                assertThatThrownBy(dir::list).isInstanceOf(IOException.class)
                        .hasMessageContaining("127.0.0.1:" + server.port);
            }
        });
        dir.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aCopyCutOffByTheKillLeavesNothingUnderTheTargetName(SftpOptions.Client client) throws Exception {
        OpenSshd server = start();
        RemotePath source = RemotePaths.get("mem://sftp-kill-" + UUID.randomUUID() + "/big.bin");
        byte[] block = new byte[1 << 20];
        new Random(7).nextBytes(block);
        try (var out = source.newOutputStream()) {
            for (int i = 0; i < 48; i++) {
                out.write(block);
            }
        }
        Path dropDir = Files.createDirectories(work.resolve("drop"));
        RemotePath target = RemotePaths.get(server.uri(dropDir.resolve("big.bin")), OpenSshContractTest.optionsFor(server, client));
        AtomicLong written = new AtomicLong();
        AtomicBoolean killed = new AtomicBoolean();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
                assertThatThrownBy(() -> TreeCopier.copy(source, target, n -> {
                    if (written.addAndGet(n) > (2 << 20) && killed.compareAndSet(false, true)) {
                        try {
                            server.kill();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                })).isInstanceOf(IOException.class).hasMessageContaining("127.0.0.1:" + server.port));
        assertThat(killed).isTrue();
        // The temporary may remain (nobody is left to delete it), but never a partial big.bin.
        assertThat(dropDir.resolve("big.bin")).doesNotExist();
        source.fileSystem().close();
        target.fileSystem().close();
    }
}
