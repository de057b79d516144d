package dev.remotepath.azure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.NioFacadeFileSystem;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The whole contract suite over Azure Blob, against Azurite. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AzureContractTest extends RemoteFileSystemContract {

    private Azurite azurite;
    private AzureOptions options;
    private final AtomicInteger cases = new AtomicInteger();

    @BeforeAll
    void start() throws Exception {
        azurite = Azurite.start();
        azurite.createContainer("contract");
        // The smallest blocks, so that the large-file cases stage and commit blocks.
        options = azurite.options(b -> b.blockSize(AzureOptions.MIN_BLOCK_SIZE));
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(URI.create("az://contract/"), options).fileSystem().close();
        azurite.close();
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        return RemotePaths.get(URI.create("az://contract/case-" + cases.incrementAndGet() + "/"), options)
                .createDirectory();
    }

    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        AzureOptions own = azurite.options(b -> b.blockSize(AzureOptions.MIN_BLOCK_SIZE).maxRetries(0));
        RemotePath root = RemotePaths.get(URI.create("az://contract/closing-" + cases.incrementAndGet() + "/"), own);
        root.resolve("f").writeString("x");
        return root;
    }

    /** Names Azure would not keep as given are refused by the backend (AzureFileSystem.name). */
    @Override
    protected boolean serverCanStore(String name) {
        return name.indexOf('\\') < 0 && !name.endsWith(".") && !name.contains("./");
    }

    /** A backslash or a trailing dot is refused with an error naming the path, never renamed. */
    @Test
    void namesAzureWouldChangeAreRefused() throws Exception {
        for (String name : new String[] {"back\\slash", "dot.", "dir./x"}) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> dir.resolve(name).writeString("x"))
                    .isInstanceOf(java.nio.file.FileSystemException.class).hasMessageContaining("kept as given");
        }
        assertThat(dir.list()).isEmpty();
    }

    /** No case leaves a read or write stream open. */
    @AfterEach
    void noStreamLeftOpen() {
        assertThat(((AzureFileSystem) NioFacadeFileSystem.backendOf(dir.fileSystem())).openStreams())
                .as("Azure streams left open").isZero();
    }

    /** The check above can fail: a stream held open is counted. */
    @Test
    void leakCheckSeesAStreamHeldOpen() throws Exception {
        RemotePath f = dir.resolve("held.txt").writeString("held");
        try (java.io.InputStream in = f.newInputStream();
                java.io.OutputStream out = dir.resolve("w.txt").newOutputStream()) {
            assertThat(in.read()).isEqualTo('h');
            assertThat(((AzureFileSystem) NioFacadeFileSystem.backendOf(dir.fileSystem())).openStreams()).isEqualTo(2);
        }
    }
}
