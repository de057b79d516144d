package dev.remotepath.sftp;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.PathSyncerTest;
import dev.remotepath.testkit.LocalTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.provider.Arguments;

/** Every PathSyncer case over pairs with SFTP on either side, through both clients (in-process MINA SSHD). */
class SftpSyncPairTest extends PathSyncerTest {

    private Path work;
    private TestSshServer server;
    private SftpOptions mina;
    private SftpOptions sshj;
    private final AtomicInteger roots = new AtomicInteger();

    /** A fresh directory on the test server, through one client. */
    private final class Side implements Backend {
        private final SftpOptions.Client client;

        Side(SftpOptions.Client client) {
            this.client = client;
        }

        @Override
        public RemotePath newRoot(List<AutoCloseable> cleanup) throws Exception {
            String name = "root-" + roots.incrementAndGet();
            Files.createDirectories(server.root.resolve(name));
            return RemotePaths.get(server.uri("/" + name), client == SftpOptions.Client.MINA ? mina : sshj);
        }

        @Override
        public String toString() {
            return "SFTP/" + client;
        }
    }

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-sftp-sync-");
        server = new TestSshServer(work);
        mina = server.options(SftpOptions.Client.MINA);
        sshj = server.options(SftpOptions.Client.SSHJ);
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(server.uri("/"), mina).fileSystem().close();
        RemotePaths.get(server.uri("/"), sshj).fileSystem().close();
        server.close();
        LocalTrees.delete(work);
    }

    @Override
    protected Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Local.LOCAL, new Side(SftpOptions.Client.MINA)),
                Arguments.of(new Side(SftpOptions.Client.SSHJ), Local.MEM),
                Arguments.of(new Side(SftpOptions.Client.MINA), new Side(SftpOptions.Client.SSHJ)));
    }
}
