package dev.remotepath.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The whole contract suite on a fresh temporary directory. Surefire runs this class twice: with
 * the FFM lister forced ({@code remotepath.local.lister=ffm}, on Linux; elsewhere the lister is
 * chosen automatically) and with the NIO lister forced ({@code remotepath.local.lister=nio}).
 */
class LocalContractTest extends RemoteFileSystemContract {

    /** This backend reports its store's space (StoreSpaceContract). */
    @Override
    public boolean reportsStoreSpace() {
        return true;
    }

    private Path temp;

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        temp = Files.createTempDirectory("rp-contract-");
        return RemotePaths.of(temp);
    }

    /** The backend's own descriptors (and the FFM lister's directory fds): none may outlive a case. */
    @Override
    protected java.util.Optional<Path> diskDirectoryOf(RemotePath dir) {
        return java.util.Optional.of(temp);
    }

    @AfterEach
    void removeTemp() throws Exception {
        try {
            assertNoFileLeftOpen(); // before the directory goes: this runs ahead of the contract's own check
        } finally {
            LocalTrees.delete(temp);
        }
    }

    /** Looks, and causes nothing: the lister serving this run's cases is the one the build forced. */
    @Test
    void listerIsTheOneAskedFor() {
        String wanted = System.getProperty(LocalFileSystem.LISTER_PROPERTY, "auto");
        String actual = LocalFileSystem.instance().listerDescription();
        switch (wanted) {
            case "nio" -> assertThat(actual).startsWith("nio (forced");
            case "ffm" -> assertThat(actual).startsWith("ffm (forced");
            default -> assertThat(actual).as("auto mode lists through NIO until the FFM lister binds").startsWith("nio");
        }
    }
}
