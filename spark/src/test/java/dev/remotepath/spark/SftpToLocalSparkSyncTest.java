package dev.remotepath.spark;

import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.sftp.SftpOptions;
import dev.remotepath.testkit.OpenSshd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The pair contract, SFTP on OpenSSH's sshd to the local disk; executors log in with a key file
 * and check the host key against a known_hosts file, both named in the options (paths, not secrets).
 */
class SftpToLocalSparkSyncTest extends SparkSyncPairContract {

    static Path work;
    static OpenSshd sshd;

    /** SFTP's options as executors make them. */
    record SftpKeys(String identity, String knownHosts) implements Location.OptionsFactory {
        @Override
        public FileSystemOptions create() {
            return SftpOptions.builder().identityFiles(List.of(Path.of(identity))).knownHosts(Path.of(knownHosts)).build();
        }
    }

    @BeforeAll
    static void startSshd() throws Exception {
        assumeThat(Files.isExecutable(OpenSshd.SSHD)).as("OpenSSH's sshd").isTrue();
        work = Files.createTempDirectory("spark-sshd");
        sshd = new OpenSshd(work);
    }

    @AfterAll
    static void stopSshd() throws Exception {
        if (sshd != null) {
            sshd.close();
        }
        if (work != null) {
            dev.remotepath.testkit.LocalTrees.delete(work);
        }
    }

    @Override
    Location source(Path dir) {
        return Location.of(sshd.uri(dir).toString(), new SftpKeys(sshd.clientKey.toString(), sshd.knownHosts.toString()));
    }

    @Override
    Location target(String name) {
        return Location.of(temp.resolve("dst-" + name).toUri().toString());
    }
}
