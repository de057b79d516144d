package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.testkit.OpenSshd;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The whole contract suite over SFTP (MINA client) against the system's OpenSSH with
 * internal-sftp. .ci/run installs openssh-server; where it is missing the suite is skipped,
 * saying so (and fails in CI).
 */
class OpenSshContractTest extends RealSftpServerContractTest {

    /** The server sends uid and gid with every file's attributes. */
    @Override
    protected boolean reportsOwners() {
        return true;
    }

    /** This backend reports its store's space (StoreSpaceContract). */
    @Override
    public boolean reportsStoreSpace() {
        return true;
    }

    /** The SFTP server sshd runs; subclasses run the contract against other servers as its subsystem. */
    String subsystem() {
        return "internal-sftp";
    }

    @Override
    RealSftpServer startServer(Path work) throws Exception {
        requireInstalled(OpenSshd.SSHD, "OpenSSH sshd", "openssh-server");
        if (subsystem().startsWith("/")) {
            requireInstalled(Path.of(subsystem()), subsystem(), "its Debian package");
        }
        return RealSftpServer.openSsh(work, subsystem());
    }

    @Override
    boolean hasCopyData() {
        return true;
    }

    /** Key login with the server's own known_hosts. */
    static SftpOptions optionsFor(OpenSshd server) {
        return optionsFor(server, SftpOptions.Client.MINA);
    }

    static SftpOptions optionsFor(OpenSshd server, SftpOptions.Client client) {
        return SftpOptions.builder().identityFiles(java.util.List.of(server.clientKey)).knownHosts(server.knownHosts)
                .client(client).build();
    }

    @Test
    void checksumsAreStreamedBecauseOpenSshOffersNoCheckFile() throws Exception {
        RemotePath f = dir.resolve("hello").writeString("hello");
        var md5 = f.checksum(dev.remotepath.ChecksumAlgorithm.MD5);
        assertThat(md5.origin()).isEqualTo(dev.remotepath.Checksum.Origin.STREAMED);
        assertThat(md5.hex()).isEqualTo("5d41402abc4b2a76b9719d911017c592");
        assertThat(f.fileSystem().nativeChecksums()).isEmpty();
    }
}
