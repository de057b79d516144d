package dev.remotepath.http;

import dev.remotepath.RemotePath;
import dev.remotepath.testkit.NioFacadeFileSystem;

/** The whole contract suite over HTTP, every primitive through {@code java.nio.file} ({@link NioFacadeFileSystem}). */
class HttpNioFacadeContractTest extends HttpContractTest {

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        return NioFacadeFileSystem.over(super.newTestDirectory());
    }
}
