package dev.remotepath.s3;

/** Every PathSyncer case with Adobe S3Mock, in a network namespace of its own, on S3's side. */
class S3MockSyncPairTest extends S3SyncPairTest {

    @Override
    S3TestStore newServer() throws Exception {
        return S3MockServer.start();
    }
}
