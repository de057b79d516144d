package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.OpenSshd;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A copy onto an SFTP server whose disk is full (a 256 KiB tmpfs the test mounts): OpenSSH
 * answers FAILURE, and the error says the disk is full, naming the target rather than its
 * temporary; nothing is left behind. Needs root to mount (CI runs as root).
 */
class OpenSshFullDiskTest {

    @TempDir
    Path work;

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aFullDiskSaysSo(SftpOptions.Client client) throws Exception {
        OpenSshContractTest.requireInstalled(OpenSshd.SSHD, "OpenSSH sshd", "openssh-server");
        try (dev.remotepath.testkit.Tmpfs disk = dev.remotepath.testkit.Tmpfs.mountOrSkip(work.resolve("full"), "256k"); OpenSshd server = new OpenSshd(Files.createDirectories(work.resolve("server")))) {
            Path full = disk.path();
            RemotePath source = RemotePaths.get("mem://full-" + UUID.randomUUID() + "/big.bin").write(new byte[1 << 20]);
            RemotePath target = RemotePaths.get(server.uri(full.resolve("big.bin")), OpenSshContractTest.optionsFor(server, client));
            try {
                assertThatThrownBy(() -> source.copyTo(target)).isInstanceOf(FileSystemException.class)
                        .hasMessageContaining("no space left on the server")
                        .hasMessageStartingWith(target.toString() + ":");
                try (Stream<Path> left = Files.list(full)) {
                    assertThat(left).isEmpty();
                }
            } finally {
                target.fileSystem().close();
                source.fileSystem().close();
            }
        }
    }

    /**
     * copy-data (the server copies, the bytes never cross the connection) from the server's
     * own disk onto its full tmpfs: the old target stays, and neither the temporary the copy
     * went into nor any part of it is left.
     */
    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aServerSideCopyOntoAFullDiskLeavesTheOldTarget(SftpOptions.Client client) throws Exception {
        OpenSshContractTest.requireInstalled(OpenSshd.SSHD, "OpenSSH sshd", "openssh-server");
        try (dev.remotepath.testkit.Tmpfs disk = dev.remotepath.testkit.Tmpfs.mountOrSkip(work.resolve("full"), "256k"); OpenSshd server = new OpenSshd(Files.createDirectories(work.resolve("server")))) {
            Path full = disk.path();
            Files.write(work.resolve("big.bin"), new byte[1 << 20]);
            Files.writeString(full.resolve("t.bin"), "the old target");
            SftpOptions options = OpenSshContractTest.optionsFor(server, client);
            RemotePath source = RemotePaths.get(server.uri(work.resolve("big.bin")), options);
            RemotePath target = RemotePaths.get(server.uri(full.resolve("t.bin")), options);
            try {
                assertThat(source.fileSystem().capabilities()).contains(dev.remotepath.spi.Capability.SERVER_SIDE_COPY);
                assertThatThrownBy(() -> source.copyTo(target, java.nio.file.StandardCopyOption.REPLACE_EXISTING))
                        .isInstanceOf(FileSystemException.class);
                assertThat(Files.readString(full.resolve("t.bin"))).isEqualTo("the old target");
                try (Stream<Path> left = Files.list(full)) {
                    assertThat(left.map(p -> p.getFileName().toString())).containsExactly("t.bin");
                }
            } finally {
                source.fileSystem().close();
            }
        }
    }
}
