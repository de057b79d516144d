package dev.remotepath.sftp;

import dev.remotepath.RemotePath;
import dev.remotepath.testkit.NioFacadeFileSystem;

/**
 * The whole contract suite over SFTP (MINA client, in-process MINA server), every primitive
 * through {@code java.nio.file} ({@link NioFacadeFileSystem}).
 */
class MinaServerNioFacadeContractTest extends MinaServerContractTest {

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        return NioFacadeFileSystem.over(super.newTestDirectory());
    }

    /**
     * Not run here (no {@code @Test}): it compares the two clients' capabilities, and the
     * facade offers fewer (no native checksums or batch deletes through NIO) by design.
     */
    @Override
    void bothClientsAgree() {
    }
}
