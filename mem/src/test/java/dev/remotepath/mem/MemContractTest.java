package dev.remotepath.mem;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/** The whole contract suite on a fresh mem volume per case. */
class MemContractTest extends RemoteFileSystemContract {

    /** This backend reports its store's space (StoreSpaceContract). */
    @Override
    public boolean reportsStoreSpace() {
        return true;
    }

    private RemotePath volumeRoot;

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        volumeRoot = RemotePaths.get("mem://contract-" + UUID.randomUUID() + "/");
        return volumeRoot.resolve("case").createDirectory();
    }

    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        RemotePath root = RemotePaths.get("mem://closing-" + UUID.randomUUID() + "/");
        root.resolve("f").writeString("x");
        return root;
    }

    /** Every case ends with every stream the api opened on the volume closed (the disk's check, for mem). */
    @AfterEach
    void closeVolume() throws Exception {
        try {
            ((MemFileSystem) volumeRoot.fileSystem()).checkNoOpenFiles();
        } finally {
            volumeRoot.fileSystem().close();
        }
    }
}
