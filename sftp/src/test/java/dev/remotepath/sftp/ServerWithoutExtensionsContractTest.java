package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.spi.Capability;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The whole contract against a server that offers no OpenSSH extensions and no check-file:
 * without {@code posix-rename@openssh.com} nothing can be replaced atomically, so the backend
 * must not claim it, and replacing copies and moves must still work (and lose nothing);
 * checksums are streamed.
 */
class ServerWithoutExtensionsContractTest extends MinaServerContractTest {

    @Override
    TestSshServer newServer(Path work) throws Exception {
        return new TestSshServer(work, false);
    }

    @Test
    void claimsNeitherAtomicRenameNorNativeChecksums() throws Exception {
        var fs = newTestDirectory().fileSystem();
        assertThat(fs.capabilities()).contains(Capability.RENAME)
                .doesNotContain(Capability.ATOMIC_RENAME, Capability.NATIVE_CHECKSUM);
        assertThat(fs.nativeChecksums()).isEmpty();
    }
}
