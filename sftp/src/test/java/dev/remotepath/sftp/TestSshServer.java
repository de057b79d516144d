package dev.remotepath.sftp;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.server.session.ServerSession;
import org.apache.sshd.sftp.SftpModuleProperties;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.server.Handle;
import org.apache.sshd.sftp.server.SftpEventListener;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * An in-process Apache MINA SSHD server on 127.0.0.1 (random port) with its SFTP subsystem,
 * password login, and a known_hosts file holding its host key. It serves the real file system
 * (tests use absolute paths under {@link #root}): MINA's rooted virtual file system refuses
 * symbolic-link targets holding "..", which OpenSSH and real servers allow.
 */
final class TestSshServer implements AutoCloseable {

    static final String USER = "tester";
    static final String PASSWORD = "s3cret-Pa55";

    final SshServer server;
    final Path root;
    final Path knownHosts;
    /** The login methods clients tried, in order ("publickey" for each key offered or signed with, "password"). */
    final List<String> authAttempts = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    /** Public keys (OpenSSH's "type base64" form) that log in as {@link #USER}; none unless a test adds them. */
    final java.util.Set<String> authorizedKeys = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Authorizes the key whose {@code .pub} file is given. */
    void authorize(Path publicKeyFile) throws java.io.IOException {
        String[] fields = Files.readString(publicKeyFile).strip().split("\\s+");
        authorizedKeys.add(fields[0] + " " + fields[1]);
    }

    /** File and directory handles the clients have opened and not closed. */
    final AtomicInteger openHandles = new AtomicInteger();

    TestSshServer(Path work) throws Exception {
        this(work, true);
    }

    /**
     * @param openSshExtensions false for a server that offers none of OpenSSH's extensions
     *                          (no posix-rename), like many appliances and older servers
     */
    TestSshServer(Path work, boolean openSshExtensions) throws Exception {
        root = Files.createDirectories(work.resolve("root"));
        server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(work.resolve("hostkey.ser")));
        server.setPasswordAuthenticator((user, password, session) -> {
            authAttempts.add("password");
            return USER.equals(user) && PASSWORD.equals(password);
        });
        server.setPublickeyAuthenticator((user, key, session) -> {
            authAttempts.add("publickey");
            return USER.equals(user) && authorizedKeys.contains(PublicKeyEntry.toString(key));
        });
        SftpSubsystemFactory sftp = new SftpSubsystemFactory();
        sftp.addSftpEventListener(new SftpEventListener() {
            @Override
            public void open(ServerSession session, String remoteHandle, Handle localHandle) {
                openHandles.incrementAndGet();
            }

            @Override
            public void receivedExtension(ServerSession session, String extension, int id) {
                requests.merge(extension, 1L, Long::sum);
            }

            @Override
            public void read(ServerSession session, String remoteHandle, org.apache.sshd.sftp.server.FileHandle localHandle,
                    long offset, byte[] data, int dataOffset, int dataLen, int readLen, Throwable thrown) {
                if (readLen > 0) {
                    bytesRead.addAndGet(readLen);
                }
            }

            @Override
            public void closed(ServerSession session, String remoteHandle, Handle localHandle, Throwable thrown) {
                openHandles.decrementAndGet();
            }

            @Override
            public void received(ServerSession session, int type, int id) {
                requests.merge(SftpConstants.getCommandMessageName(type), 1L, Long::sum);
                long ms = stallMillis;
                if (ms > 0 && type != org.apache.sshd.sftp.common.SftpConstants.SSH_FXP_INIT) {
                    try {
                        Thread.sleep(ms); // a server that stops answering for a while
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        });
        server.setSubsystemFactories(List.of(sftp));
        // As OpenSSH's sshd does: answers go out at once. With Nagle's algorithm on (MINA's
        // default), a second small answer waits for the client's delayed ACK of the first.
        org.apache.sshd.core.CoreModuleProperties.TCP_NODELAY.set(server, true);
        if (!openSshExtensions) {
            // An empty value would mean "the defaults"; one harmless extension stands for none,
            // and for check-file among the standard ones.
            SftpModuleProperties.OPENSSH_EXTENSIONS.set(server, "fsync@openssh.com=1");
            SftpModuleProperties.CLIENT_EXTENSIONS.set(server, "space-available");
        }
        server.start();
        knownHosts = knownHosts(server, work.resolve("known_hosts"));
    }

    /** Writes a known_hosts file naming {@code server}'s host keys at 127.0.0.1 and its port; returns it. */
    static Path knownHosts(SshServer server, Path file) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (KeyPair kp : server.getKeyPairProvider().loadKeys(null)) {
            lines.append("[127.0.0.1]:").append(server.getPort()).append(' ').append(PublicKeyEntry.toString(kp.getPublic())).append('\n');
        }
        return Files.writeString(file, lines);
    }

    /**
     * SFTP requests received, by name ({@code SSH_FXP_OPENDIR}, {@code SSH_FXP_LSTAT}, ...;
     * extensions by their own name, besides their {@code SSH_FXP_EXTENDED}), since the last
     * {@link #resetRequests}: the wire's own count, beside the SPI's.
     */
    final java.util.concurrent.ConcurrentHashMap<String, Long> requests = new java.util.concurrent.ConcurrentHashMap<>();

    /** Requests of this kind since the last reset. */
    long requests(String name) {
        return requests.getOrDefault(name, 0L);
    }

    /** File content bytes the server read and sent in answer to READs, since the last {@link #resetRequests}. */
    final java.util.concurrent.atomic.AtomicLong bytesRead = new java.util.concurrent.atomic.AtomicLong();

    void resetRequests() {
        requests.clear();
        bytesRead.set(0);
    }

    /** The SSH sessions open now. */
    int sessions() {
        return server.getActiveSessions().size();
    }

    /**
     * The open sessions once the count has held for 300 ms (at most 5 s): an earlier test's file
     * system closes its sessions asynchronously, and one that goes after a count was taken made a
     * difference of sessions read one short.
     */
    int settledSessions() throws InterruptedException {
        int n = sessions();
        long stableSince = System.nanoTime();
        long deadline = stableSince + 5_000_000_000L;
        while (System.nanoTime() - stableSince < 300_000_000L && System.nanoTime() < deadline) {
            Thread.sleep(20);
            int now = sessions();
            if (now != n) {
                n = now;
                stableSince = System.nanoTime();
            }
        }
        return n;
    }

    /** While positive, the server waits this long before handling each SFTP request. */
    volatile long stallMillis;

    int port() {
        return server.getPort();
    }

    SftpOptions options() {
        return options(SftpOptions.Client.MINA);
    }

    SftpOptions options(SftpOptions.Client client) {
        return SftpOptions.builder().password(PASSWORD::toCharArray).knownHosts(knownHosts).client(client).build();
    }

    /** The URI of a path below {@link #root}. */
    URI uri(String relative) {
        return URI.create("sftp://" + USER + "@127.0.0.1:" + port() + dev.remotepath.UriPaths.encodePath(
                root.resolve(relative.startsWith("/") ? relative.substring(1) : relative).toString()));
    }

    @Override
    public void close() throws Exception {
        server.stop(true);
    }
}
