package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.spi.Capability;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The whole contract against a server that offers no OpenSSH extensions: without
 * {@code posix-rename@openssh.com} nothing can be replaced atomically, so the backend must not
 * claim it, and replacing copies and moves must still work (and lose nothing).
 */
class ServerWithoutExtensionsContractTest extends MinaServerContractTest {

    @Override
    TestSshServer newServer(Path work) throws Exception {
        return new TestSshServer(work, false);
    }

    @Test
    void claimsNoAtomicRename() throws Exception {
        assertThat(newTestDirectory().fileSystem().capabilities()).doesNotContain(Capability.ATOMIC_RENAME);
    }
}
