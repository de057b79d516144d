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

/**
 * Every PathSyncer case over pairs with a real SFTP server program on either side, through both
 * clients: local to SFTP (MINA), SFTP (sshj) to mem, and SFTP to SFTP across the two clients.
 * A subclass names the server; the contract test of the same server says what differs there.
 */
abstract class RealServerSyncPairTest extends PathSyncerTest {

    private Path work;
    private Path served;
    private RealSftpServer server;
    private SftpOptions mina;
    private SftpOptions sshj;
    private final AtomicInteger roots = new AtomicInteger();

    /** Starts the server, serving {@code served} (skipping, or in CI failing, where it is missing). */
    abstract RealSftpServer start(Path work, Path served) throws Exception;

    /** Whether the server keeps symbolic links (see RealSftpServerContractTest's hook of the same meaning). */
    boolean serverKeepsLinks() {
        return true;
    }

    /** Whether the server keeps permissions (see RealSftpServerContractTest's hook of the same meaning). */
    boolean serverKeepsPermissions() {
        return true;
    }

    /** A fresh directory on the server through {@code client}, for cases of a subclass's own. */
    RemotePath newRoot(SftpOptions.Client client) throws Exception {
        return new Side(client).newRoot(List.of());
    }

    /** A fresh directory on the server, through one client. */
    private final class Side implements Backend {
        private final SftpOptions.Client client;

        Side(SftpOptions.Client client) {
            this.client = client;
        }

        @Override
        public RemotePath newRoot(List<AutoCloseable> cleanup) throws Exception {
            Path root = Files.createDirectories(served.resolve("root-" + roots.incrementAndGet()));
            return RemotePaths.get(server.uri(root), client == SftpOptions.Client.MINA ? mina : sshj);
        }

        @Override
        public boolean serverKeepsLinks() {
            return RealServerSyncPairTest.this.serverKeepsLinks();
        }

        @Override
        public boolean serverKeepsPermissions() {
            return RealServerSyncPairTest.this.serverKeepsPermissions();
        }

        @Override
        public String toString() {
            return server.name() + "/" + client;
        }
    }

    @BeforeAll
    void startServer() throws Exception {
        work = Files.createTempDirectory("rp-sftpd-sync-");
        served = Files.createDirectories(work.resolve("served"));
        server = start(Files.createDirectories(work.resolve("server")), served);
        mina = server.options(SftpOptions.Client.MINA);
        sshj = server.options(SftpOptions.Client.SSHJ);
    }

    @AfterAll
    void stopServer() throws Exception {
        if (server != null) {
            RemotePaths.get(server.uri(served), mina).fileSystem().close();
            RemotePaths.get(server.uri(served), sshj).fileSystem().close();
            server.close();
        }
        LocalTrees.delete(work);
    }

    @Override
    protected Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Local.LOCAL, new Side(SftpOptions.Client.MINA)),
                Arguments.of(new Side(SftpOptions.Client.SSHJ), Local.MEM),
                Arguments.of(new Side(SftpOptions.Client.MINA), new Side(SftpOptions.Client.SSHJ)));
    }
}
