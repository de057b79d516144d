package dev.remotepath.mem;

import dev.remotepath.RemotePath;
import dev.remotepath.testkit.NioFacadeFileSystem;

/** The whole contract suite on mem, every primitive through {@code java.nio.file} ({@link NioFacadeFileSystem}). */
class MemNioFacadeContractTest extends MemContractTest {

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        return NioFacadeFileSystem.over(super.newTestDirectory());
    }
}
