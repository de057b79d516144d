package dev.remotepath.sftp;

import dev.remotepath.FileSystemOptions;
import dev.remotepath.spi.Timeouts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Connection options of the SFTP backend. The password is never part of a URI and never
 * appears in {@link #toString()}, logs or error messages.
 * Every timeout must be at least 1 ms and at most 24 days ({@link Timeouts}), checked when the options
 * are built: zero would read as "wait for ever" in the client library underneath.
 *
 * @param user           the login, when the URI does not name one (default: the local user)
 * @param password       a supplier of the password (asked when needed), if password login is wanted
 * @param identityFiles  private keys to offer (default: none besides the config's IdentityFile)
 * @param knownHosts     the known_hosts file checked against the server's key
 * @param hostKeyPolicy  what an unknown or changed host key does (strict by default)
 * @param connectTimeout how long connecting and logging in may take
 * @param sshConfig      the OpenSSH client configuration whose Host blocks supply HostName,
 *                       Port, User and IdentityFile (a missing file is fine)
 * @param client         the SSH library ({@link Client#MINA} by default); both behave alike
 * @param keepAlive      how often an idle connection sends a keepalive (so NAT and firewalls
 *                       keep it); {@link Duration#ZERO} for never
 * @param windowSize     the SSH channel window in bytes (4 MiB by default; both libraries'
 *                       own 2 MiB default made MINA's reads 3-4x slower even on loopback, and
 *                       16 MiB made a fresh process's first MINA read 2.5x slower, as MINA keeps
 *                       a window's worth of READs in flight)
 * @param requestsInFlight how many READ or WRITE requests one stream keeps unanswered (64 by
 *                       default, as OpenSSH's client; sshj honours it both ways, MINA for writes,
 *                       pacing its reads by the window)
 * @param connections    at most this many SSH connections per file system (default 2; 1 to 16):
 *                       a further one opens only when an operation starts while every open one
 *                       is busy, as with the syncer's parallel transfers (a server answers one
 *                       connection's requests one at a time); a single-threaded caller uses one
 * @param readTimeout    how long any one request may wait for the server's answer (default 60 s)
 *                       before it fails with a {@link java.net.SocketTimeoutException}: a server
 *                       that stops answering never hangs a caller, with either client
 * @param agentSocket    the ssh-agent to ask for keys first (default: {@code $SSH_AUTH_SOCK} when
 *                       set); its keys are offered before any file, as OpenSSH offers them
 * @param defaultIdentityFiles keys offered when neither {@code identityFiles} nor the config's
 *                       IdentityFile names one, those that exist (default: OpenSSH's
 *                       {@code ~/.ssh/id_ed25519}, {@code id_ecdsa}, {@code id_rsa})
 * @param identitiesOnly only the named identity files are offered, and of the agent's keys only
 *                       those whose public half is a named file's {@code .pub} (OpenSSH's
 *                       IdentitiesOnly; also set by the config)
 * @param keyPassphrase  asked for the passphrase of an encrypted key file when that key is
 *                       needed; without it encrypted default keys are skipped and an
 *                       encrypted named key fails the login with a message saying so
 * @param proxyJump      hops to connect through, OpenSSH's ProxyJump syntax
 *                       ({@code [user@]host[:port]}, comma-separated; each hop's Host block in
 *                       the config applies); the config's ProxyJump when not given
 */
public record SftpOptions(Optional<String> user, Optional<Supplier<char[]>> password, List<Path> identityFiles,
        Path knownHosts, HostKeyPolicy hostKeyPolicy, Duration connectTimeout, Path sshConfig, Client client,
        Duration keepAlive, long windowSize, int requestsInFlight, int connections, Duration readTimeout,
        Optional<Path> agentSocket, List<Path> defaultIdentityFiles, boolean identitiesOnly,
        Optional<java.util.function.Function<Path, char[]>> keyPassphrase, Optional<String> proxyJump,
        List<String> ciphers, boolean otherCiphers)
        implements FileSystemOptions {

    /** The SSH client library a file system talks through. */
    public enum Client {
        /** Apache MINA SSHD (the default). */
        MINA,
        /** sshj. */
        SSHJ;

        /** {@code mina} or {@code sshj}, as flags and URIs spell it. */
        public static Client parse(String name) {
            for (Client c : values()) {
                if (c.name().equalsIgnoreCase(name.trim())) {
                    return c;
                }
            }
            throw new IllegalArgumentException("unknown SFTP client '" + name + "'; expected mina or sshj");
        }
    }

    /** What to do with a host key known_hosts does not vouch for. */
    public enum HostKeyPolicy {
        /** Unknown or changed keys fail the connection (the default). */
        STRICT,
        /** Unknown keys are accepted and added to known_hosts; changed keys still fail. */
        ACCEPT_NEW,
        /** Every key is accepted: only for throwaway test servers. */
        ACCEPT_ALL
    }

    public SftpOptions {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        identityFiles = List.copyOf(identityFiles);
        Objects.requireNonNull(knownHosts, "knownHosts");
        Objects.requireNonNull(hostKeyPolicy, "hostKeyPolicy");
        // sshj's connect reads zero as "wait for ever": refused, as every backend's (Timeouts)
        Timeouts.requireTimeout("connectTimeout", connectTimeout);
        Objects.requireNonNull(sshConfig, "sshConfig");
        Objects.requireNonNull(client, "client");
        Timeouts.requireInterval("keepAlive", keepAlive);
        if (requestsInFlight < 1 || requestsInFlight > 1024) {
            throw new IllegalArgumentException("requestsInFlight must be between 1 and 1024, was " + requestsInFlight);
        }
        if (connections < 1 || connections > 16) {
            throw new IllegalArgumentException("connections must be between 1 and 16, was " + connections);
        }
        Timeouts.requireTimeout("readTimeout", readTimeout);
        if (windowSize < 32 * 1024 || windowSize > 0xffff_ffffL) {
            throw new IllegalArgumentException("windowSize must be between 32 KiB and 4 GiB, was " + windowSize);
        }
        Objects.requireNonNull(agentSocket, "agentSocket");
        defaultIdentityFiles = List.copyOf(defaultIdentityFiles);
        Objects.requireNonNull(keyPassphrase, "keyPassphrase");
        Objects.requireNonNull(proxyJump, "proxyJump");
        if (proxyJump.isPresent() && proxyJump.get().isBlank()) {
            throw new IllegalArgumentException("proxyJump is blank");
        }
        ciphers = List.copyOf(ciphers);
        for (String c : ciphers) {
            if (c.isBlank() || !c.chars().allMatch(ch -> ch > ' ' && ch < 127 && ch != ',')) {
                throw new IllegalArgumentException("cipher name '" + c + "' is not an SSH algorithm name");
            }
        }
        if (new java.util.HashSet<>(ciphers).size() != ciphers.size()) {
            throw new IllegalArgumentException("ciphers names one twice: " + ciphers);
        }
    }

    public static SftpOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.user = user.orElse(null);
        b.password = password.orElse(null);
        b.identityFiles = identityFiles;
        b.knownHosts = knownHosts;
        b.hostKeyPolicy = hostKeyPolicy;
        b.connectTimeout = connectTimeout;
        b.readTimeout = readTimeout;
        b.sshConfig = sshConfig;
        b.client = client;
        b.keepAlive = keepAlive;
        b.windowSize = windowSize;
        b.requestsInFlight = requestsInFlight;
        b.connections = connections;
        b.agentSocket = agentSocket.orElse(null);
        b.defaultIdentityFiles = defaultIdentityFiles;
        b.identitiesOnly = identitiesOnly;
        b.keyPassphrase = keyPassphrase.orElse(null);
        b.proxyJump = proxyJump.orElse(null);
        b.ciphers = ciphers;
        b.otherCiphers = otherCiphers;
        return b;
    }

    @Override
    public String toString() {
        return "SftpOptions[user=" + user.orElse("(local user)") + ", password=" + (password.isPresent() ? "***" : "none")
                + ", identityFiles=" + identityFiles + ", knownHosts=" + knownHosts + ", hostKeyPolicy=" + hostKeyPolicy
                + ", connectTimeout=" + connectTimeout + ", sshConfig=" + sshConfig + ", client=" + client
                + ", keepAlive=" + keepAlive + ", windowSize=" + windowSize + ", requestsInFlight=" + requestsInFlight + ", connections=" + connections + ", readTimeout=" + readTimeout
                + ", agentSocket=" + agentSocket.map(Path::toString).orElse("none") + ", defaultIdentityFiles=" + defaultIdentityFiles
                + ", identitiesOnly=" + identitiesOnly + ", keyPassphrase=" + (keyPassphrase.isPresent() ? "***" : "none")
                + ", proxyJump=" + proxyJump.orElse("none") + ", ciphers=" + (ciphers.isEmpty() ? "default" : otherCiphers ? ciphers + " first" : ciphers) + "]";
    }

    /** Builds {@link SftpOptions}. */
    public static final class Builder {
        private String user;
        private Supplier<char[]> password;
        private List<Path> identityFiles = List.of();
        private Path knownHosts = Path.of(System.getProperty("user.home"), ".ssh", "known_hosts");
        private HostKeyPolicy hostKeyPolicy = HostKeyPolicy.STRICT;
        private Duration connectTimeout = Duration.ofSeconds(15);
        private Duration readTimeout = Duration.ofSeconds(60);
        private Path sshConfig = Path.of(System.getProperty("user.home"), ".ssh", "config");
        private Client client = Client.MINA;
        private Duration keepAlive = Duration.ofSeconds(30);
        private long windowSize = 4L * 1024 * 1024;
        private int requestsInFlight = 64;
        private int connections = 2;
        private Path agentSocket = agentFromEnvironment();
        private List<Path> defaultIdentityFiles = openSshDefaultKeys();
        private boolean identitiesOnly;
        private java.util.function.Function<Path, char[]> keyPassphrase;
        private String proxyJump;
        private List<String> ciphers = List.of();
        private boolean otherCiphers = true;

        private static Path agentFromEnvironment() {
            String sock = System.getenv("SSH_AUTH_SOCK");
            return sock == null || sock.isBlank() ? null : Path.of(sock);
        }

        private static List<Path> openSshDefaultKeys() {
            Path ssh = Path.of(System.getProperty("user.home"), ".ssh");
            return List.of(ssh.resolve("id_ed25519"), ssh.resolve("id_ecdsa"), ssh.resolve("id_rsa"));
        }

        public Builder user(String u) {
            this.user = u;
            return this;
        }

        /** The password, asked from the supplier when the server wants it (a prompt, a vault). */
        public Builder password(Supplier<char[]> p) {
            this.password = p;
            return this;
        }

        public Builder identityFiles(List<Path> files) {
            this.identityFiles = files;
            return this;
        }

        public Builder knownHosts(Path file) {
            this.knownHosts = file;
            return this;
        }

        public Builder hostKeyPolicy(HostKeyPolicy policy) {
            this.hostKeyPolicy = policy;
            return this;
        }

        public Builder connectTimeout(Duration d) {
            this.connectTimeout = d;
            return this;
        }

        public Builder sshConfig(Path file) {
            this.sshConfig = file;
            return this;
        }

        /** The SSH library: {@link Client#MINA} (default) or {@link Client#SSHJ}. */
        public Builder client(Client c) {
            this.client = c;
            return this;
        }

        /** Keepalive interval of an idle connection (default 30 s; {@link Duration#ZERO}: none). */
        public Builder keepAlive(Duration interval) {
            this.keepAlive = interval;
            return this;
        }

        /** The SSH channel window in bytes (default 4 MiB). */
        public Builder windowSize(long bytes) {
            this.windowSize = bytes;
            return this;
        }

        /** Unanswered READ or WRITE requests per stream (default 64). */
        public Builder requestsInFlight(int n) {
            this.requestsInFlight = n;
            return this;
        }

        /** At most this many SSH connections per file system, opened as concurrent work needs them (default 2). */
        public Builder connections(int n) {
            this.connections = n;
            return this;
        }

        /** How long one request may wait for its answer (default 60 s). */
        public Builder readTimeout(Duration d) {
            this.readTimeout = d;
            return this;
        }

        /** The ssh-agent socket whose keys are offered first (default {@code $SSH_AUTH_SOCK}). */
        public Builder agentSocket(Path socket) {
            this.agentSocket = Objects.requireNonNull(socket, "socket");
            return this;
        }

        /** No ssh-agent is asked, even when {@code $SSH_AUTH_SOCK} is set. */
        public Builder noAgent() {
            this.agentSocket = null;
            return this;
        }

        /** Keys offered when no identity file is named (default: OpenSSH's ~/.ssh/id_ed25519, id_ecdsa, id_rsa). */
        public Builder defaultIdentityFiles(List<Path> files) {
            this.defaultIdentityFiles = files;
            return this;
        }

        /** Only the named identity files (and the agent's copies of them) are offered. */
        public Builder identitiesOnly(boolean only) {
            this.identitiesOnly = only;
            return this;
        }

        /** Asked for an encrypted key file's passphrase when that key is needed. */
        public Builder keyPassphrase(java.util.function.Function<Path, char[]> passphrase) {
            this.keyPassphrase = passphrase;
            return this;
        }

        /** Hops to connect through, as OpenSSH's ProxyJump: {@code [user@]host[:port]}, comma-separated. */
        public Builder proxyJump(String hops) {
            this.proxyJump = hops;
            return this;
        }

        /**
         * Only these SSH ciphers are offered, most preferred first, by OpenSSH name (e.g.
         * {@code chacha20-poly1305@openssh.com}, {@code aes128-gcm@openssh.com},
         * {@code aes256-ctr}), as {@code ssh -c}; empty (the default): the client's own list with
         * AES-GCM first.
         */
        public Builder ciphers(List<String> names) {
            this.ciphers = List.copyOf(names);
            this.otherCiphers = false;
            return this;
        }

        /**
         * These SSH ciphers are offered first, in this order, and the client's others after
         * them, as OpenSSH's {@code Ciphers ^list}: a server that has none of them still connects.
         */
        public Builder preferCiphers(List<String> names) {
            this.ciphers = List.copyOf(names);
            this.otherCiphers = true;
            return this;
        }

        public SftpOptions build() {
            return new SftpOptions(Optional.ofNullable(user), Optional.ofNullable(password), identityFiles, knownHosts,
                    hostKeyPolicy, connectTimeout, sshConfig, client, keepAlive,
                    windowSize, requestsInFlight, connections, readTimeout, Optional.ofNullable(agentSocket),
                    defaultIdentityFiles, identitiesOnly, Optional.ofNullable(keyPassphrase), Optional.ofNullable(proxyJump), ciphers,
                    otherCiphers);
        }
    }
}
