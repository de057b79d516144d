package dev.remotepath.sftp;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The whole contract suite over SFTP (MINA client) against an in-process MINA SSHD server. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MinaServerContractTest extends RemoteFileSystemContract {

    private Path work;
    private TestSshServer server;
    private final AtomicInteger cases = new AtomicInteger();

    /** The server this class runs the contract against. */
    TestSshServer newServer(Path work) throws Exception {
        return new TestSshServer(work);
    }

    @BeforeAll
    void start() throws Exception {
        work = Files.createTempDirectory("rp-sftp-");
        server = newServer(work);
    }

    @AfterAll
    void stop() throws Exception {
        RemotePaths.get(server.uri("/"), server.options()).fileSystem().close();
        server.close();
        try (Stream<Path> all = Files.walk(work)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        String name = "case-" + cases.incrementAndGet();
        Files.createDirectories(server.root.resolve(name));
        return RemotePaths.get(server.uri("/" + name), server.options());
    }
}
