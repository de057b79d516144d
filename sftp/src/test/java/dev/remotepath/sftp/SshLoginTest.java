package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.OpenSshd;
import dev.remotepath.testkit.ServerProcesses;
import dev.remotepath.testkit.SshAgentProcess;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Logging in as OpenSSH's client does, against OpenSSH's sshd on loopback, with both clients:
 * keys from a real ssh-agent, OpenSSH's default key files, encrypted keys, and a ProxyJump
 * through a second sshd. (Password logins are in {@link SftpConnectionTest}: an unprivileged
 * sshd cannot check passwords.)
 */
class SshLoginTest {

    private static Path work;
    private static OpenSshd sshd;

    @BeforeAll
    static void start() throws Exception {
        RealSftpServerContractTest.requireInstalled(OpenSshd.SSHD, "OpenSSH sshd", "openssh-server");
        work = Files.createTempDirectory("rp-login-");
        sshd = new OpenSshd(Files.createDirectories(work.resolve("sshd")));
        Files.writeString(work.resolve("served.txt"), "served");
    }

    @AfterAll
    static void stop() throws Exception {
        if (sshd != null) {
            sshd.close();
        }
        if (work != null) {
            LocalTrees.delete(work);
        }
    }

    /** Options that offer nothing unless the case adds it: no agent, no default files, this server's known_hosts. */
    private static SftpOptions.Builder bare(SftpOptions.Client client) {
        return SftpOptions.builder().client(client).noAgent().defaultIdentityFiles(List.of()).knownHosts(sshd.knownHosts)
                .sshConfig(work.resolve("no-config"));
    }

    /** A fresh key pair of {@code type} under {@code dir}, authorized on the server unless told otherwise. */
    private static Path key(Path dir, String name, String type, boolean authorize) throws Exception {
        Files.createDirectories(dir);
        Path key = dir.resolve(name);
        ServerProcesses.run(List.of("ssh-keygen", "-q", "-t", type, "-N", "", "-C", name, "-f", key.toString()));
        if (authorize) {
            Files.writeString(sshd.authorizedKeys, Files.readString(dir.resolve(name + ".pub")),
                    java.nio.file.StandardOpenOption.APPEND);
        }
        return key;
    }

    private static String read(SftpOptions options) throws Exception {
        RemotePath p = RemotePaths.get(sshd.uri(work.resolve("served.txt")), options);
        try {
            return p.readString();
        } finally {
            p.fileSystem().close();
        }
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void agentKeysAloneLogIn(SftpOptions.Client client) throws Exception {
        Path dir = work.resolve("agent-" + client);
        // An Ed25519 key and an RSA key (signed as rsa-sha2-512: OpenSSH refuses SHA-1), each
        // known only to the agent: their files are gone once added.
        for (String type : List.of("ed25519", "rsa")) {
            try (SshAgentProcess agent = new SshAgentProcess(Files.createDirectories(dir.resolve(type)))) {
                Path key = key(dir.resolve(type), "id_" + type, type, true);
                agent.add(key);
                Files.delete(key);
                assertThat(read(bare(client).agentSocket(agent.socket).build())).as(type).isEqualTo("served");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void anAgentWithoutTheKeyIsRefusedSayingWhatWasOffered(SftpOptions.Client client) throws Exception {
        Path dir = work.resolve("agent-unknown-" + client);
        try (SshAgentProcess agent = new SshAgentProcess(Files.createDirectories(dir))) {
            agent.add(key(dir, "stranger", "ed25519", false));
            assertThatThrownBy(() -> read(bare(client).agentSocket(agent.socket).build()))
                    .isInstanceOf(AccessDeniedException.class)
                    .hasMessageContaining("authentication failed")
                    .hasMessageContaining("1 ssh-agent key");
        }
        // A dead agent socket: no keys from it, said in the refusal.
        assertThatThrownBy(() -> read(bare(client).agentSocket(dir.resolve("agent.sock")).build()))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("cannot reach the ssh-agent at " + dir.resolve("agent.sock"));
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void openSshDefaultKeyFilesUnderHomeAreOffered(SftpOptions.Client client) throws Exception {
        Path home = work.resolve("home-" + client);
        key(home.resolve(".ssh"), "id_ecdsa", "ecdsa", true);
        String realHome = System.getProperty("user.home");
        SftpOptions.Builder defaults;
        System.setProperty("user.home", home.toString());
        try {
            defaults = SftpOptions.builder(); // the defaults read the home directory here
        } finally {
            System.setProperty("user.home", realHome);
        }
        SftpOptions options = defaults.client(client).noAgent().knownHosts(sshd.knownHosts)
                .sshConfig(work.resolve("no-config")).build();
        assertThat(options.defaultIdentityFiles()).contains(home.resolve(".ssh/id_ed25519"), home.resolve(".ssh/id_ecdsa"),
                home.resolve(".ssh/id_rsa"));
        assertThat(read(options)).isEqualTo("served");
        // A named identity replaces the defaults, as in OpenSSH.
        Path other = key(work.resolve("other-" + client), "id_other", "ed25519", false);
        assertThatThrownBy(() -> read(options.toBuilder().identityFiles(List.of(other)).build()))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining(other.toString())
                .hasMessageNotContaining("id_ecdsa");
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void anEncryptedKeyAsksItsPassphraseOnlyWhenItIsTried(SftpOptions.Client client) throws Exception {
        Path dir = work.resolve("encrypted-" + client);
        Path key = key(dir, "id_locked", "ed25519", true);
        Path plain = dir.resolve("plain_copy");
        Files.copy(key, plain);
        ServerProcesses.run(List.of("ssh-keygen", "-q", "-p", "-P", "", "-N", "open sesame", "-f", key.toString()));
        AtomicInteger asked = new AtomicInteger();
        SftpOptions.Builder options = bare(client).identityFiles(List.of(key)).keyPassphrase(f -> {
            asked.incrementAndGet();
            assertThat(f).isEqualTo(key);
            return "open sesame".toCharArray();
        });
        assertThat(read(options.build())).isEqualTo("served");
        assertThat(asked.get()).isPositive();

        assertThatThrownBy(() -> read(bare(client).identityFiles(List.of(key)).keyPassphrase(f -> "wrong".toCharArray()).build()))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("the passphrase for the key " + key + " is wrong")
                .hasMessageNotContaining("wrong\"");
        assertThatThrownBy(() -> read(bare(client).identityFiles(List.of(key)).build()))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("the key " + key + " is encrypted and no passphrase was given");

        // The agent holds the same key: with IdentitiesOnly it is offered from the agent (it
        // matches id_locked.pub), and the passphrase is never asked.
        try (SshAgentProcess agent = new SshAgentProcess(dir)) {
            agent.add(plain);
            asked.set(0);
            assertThat(read(options.agentSocket(agent.socket).identitiesOnly(true).build())).isEqualTo("served");
            assertThat(asked.get()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(SftpOptions.Client.class)
    void proxyJumpFromTheConfigGoesThroughTheHop(SftpOptions.Client client) throws Exception {
        try (OpenSshd hop = new OpenSshd(Files.createDirectories(work.resolve("hop-" + client)), "internal-sftp",
                "LogLevel DEBUG1")) {
            Path config = Files.writeString(work.resolve("ssh_config_" + client), """
                    Host target
                      HostName 127.0.0.1
                      Port %d
                      IdentityFile %s
                      ProxyJump bastion
                    Host bastion
                      HostName 127.0.0.1
                      Port %d
                      IdentityFile %s
                    """.formatted(sshd.port, sshd.clientKey, hop.port, hop.clientKey));
            Path knownHosts = Files.writeString(work.resolve("known_hosts_jump_" + client),
                    Files.readString(sshd.knownHosts) + Files.readString(hop.knownHosts));
            SftpOptions options = bare(client).sshConfig(config).knownHosts(knownHosts).build();
            RemotePath p = RemotePaths.get(URI.create("sftp://target" + dev.remotepath.UriPaths.encodePath(
                    work.resolve("served.txt").toString())), options);
            try {
                assertThat(p.readString()).isEqualTo("served");
            } finally {
                p.fileSystem().close();
            }
            // The hop's sshd opened the channel to the target: the connection went through it.
            assertThat(hop.log()).contains("target 127.0.0.1 port " + sshd.port);

            // A hop whose host key is unknown fails as a host-key problem naming the hop.
            SftpOptions unknownHop = bare(client).sshConfig(config).knownHosts(sshd.knownHosts).build();
            assertThatThrownBy(() -> RemotePaths.get(URI.create("sftp://target/"), unknownHop).isDirectory())
                    .isInstanceOf(HostKeyException.class)
                    .hasMessageContaining("@bastion:" + hop.port);
        }
    }
}
