package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.LocalTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link MinaTransport}: a session's packets are handled by the threads polling its socket, which end with the client. */
class MinaTransportTest {

    private static Path work;
    private static TestSshServer server;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("rp-mina-transport-");
        server = new TestSshServer(work);
        Files.writeString(server.root.resolve("a.txt"), "a");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        LocalTrees.delete(work);
    }

    @Test
    void aSessionsPacketsAreHandledOnTheThreadsPollingItsSocketAndTheyEndWithTheClient() throws Exception {
        SshClient client = SshClient.setUpDefaultClient();
        client.setServerKeyVerifier(AcceptAllServerKeyVerifier.INSTANCE);
        client.setIoServiceFactoryFactory(new MinaTransport());
        List<String> handledOn = new java.util.concurrent.CopyOnWriteArrayList<>();
        client.addSessionListener(new SessionListener() {
            @Override
            public void sessionEvent(Session session, Event event) {
                handledOn.add(event + " on " + Thread.currentThread().getName());
            }
        });
        client.start();
        String polling = client + MinaTransport.POLLING_NAME;
        try {
            try (ClientSession s = client.connect(TestSshServer.USER, "127.0.0.1", server.port()).verify(Duration.ofSeconds(10))
                    .getSession()) {
                s.addPasswordIdentity(TestSshServer.PASSWORD);
                s.auth().verify(Duration.ofSeconds(10));
            }
            // the key exchange's messages and the login's answer: read and handled by the same threads
            assertThat(handledOn).anyMatch(e -> e.startsWith("KeyEstablished")).anyMatch(e -> e.startsWith("Authenticated"))
                    .allMatch(e -> e.contains(polling + "-thread-"), "handled on a thread of " + polling);
            assertThat(threadsNamed(polling)).hasSizeBetween(1, MinaTransport.POLLING_THREADS);
        } finally {
            client.stop();
        }
        assertThat(awaitEnd(Set.copyOf(threadsNamed(polling)))).as("threads left after the client stopped").isEmpty();
    }

    @Test
    void aMinaFileSystemsPollingThreadsEndWhenItCloses() throws Exception {
        Set<String> before = threadsNamed(MinaTransport.POLLING_NAME);
        RemotePath dir = RemotePaths.get(server.uri("/"), server.options(SftpOptions.Client.MINA));
        Set<String> opened;
        try {
            assertThat(dir.resolve("a.txt").readString()).isEqualTo("a");
            opened = threadsNamed(MinaTransport.POLLING_NAME);
            opened.removeAll(before);
            assertThat(opened).as("the file system's own polling threads").isNotEmpty();
        } finally {
            dir.fileSystem().close();
        }
        assertThat(awaitEnd(opened)).as("threads left after the file system closed").isEmpty();
    }

    private static Set<String> threadsNamed(String part) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.contains(part)).collect(Collectors.toCollection(java.util.HashSet::new));
    }

    /** Those of {@code names} still alive after up to 5 s (a group's threads end soon after its shutdown, not at once). */
    private static Set<String> awaitEnd(Set<String> names) throws InterruptedException {
        Set<String> alive = ConcurrentHashMap.newKeySet();
        for (long end = System.nanoTime() + 5_000_000_000L;;) {
            alive.clear();
            for (String n : threadsNamed("")) {
                if (names.contains(n)) {
                    alive.add(n);
                }
            }
            if (alive.isEmpty() || System.nanoTime() > end) {
                return alive;
            }
            Thread.sleep(20);
        }
    }
}
