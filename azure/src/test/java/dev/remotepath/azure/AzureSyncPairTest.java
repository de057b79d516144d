package dev.remotepath.azure;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncerTest;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.provider.Arguments;

/** Every PathSyncer case over local → Azure, Azure → mem, and Azure → Azure (server-side copies), on Azurite. */
class AzureSyncPairTest extends PathSyncerTest {

    private Azurite azurite;
    private AzureOptions options;
    private final AtomicInteger roots = new AtomicInteger();

    /** A fresh directory in the test container. */
    private final class Container implements Backend {
        @Override
        public RemotePath newRoot(List<AutoCloseable> cleanup) throws Exception {
            return RemotePaths.get(URI.create("az://pairs/root-" + roots.incrementAndGet() + "/"), options)
                    .createDirectory();
        }

        @Override
        public String toString() {
            return "Azure";
        }
    }

    @BeforeAll
    void start() throws Exception {
        azurite = Azurite.start();
        azurite.createContainer("pairs");
        options = azurite.options();
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(URI.create("az://pairs/"), options).fileSystem().close();
        azurite.close();
    }

    @Override
    protected Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Local.LOCAL, new Container()), Arguments.of(new Container(), Local.MEM),
                Arguments.of(new Container(), new Container()));
    }
}
