package dev.remotepath.sftp;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import net.schmizz.sshj.DefaultConfig;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.common.Buffer;
import net.schmizz.sshj.common.KeyType;
import net.schmizz.sshj.common.Message;
import net.schmizz.sshj.common.SSHPacket;
import net.schmizz.sshj.transport.TransportException;
import net.schmizz.sshj.userauth.UserAuthException;
import net.schmizz.sshj.userauth.keyprovider.KeyProvider;
import net.schmizz.sshj.userauth.method.AbstractAuthMethod;
import net.schmizz.sshj.userauth.method.AuthKeyboardInteractive;
import net.schmizz.sshj.userauth.method.AuthMethod;
import net.schmizz.sshj.userauth.method.AuthPassword;
import net.schmizz.sshj.userauth.method.AuthPublickey;
import net.schmizz.sshj.userauth.method.PasswordResponseProvider;
import net.schmizz.sshj.userauth.password.PasswordFinder;
import net.schmizz.sshj.userauth.password.Resource;

/**
 * Connecting and logging in with sshj, as {@link Login} decides (agent keys, key files,
 * keyboard-interactive, password), through the endpoint's ProxyJump hops (a direct-tcpip
 * channel of the hop, no listening port).
 */
final class SshjLogin {

    private SshjLogin() {
    }

    /** The logged-in client and the hop clients it runs through, innermost hop last. */
    record Route(SSHClient ssh, List<SSHClient> hops) {
        void disconnectQuietly() {
            for (SSHClient c : java.util.stream.Stream.concat(java.util.stream.Stream.of(ssh), hops.stream()).toList()) {
                try {
                    c.disconnect();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }

    static Route connect(SftpEndpoint at) throws IOException {
        List<SSHClient> hops = new ArrayList<>();
        SSHClient hop = null;
        try {
            if (at.via().isPresent()) {
                Route viaRoute = connect(at.via().get());
                hops.add(viaRoute.ssh());
                hops.addAll(viaRoute.hops());
                hop = viaRoute.ssh();
            }
            return new Route(login(at, hop), hops);
        } catch (IOException | RuntimeException e) {
            new Route(null, hops).hops().forEach(h -> {
                try {
                    h.disconnect();
                } catch (IOException ignored) {
                    // failing anyway
                }
            });
            throw e;
        }
    }

    private static SSHClient login(SftpEndpoint at, SSHClient hop) throws IOException {
        SftpOptions options = at.options();
        String where = at.where();
        AtomicReference<String> keyProblem = new AtomicReference<>();
        // AES-GCM first, run by the JDK's cipher rather than BouncyCastle's plain Java ones
        // (SshjJdkGcm); sshj's own ChaCha20-Poly1305 (BouncyCastle) held reads to ~110 MB/s.
        // Named ciphers (SftpOptions.ciphers) are picked from that list, GCM still the JDK's.
        DefaultConfig config = new DefaultConfig();
        config.setCipherFactories(CipherChoice.pick(options.ciphers(), options.otherCiphers(), SshjJdkGcm.first(config.getCipherFactories()),
                net.schmizz.sshj.common.Factory.Named::getName, "sshj"));
        SSHClient ssh = new SSHClient(config);
        ssh.setSocketFactory(QuickAcks.socketFactory()); // SshjWire.connect settles it
        // Names are bytes on the wire: kept losslessly, as the local backend keeps them.
        ssh.setRemoteCharset(dev.remotepath.NameBytes.CHARSET);
        int timeout = (int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis());
        ssh.setConnectTimeout(timeout);
        // Until logged in, every read of the socket waits at most connectTimeout: a server that
        // accepts the TCP connection but never greets (a paused sshd: the kernel still accepts)
        // held sshj in receiveServerIdent forever. Channel opens and closes and key exchanges
        // wait readTimeout at most (sshj's default is to wait for ever).
        ssh.setTimeout(timeout);
        int answerWithin = (int) Math.min(Integer.MAX_VALUE, options.readTimeout().toMillis());
        ssh.getConnection().setTimeoutMs(answerWithin);
        ssh.getTransport().setTimeoutMs(answerWithin);
        ssh.addHostKeyVerifier(SshjWire.verifier(options, keyProblem));
        if (!options.keepAlive().isZero()) {
            ssh.getConnection().getKeepAlive().setKeepAliveInterval((int) Math.max(1, options.keepAlive().toSeconds()));
        }
        ssh.getConnection().setWindowSize(options.windowSize());
        Login login = new Login(at);
        try {
            try {
                if (hop == null) {
                    ssh.connect(at.connectTo(), at.port());
                } else {
                    ssh.connectVia(hop.newDirectConnection(at.connectTo(), at.port()));
                }
            } catch (TransportException e) {
                if (keyProblem.get() != null) {
                    throw new HostKeyException(where, keyProblem.get());
                }
                throw SftpEndpoint.connectFailure(where, e, options.connectTimeout());
            } catch (IOException e) {
                throw SftpEndpoint.connectFailure(where, e, options.connectTimeout());
            }
            List<AuthMethod> methods = new ArrayList<>();
            for (AgentClient.Identity key : login.agentKeys()) {
                methods.add(new AgentPublickey(login.agent().orElseThrow(), key));
            }
            for (Path key : login.keyFiles()) {
                if (login.named()) {
                    SftpEndpoint.requirePrivateKey(key);
                }
                methods.add(new AuthPublickey(new FileKey(ssh, key, login)));
            }
            try {
                authenticate(ssh, at, login, methods);
            } catch (UserAuthException e) {
                throw at.authenticationFailed(login);
            } catch (TransportException e) {
                if (e.getCause() instanceof SocketTimeoutException || e.getCause() instanceof java.util.concurrent.TimeoutException) {
                    throw new SocketTimeoutException("sftp " + where + ": logging in timed out after "
                            + options.connectTimeout().toSeconds() + " s");
                }
                throw new IOException("sftp " + where + ": logging in failed: " + e.getMessage(), e);
            }
            if (hop == null) {
                // Logged in: the reader thread waits for packets as long as the session lives; each
                // request has readTimeout of its own (the engine's).
                ssh.getSocket().setSoTimeout(0);
            }
            return ssh;
        } catch (IOException | RuntimeException e) {
            try {
                ssh.disconnect();
            } catch (IOException ignored) {
                // already failing
            }
            if (keyProblem.get() != null && !(e instanceof HostKeyException)) {
                throw new HostKeyException(where, keyProblem.get());
            }
            throw e;
        }
    }

    /**
     * The keys first (or the "none" method, to learn what the server takes); then, only if the
     * server refused them and takes keyboard-interactive or password, those, asking the
     * password then: sshj asks a method's password before it knows whether the server takes
     * the method, which prompted at a terminal for a server that takes no password at all.
     */
    private static void authenticate(SSHClient ssh, SftpEndpoint at, Login login, List<AuthMethod> keys)
            throws UserAuthException, TransportException {
        try {
            ssh.auth(at.user(), keys.isEmpty() ? List.of(new net.schmizz.sshj.userauth.method.AuthNone()) : keys);
            return;
        } catch (UserAuthException refused) {
            if (at.options().password().isEmpty()) {
                throw refused;
            }
        }
        List<String> allowed = new ArrayList<>();
        ssh.getUserAuth().getAllowedMethods().forEach(allowed::add);
        PasswordFinder password = new PasswordFinder() {
            @Override
            public char[] reqPassword(Resource<?> resource) {
                char[] pw = login.password();
                return pw == null ? new char[0] : pw; // no answer at the prompt: an empty one, refused
            }

            @Override
            public boolean shouldRetry(Resource<?> resource) {
                return false;
            }
        };
        List<AuthMethod> secrets = new ArrayList<>();
        if (allowed.contains("keyboard-interactive")) {
            secrets.add(new AuthKeyboardInteractive(new PasswordResponseProvider(password)));
        }
        if (allowed.contains("password")) {
            secrets.add(new AuthPassword(password));
        }
        if (secrets.isEmpty()) {
            throw new UserAuthException("the server takes neither a password nor keyboard-interactive");
        }
        ssh.auth(at.user(), secrets);
    }

    /**
     * A key file, parsed when sshj first asks for it (after the agent's keys), its passphrase
     * asked from the login then; a key that cannot be loaded fails only its own attempt, with
     * the reason kept for the refused login's message.
     */
    private static final class FileKey implements KeyProvider {
        private final SSHClient ssh;
        private final Path file;
        private final Login login;
        private KeyProvider loaded;
        private boolean asked;

        FileKey(SSHClient ssh, Path file, Login login) {
            this.ssh = ssh;
            this.file = file;
            this.login = login;
        }

        private KeyProvider key() throws IOException {
            if (loaded == null) {
                loaded = ssh.loadKeys(file.toString(), new PasswordFinder() {
                    @Override
                    public char[] reqPassword(Resource<?> resource) {
                        asked = true;
                        return login.passphrase(file);
                    }

                    @Override
                    public boolean shouldRetry(Resource<?> resource) {
                        return false;
                    }
                });
            }
            return loaded;
        }

        private IOException unusable(IOException e) {
            login.problem(asked && login.endpoint().options().keyPassphrase().isPresent()
                    ? "the passphrase for the key " + file + " is wrong (or the key is damaged)"
                    : asked ? "the key " + file + " is encrypted and no passphrase was given (SftpOptions.keyPassphrase)"
                    : "cannot load the key " + file + ": " + SftpEndpoint.rootMessage(e));
            return e;
        }

        @Override
        public PrivateKey getPrivate() throws IOException {
            try {
                return key().getPrivate();
            } catch (IOException e) {
                throw unusable(e);
            } catch (RuntimeException e) {
                throw unusable(new IOException(e.getMessage(), e));
            }
        }

        @Override
        public PublicKey getPublic() throws IOException {
            try {
                return key().getPublic();
            } catch (IOException e) {
                throw unusable(e);
            } catch (RuntimeException e) {
                throw unusable(new IOException(e.getMessage(), e));
            }
        }

        @Override
        public KeyType getType() throws IOException {
            return KeyType.fromKey(getPublic());
        }

        @Override
        public String toString() {
            return file.toString();
        }
    }

    /**
     * The {@code publickey} method with a key the ssh-agent holds: the feeler names the key, and
     * once the server accepts it the agent signs the request (RSA keys as {@code rsa-sha2-512}).
     */
    private static final class AgentPublickey extends AbstractAuthMethod {
        private final AgentClient agent;
        private final AgentClient.Identity key;
        private final String algorithm;
        private final int flags;

        AgentPublickey(AgentClient agent, AgentClient.Identity key) {
            super("publickey");
            this.agent = agent;
            this.key = key;
            String type = key.keyType();
            if (type.equals("ssh-rsa")) {
                algorithm = "rsa-sha2-512";
                flags = AgentClient.RSA_SHA2_512;
            } else if (type.equals("ssh-rsa-cert-v01@openssh.com")) {
                algorithm = "rsa-sha2-512-cert-v01@openssh.com";
                flags = AgentClient.RSA_SHA2_512;
            } else {
                algorithm = type;
                flags = 0;
            }
        }

        private SSHPacket request(boolean signed) throws UserAuthException {
            return super.buildReq().putBoolean(signed).putString(algorithm).putString(key.blob());
        }

        @Override
        protected SSHPacket buildReq() throws UserAuthException {
            return request(false);
        }

        @Override
        public void handle(Message cmd, SSHPacket buf) throws UserAuthException, TransportException {
            if (cmd != Message.USERAUTH_60) {
                super.handle(cmd, buf);
                return;
            }
            SSHPacket signed = request(true);
            byte[] data = new Buffer.PlainBuffer().putString(params.getTransport().getSessionID()).putBuffer(signed)
                    .getCompactData();
            try {
                signed.putString(agent.sign(key.blob(), data, flags));
            } catch (IOException e) {
                throw new UserAuthException(e.getMessage(), e);
            }
            params.getTransport().write(signed);
        }

        @Override
        public String toString() {
            return "ssh-agent key " + key.comment();
        }
    }
}
