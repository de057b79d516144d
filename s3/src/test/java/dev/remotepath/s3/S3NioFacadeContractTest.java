package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import dev.remotepath.testkit.NioFacadeFileSystem;

/** The whole contract suite over S3 (s3proxy), every primitive through {@code java.nio.file} ({@link NioFacadeFileSystem}). */
class S3NioFacadeContractTest extends S3ContractTest {

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        return NioFacadeFileSystem.over(super.newTestDirectory());
    }
}
