package dev.remotepath.sftp;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.OpenSshd;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The whole contract suite over SFTP (MINA client) against the system's OpenSSH. .ci/run
 * installs openssh-server; where it is missing the suite is skipped, saying so (and fails in CI).
 */
class OpenSshContractTest extends RemoteFileSystemContract {

    private static Path work;
    private static OpenSshd server;
    private static final AtomicInteger CASES = new AtomicInteger();
    private static dev.remotepath.spi.RemoteFileSystem fileSystem;

    @BeforeAll
    static void start() throws Exception {
        boolean installed = Files.isExecutable(OpenSshd.SSHD);
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("OpenSSH sshd is not installed (" + OpenSshd.SSHD + "); .ci/run installs it");
        }
        assumeTrue(installed, "OpenSSH sshd is not installed: the OpenSSH contract run is skipped");
        work = Files.createTempDirectory("rp-openssh-");
        server = new OpenSshd(work);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server == null) {
            return;
        }
        if (fileSystem != null) {
            fileSystem.close();
            fileSystem = null;
        }
        server.close();
        server = null;
        LocalTrees.delete(work);
    }

    /** Key login with the server's own known_hosts. */
    static SftpOptions optionsFor(OpenSshd server) {
        return optionsFor(server, SftpOptions.Client.MINA);
    }

    static SftpOptions optionsFor(OpenSshd server, SftpOptions.Client client) {
        return SftpOptions.builder().identityFiles(java.util.List.of(server.clientKey)).knownHosts(server.knownHosts)
                .client(client).build();
    }

    /** The client library this class runs the contract through. */
    SftpOptions.Client client() {
        return SftpOptions.Client.MINA;
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        Path dir = Files.createDirectories(work.resolve("case-" + CASES.incrementAndGet()));
        RemotePath p = RemotePaths.get(server.uri(dir), optionsFor(server, client()));
        fileSystem = p.fileSystem();
        return p;
    }

    @org.junit.jupiter.api.Test
    void checksumsAreStreamedBecauseOpenSshOffersNoCheckFile() throws Exception {
        RemotePath f = dir.resolve("hello").writeString("hello");
        var md5 = f.checksum(dev.remotepath.ChecksumAlgorithm.MD5);
        org.assertj.core.api.Assertions.assertThat(md5.origin()).isEqualTo(dev.remotepath.Checksum.Origin.STREAMED);
        org.assertj.core.api.Assertions.assertThat(md5.hex()).isEqualTo("5d41402abc4b2a76b9719d911017c592");
        org.assertj.core.api.Assertions.assertThat(f.fileSystem().nativeChecksums()).isEmpty();
    }
}
