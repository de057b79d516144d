package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.LocalTrees;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.stream.Stream;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Connecting: each failure is its own clear exception naming user, host and port, never the password. */
class SftpConnectionTest {

    private static Path work;
    private static TestSshServer server;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("rp-sftp-conn-");
        server = new TestSshServer(work);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        LocalTrees.delete(work);
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void wrongPasswordIsAccessDeniedWithoutThePassword(SftpOptions.Client client) {
        SftpOptions wrong = SftpOptions.builder().password("not-the-password"::toCharArray).knownHosts(server.knownHosts)
                .client(client).build();
        assertThatThrownBy(() -> RemotePaths.get(server.uri("/"), wrong))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("tester@127.0.0.1:" + server.port())
                .hasMessageContaining("authentication failed")
                .hasMessageNotContaining("not-the-password");
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void keysAreTriedFirstAndThePasswordIsAskedOnlyOnceTheyAreRefused(SftpOptions.Client client) throws Exception {
        Path refused = work.resolve("refused_" + client);
        dev.remotepath.testkit.ServerProcesses.keygen(refused, false);
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        SftpOptions.Builder options = SftpOptions.builder().client(client).noAgent().defaultIdentityFiles(java.util.List.of())
                .knownHosts(server.knownHosts).password(() -> {
                    asked.incrementAndGet();
                    return TestSshServer.PASSWORD.toCharArray();
                });
        server.authAttempts.clear();
        RemotePath p = RemotePaths.get(server.uri("/"), options.identityFiles(java.util.List.of(refused)).build());
        assertThat(p.isDirectory()).isTrue();
        p.fileSystem().close();
        assertThat(asked.get()).as("password asked once, after the key").isEqualTo(1);
        assertThat(server.authAttempts).contains("publickey", "password");
        assertThat(server.authAttempts.indexOf("publickey")).isLessThan(server.authAttempts.indexOf("password"));

        // A key the server takes: the password is never asked (MINA asked it before any key).
        Path accepted = work.resolve("accepted_" + client);
        dev.remotepath.testkit.ServerProcesses.keygen(accepted, false);
        server.authorize(work.resolve("accepted_" + client + ".pub"));
        asked.set(0);
        server.authAttempts.clear();
        RemotePath q = RemotePaths.get(server.uri("/"), options.identityFiles(java.util.List.of(refused, accepted)).build());
        assertThat(q.isDirectory()).isTrue();
        q.fileSystem().close();
        assertThat(asked.get()).isZero();
        assertThat(server.authAttempts).doesNotContain("password");
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void unknownHostKeyIsRefusedByDefaultAndAcceptedWhenAsked(SftpOptions.Client client) throws Exception {
        Path empty = Files.writeString(work.resolve("empty_known_hosts_" + client), "");
        SftpOptions strict = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray).knownHosts(empty)
                .client(client).build();
        assertThatThrownBy(() -> RemotePaths.get(server.uri("/"), strict))
                .isInstanceOf(HostKeyException.class)
                .hasMessageContaining("127.0.0.1:" + server.port())
                .hasMessageContaining("not in " + empty)
                .hasMessageContaining("SHA256:");
        SftpOptions acceptNew = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray).knownHosts(empty)
                .hostKeyPolicy(SftpOptions.HostKeyPolicy.ACCEPT_NEW).client(client).build();
        RemotePath p = RemotePaths.get(server.uri("/"), acceptNew);
        assertThat(p.isDirectory()).isTrue();
        p.fileSystem().close();
        // The key was recorded: a strict connection now succeeds.
        assertThat(Files.readString(empty)).contains("[127.0.0.1]:" + server.port());
        RemotePath again = RemotePaths.get(server.uri("/"), strict);
        assertThat(again.isDirectory()).isTrue();
        again.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void changedHostKeyIsRefusedEvenWhenNewKeysAreAccepted(SftpOptions.Client client) throws Exception {
        var gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(256);
        Path other = Files.writeString(work.resolve("changed_known_hosts"),
                "[127.0.0.1]:" + server.port() + " " + PublicKeyEntry.toString(gen.generateKeyPair().getPublic()) + "\n");
        SftpOptions opts = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray).knownHosts(other)
                .hostKeyPolicy(SftpOptions.HostKeyPolicy.ACCEPT_NEW).client(client).build();
        assertThatThrownBy(() -> RemotePaths.get(server.uri("/"), opts))
                .isInstanceOf(HostKeyException.class)
                .hasMessageContaining("CHANGED");
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aRevokedKeyIsRefusedBesideAValidLine(SftpOptions.Client client) throws Exception {
        String valid = Files.readString(server.knownHosts);
        String key = valid.lines().findFirst().orElseThrow().split(" ", 2)[1];
        Path file = Files.writeString(work.resolve("revoked_known_hosts_" + client), valid + "@revoked * " + key + "\n");
        SftpOptions opts = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray).knownHosts(file)
                .client(client).build();
        assertThatThrownBy(() -> RemotePaths.get(server.uri("/"), opts))
                .isInstanceOf(HostKeyException.class).hasMessageContaining("REVOKED");
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aWildcardLineWithAnotherKeyIsAChangedKeyEvenWithAcceptNew(SftpOptions.Client client) throws Exception {
        var gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(256);
        Path file = Files.writeString(work.resolve("wildcard_known_hosts_" + client),
                "* " + PublicKeyEntry.toString(gen.generateKeyPair().getPublic()) + "\n");
        SftpOptions opts = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray).knownHosts(file)
                .hostKeyPolicy(SftpOptions.HostKeyPolicy.ACCEPT_NEW).client(client).build();
        assertThatThrownBy(() -> RemotePaths.get(server.uri("/"), opts))
                .isInstanceOf(HostKeyException.class).hasMessageContaining("CHANGED");
        assertThat(Files.readString(file).lines()).hasSize(1); // nothing recorded
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aPublicKeyGivenAsIdentityIsAClearError(SftpOptions.Client client) throws Exception {
        Path pub = Files.writeString(work.resolve("id_ed25519.pub"),
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBYm0e3tBmoJ4cV6qE5FJd8mXr9p1w5ob6g3JpQ7d1 me@host\n");
        SftpOptions opts = SftpOptions.builder().identityFiles(java.util.List.of(pub)).knownHosts(server.knownHosts)
                .client(client).build();
        assertThatThrownBy(() -> RemotePaths.get(server.uri("/"), opts))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining(pub.toString()).hasMessageContaining("is a public key, not a private key")
                .hasMessageNotContaining("NullPointer");
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void refusedConnectionNamesHostAndPort(SftpOptions.Client client) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        SftpOptions opts = SftpOptions.builder().password("x"::toCharArray).connectTimeout(Duration.ofSeconds(3))
                .client(client).build();
        int p = port;
        assertThatThrownBy(() -> RemotePaths.get(URI.create("sftp://someone@127.0.0.1:" + p + "/"), opts))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("127.0.0.1:" + p);
    }

    /**
     * A port that takes the connection and never sends SSH's greeting (a stopped daemon, a
     * firewall's tarpit): the connect timeout ends the wait, and the error says so by its type.
     */
    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aServerThatNeverGreetsFailsWhenTheConnectTimeoutEnds(SftpOptions.Client client) throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            int p = silent.getLocalPort(); // the kernel completes the handshake; nobody ever answers
            SftpOptions opts = SftpOptions.builder().password("x"::toCharArray).connectTimeout(Duration.ofSeconds(1))
                    .client(client).build();
            long start = System.nanoTime();
            assertThatThrownBy(() -> RemotePaths.get(URI.create("sftp://someone@127.0.0.1:" + p + "/"), opts))
                    .isInstanceOf(java.net.SocketTimeoutException.class)
                    .hasMessageStartingWith("sftp someone@127.0.0.1:" + p + ": ").hasMessageEndingWith(" 1 s");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
        }
    }

    /**
     * A connection that is never taken (the port's queue is full, so the kernel drops the SYN,
     * as a firewall that drops does): the connect timeout ends it, and the error is a timeout by
     * its type, naming the server.
     */
    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aConnectionNeverTakenFailsWhenTheConnectTimeoutEnds(SftpOptions.Client client) throws Exception {
        java.net.InetAddress lo = java.net.InetAddress.getLoopbackAddress();
        try (ServerSocket full = new ServerSocket(0, 1, lo)) {
            int p = full.getLocalPort();
            java.util.List<java.net.Socket> queued = new java.util.ArrayList<>();
            try {
                // Fill the accept queue (never accepted) until a connection attempt hangs.
                while (queued.size() < 16) {
                    java.net.Socket s = new java.net.Socket();
                    try {
                        s.connect(new java.net.InetSocketAddress(lo, p), 300);
                        queued.add(s);
                    } catch (java.net.SocketTimeoutException hangs) {
                        s.close();
                        break;
                    }
                }
                org.junit.jupiter.api.Assumptions.assumeTrue(queued.size() < 16, "this kernel takes every connection");
                SftpOptions opts = SftpOptions.builder().password("x"::toCharArray)
                        .connectTimeout(Duration.ofSeconds(1)).client(client).build();
                long start = System.nanoTime();
                assertThatThrownBy(() -> RemotePaths.get(URI.create("sftp://someone@127.0.0.1:" + p + "/"), opts))
                        .isInstanceOf(java.net.SocketTimeoutException.class)
                        .hasMessage("sftp someone@127.0.0.1:" + p + ": no connection within 1 s");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
            } finally {
                for (java.net.Socket s : queued) {
                    s.close();
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aHostNameThatDoesNotResolveIsSaidSo(SftpOptions.Client client) {
        // .invalid never resolves (RFC 6761); MINA's channel said only "null" of it
        SftpOptions opts = SftpOptions.builder().password("x"::toCharArray).connectTimeout(Duration.ofSeconds(10))
                .client(client).build();
        assertThatThrownBy(() -> RemotePaths.get(URI.create("sftp://someone@nosuchhost.invalid/"), opts))
                .isInstanceOf(java.net.UnknownHostException.class)
                .hasMessage("sftp someone@nosuchhost.invalid:22: unknown host (the name does not resolve)");
    }

    @Test
    void passwordsStayOutOfUrisAndStrings() throws Exception {
        RemotePath p = RemotePaths.get(server.uri("/"), server.options());
        assertThat(p.toString()).startsWith("sftp://tester@127.0.0.1:" + server.port() + "/")
                .doesNotContain(TestSshServer.PASSWORD);
        assertThat(server.options().toString()).doesNotContain(TestSshServer.PASSWORD).contains("***");
        assertThatThrownBy(() -> RemotePaths.get("sftp://tester:pw@127.0.0.1:" + server.port() + "/"))
                .isInstanceOf(InvalidPathException.class).hasMessageContaining("password in the URI");
        // Without options, the URI reaches the connection already open for tester@127.0.0.1:port.
        assertThat(RemotePaths.get(p.toString()).fileSystem()).isSameAs(p.fileSystem());
        p.fileSystem().close();
    }

    @Test
    void sshConfigSuppliesHostNamePortAndUser() throws Exception {
        Path config = Files.writeString(work.resolve("ssh_config"), """
                Host files-alias
                  HostName 127.0.0.1
                  Port %d
                  User %s
                """.formatted(server.port(), TestSshServer.USER));
        SftpOptions opts = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray)
                .knownHosts(server.knownHosts).sshConfig(config).build();
        RemotePath p = RemotePaths.get(URI.create("sftp://files-alias" + dev.remotepath.UriPaths.encodePath(server.root.toString())), opts);
        assertThat(p.isDirectory()).isTrue();
        assertThat(p.toString()).startsWith("sftp://tester@files-alias:" + server.port() + "/");
        p.fileSystem().close();
    }

    @Test
    void checkFileGivesNativeChecksumsOnServersThatOfferIt() throws Exception {
        Files.writeString(server.root.resolve("hello.txt"), "hello");
        RemotePath p = RemotePaths.get(server.uri("/hello.txt"), server.options());
        var md5 = p.checksum(dev.remotepath.ChecksumAlgorithm.MD5);
        assertThat(md5.origin()).isEqualTo(dev.remotepath.Checksum.Origin.NATIVE);
        assertThat(md5.hex()).isEqualTo("5d41402abc4b2a76b9719d911017c592");
        assertThat(p.checksum(dev.remotepath.ChecksumAlgorithm.SHA256).hex())
                .isEqualTo("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
        assertThat(p.checksum(dev.remotepath.ChecksumAlgorithm.CRC32).origin()).as("not offered: streamed")
                .isEqualTo(dev.remotepath.Checksum.Origin.STREAMED);
        p.fileSystem().close();
    }

    private static void dropAllSessions() {
        server.server.getActiveSessions().forEach(session -> session.close(true));
    }

    @Test
    void aDroppedConnectionIsReestablishedByTheNextOperation() throws Exception {
        Files.writeString(server.root.resolve("again.txt"), "still here");
        RemotePath p = RemotePaths.get(server.uri("/again.txt"), server.options());
        assertThat(p.readString()).isEqualTo("still here");
        dropAllSessions();
        Thread.sleep(200);
        assertThat(p.fileSystem().isOpen()).isTrue();
        assertThat(p.readString()).as("read after the drop, on a new connection").isEqualTo("still here");
        p.fileSystem().close();
    }

    @Test
    void aCopyWhoseConnectionDiesLeavesNoPartialFileAndNoTemporary() throws Exception {
        RemotePath source = RemotePaths.get("mem://sftp-drop-" + java.util.UUID.randomUUID() + "/big.bin");
        byte[] block = new byte[1 << 20];
        new java.util.Random(1).nextBytes(block);
        try (var out = source.newOutputStream()) {
            for (int i = 0; i < 48; i++) {
                out.write(block);
            }
        }
        Path dropDir = Files.createDirectories(server.root.resolve("drop"));
        RemotePath target = RemotePaths.get(server.uri("/drop/big.bin"), server.options());
        java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean dropped = new java.util.concurrent.atomic.AtomicBoolean();
        assertThatThrownBy(() -> dev.remotepath.tree.TreeCopier.copy(source, target, n -> {
            if (written.addAndGet(n) > (2 << 20) && dropped.compareAndSet(false, true)) {
                Thread.ofVirtual().start(SftpConnectionTest::dropAllSessions);
            }
        })).isInstanceOf(java.io.IOException.class).hasMessageContaining("127.0.0.1:" + server.port());
        assertThat(dropped).isTrue();
        try (Stream<Path> left = Files.list(dropDir)) {
            assertThat(left.map(f -> f.getFileName().toString()).toList())
                    .as("neither a partial big.bin nor its temporary").isEmpty();
        }
        source.fileSystem().close();
        target.fileSystem().close();
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void aServerThatStopsAnsweringTimesOutInsteadOfHanging(SftpOptions.Client client) throws Exception {
        Files.writeString(server.root.resolve("slow.txt"), "slow");
        SftpOptions opts = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray)
                .knownHosts(server.knownHosts).client(client).readTimeout(Duration.ofMillis(500)).build();
        RemotePath file = RemotePaths.get(server.uri("slow.txt"), opts);
        try {
            assertThat(file.stat().size()).hasValue(4);
            server.stallMillis = 1_500;
            long t0 = System.nanoTime();
            assertThatThrownBy(file::stat).isInstanceOf(java.net.SocketTimeoutException.class)
                    .hasMessageContaining("127.0.0.1:" + server.port())
                    .hasMessageContaining("no answer to stat of " + file)
                    .hasMessageContaining("500 ms");
            assertThatThrownBy(() -> file.readAllBytes()).isInstanceOf(java.net.SocketTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("two operations, each given up after the timeout")
                    .isLessThan(Duration.ofSeconds(6));
            server.stallMillis = 0;
            Thread.sleep(4_000); // the server works off the requests it sat on
            assertThat(new String(file.readAllBytes())).isEqualTo("slow"); // and the file system works again
        } finally {
            server.stallMillis = 0;
            file.fileSystem().close();
        }
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void furtherConnectionsOpenOnlyForConcurrentWorkAndNoMoreThanAllowed(SftpOptions.Client client) throws Exception {
        int before = server.settledSessions();
        SftpOptions opts = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray)
                .knownHosts(server.knownHosts).client(client).connections(2).build();
        RemotePath dir = RemotePaths.get(server.uri("pool-" + client), opts);
        try {
            dir.createDirectory();
            for (int i = 0; i < 10; i++) {
                dir.child("f" + i).writeString("x" + i); // one after the other: one connection
            }
            assertThat(server.sessions() - before).as("sessions of a single-threaded caller").isEqualTo(1);
            java.util.List<java.io.OutputStream> open = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                open.add(dir.child("s" + i).newOutputStream()); // four streams at once
            }
            // The second connection opens in the background: wait for it, then make sure no third came.
            long opened = System.nanoTime() + 5_000_000_000L;
            while (server.sessions() - before < 2 && System.nanoTime() < opened) {
                Thread.sleep(10);
            }
            open.add(dir.child("s4").newOutputStream());
            Thread.sleep(200);
            assertThat(server.sessions() - before).as("sessions with five streams open").isEqualTo(2);
            for (int i = 0; i < open.size(); i++) {
                open.get(i).write(("stream " + i).getBytes());
                open.get(i).close();
            }
            for (int i = 0; i < open.size(); i++) {
                assertThat(dir.child("s" + i).readString()).isEqualTo("stream " + i);
            }
            assertThat(dir.child("f7").readString()).isEqualTo("x7");
        } finally {
            dir.fileSystem().close();
        }
        long deadline = System.nanoTime() + 5_000_000_000L; // the server notices the goodbye a moment later
        while (server.sessions() > before && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(server.sessions()).as("all closed with the file system").isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void namedCiphersAreWhatTheConnectionOffers(SftpOptions.Client client) throws Exception {
        for (String cipher : java.util.List.of("chacha20-poly1305@openssh.com", "aes256-ctr", "aes192-ctr")) {
            SftpOptions.Builder b = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray)
                    .knownHosts(server.knownHosts).client(client).connections(1);
            // the last one only preferred: the client's others follow it
            SftpOptions opts = cipher.equals("aes192-ctr") ? b.preferCiphers(java.util.List.of(cipher)).build()
                    : b.ciphers(java.util.List.of(cipher)).build();
            RemotePath dir = RemotePaths.get(server.uri("ciphers-" + client + "-" + cipher.substring(0, 6)), opts);
            try {
                dir.createDirectory();
                dir.child("f").writeString("over " + cipher);
                assertThat(dir.child("f").readString()).isEqualTo("over " + cipher);
                assertThat(server.server.getActiveSessions())
                        .extracting(s -> s.getNegotiatedKexParameter(org.apache.sshd.common.kex.KexProposalOption.C2SENC))
                        .contains(cipher);
            } finally {
                dir.fileSystem().close();
            }
        }
        SftpOptions unknown = SftpOptions.builder().password(TestSshServer.PASSWORD::toCharArray)
                .knownHosts(server.knownHosts).client(client).ciphers(java.util.List.of("rot13@example.org")).build();
        assertThatThrownBy(() -> RemotePaths.get(server.uri("/"), unknown).exists())
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("rot13@example.org").hasMessageContaining(client == SftpOptions.Client.MINA ? "MINA" : "sshj");
    }

    @Test
    void optionsRefuseOutOfRangeValues() {
        assertThatThrownBy(() -> SftpOptions.builder().connections(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("connections");
        assertThatThrownBy(() -> SftpOptions.builder().readTimeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("readTimeout");
        assertThatThrownBy(() -> SftpOptions.builder().windowSize(1024).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("windowSize");
        assertThatThrownBy(() -> SftpOptions.builder().requestsInFlight(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requestsInFlight");
        assertThatThrownBy(() -> SftpOptions.builder().keepAlive(Duration.ofSeconds(-1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepAlive");
        assertThat(SftpOptions.defaults().windowSize()).isEqualTo(4L << 20);
        assertThat(SftpOptions.defaults().toString()).contains("requestsInFlight=64", "client=MINA", "connections=2", "readTimeout=PT1M", "ciphers=default");
        assertThat(SftpOptions.builder().preferCiphers(java.util.List.of("aes128-ctr")).build().toString())
                .contains("ciphers=[aes128-ctr] first");
        assertThatThrownBy(() -> SftpOptions.builder().ciphers(java.util.List.of("aes128-ctr,aes256-ctr")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("aes128-ctr,aes256-ctr");
        assertThatThrownBy(() -> SftpOptions.builder().ciphers(java.util.List.of("aes128-ctr", "aes128-ctr")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    }
}
