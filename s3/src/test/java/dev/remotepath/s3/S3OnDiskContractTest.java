package dev.remotepath.s3;

/**
 * The whole contract suite over S3 against s3proxy's file system provider: a store that keeps
 * directories as directories, so an emptied prefix stays listed by its parent.
 */
class S3OnDiskContractTest extends S3ContractTest {

    @Override
    S3TestStore newServer() throws Exception {
        return TestS3Server.onDisk();
    }
}
