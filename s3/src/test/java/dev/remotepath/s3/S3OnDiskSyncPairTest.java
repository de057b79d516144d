package dev.remotepath.s3;

/**
 * Every PathSyncer case with s3proxy's file system provider on S3's side: a store that keeps
 * directories, lists an empty one as a prefix with nothing inside and leaves markers out of
 * their own listings.
 */
class S3OnDiskSyncPairTest extends S3SyncPairTest {

    @Override
    S3TestStore newServer() throws Exception {
        return TestS3Server.onDisk();
    }
}
