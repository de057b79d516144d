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
 * The whole contract suite on a fresh temporary directory. Surefire runs this class twice:
 * with the lister chosen automatically (FFM on Linux) and with {@code remotepath.local.lister=nio}.
 */
class LocalContractTest extends RemoteFileSystemContract {

    private Path temp;

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        temp = Files.createTempDirectory("rp-contract-");
        return RemotePaths.of(temp);
    }

    @AfterEach
    void removeTemp() throws Exception {
        LocalTrees.delete(temp);
    }

    @Test
    void listerIsTheOneAskedFor() {
        String wanted = System.getProperty(LocalFileSystem.LISTER_PROPERTY, "auto");
        String actual = LocalFileSystem.instance().listerDescription();
        if (wanted.equals("nio")) {
            assertThat(actual).startsWith("nio");
        } else if (System.getProperty("os.name").equals("Linux")) {
            LocalFileSystem.instance().awaitBinding();
            assertThat(LocalFileSystem.instance().listerDescription())
                    .as("surefire grants native access, so Linux must use the FFM lister").startsWith("ffm");
        }
    }
}
