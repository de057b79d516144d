package dev.remotepath.sftp;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * Connecting and logging in with MINA, as {@link Login} decides (agent keys, key files,
 * keyboard-interactive, password), through the endpoint's ProxyJump hops. Each session's
 * {@link Login} rides in its connection context, so one client's host-key check and agent
 * answer for the hop or the target as each session needs.
 */
final class MinaLogin {

    private MinaLogin() {
    }

    /** The login of the session being set up, kept in its connection context for the verifier and agent. */
    private static final org.apache.sshd.common.AttributeRepository.AttributeKey<Login> LOGIN =
            new org.apache.sshd.common.AttributeRepository.AttributeKey<>();
    private static final org.apache.sshd.common.AttributeRepository.AttributeKey<AtomicReference<String>> KEY_PROBLEM =
            new org.apache.sshd.common.AttributeRepository.AttributeKey<>();

    /** A logged-in session to {@code at}, through its hops when it has any. */
    static ClientSession open(SshClient c, SftpEndpoint at) throws IOException {
        SftpOptions options = at.options();
        String where = at.where();
        long timeout = options.connectTimeout().toMillis();
        String host = at.connectTo();
        int port = at.port();
        if (at.via().isPresent()) {
            ClientSession hop = open(c, at.via().get());
            try {
                // As MINA's and OpenSSH's own ProxyJump: a direct-tcpip channel from the hop,
                // reached through a loopback port that lives as long as the hop's session.
                org.apache.sshd.common.util.net.SshdSocketAddress bound = hop.startLocalPortForwarding(
                        new org.apache.sshd.common.util.net.SshdSocketAddress("127.0.0.1", 0),
                        new org.apache.sshd.common.util.net.SshdSocketAddress(host, port));
                host = bound.getHostName();
                port = bound.getPort();
            } catch (IOException e) {
                throw new IOException("sftp " + where + ": the ProxyJump hop " + at.via().get().where()
                        + " cannot forward to it: " + SftpEndpoint.rootMessage(e), e);
            }
        }
        Login login = new Login(at);
        if (login.named()) {
            for (Path f : login.keyFiles()) {
                SftpEndpoint.requirePrivateKey(f);
            }
        }
        AtomicReference<String> keyProblem = new AtomicReference<>();
        org.apache.sshd.common.AttributeRepository context = org.apache.sshd.common.AttributeRepository.ofAttributesMap(
                java.util.Map.of(LOGIN, login, KEY_PROBLEM, keyProblem));
        ClientSession s;
        try {
            s = c.connect(at.user(), host, port, context, null).verify(timeout).getSession();
        } catch (IOException e) {
            if (keyProblem.get() != null) {
                throw new HostKeyException(where, keyProblem.get());
            }
            throw SftpEndpoint.connectFailure(where, e, options.connectTimeout());
        }
        try {
            // Asked lazily, after the agent's keys: a passphrase only when its key's turn comes.
            s.setKeyIdentityProvider(session -> keys(session, login));
            s.setPasswordIdentityProvider(session -> {
                char[] pw = login.password();
                if (pw == null) {
                    return List.of();
                }
                String password = new String(pw); // MINA keeps passwords as String
                java.util.Arrays.fill(pw, '\0');
                return List.of(password);
            });
            try {
                s.auth().verify(timeout);
            } catch (IOException e) {
                if (keyProblem.get() != null) {
                    throw new HostKeyException(where, keyProblem.get());
                }
                if (e.getCause() instanceof java.util.concurrent.TimeoutException || e instanceof SocketTimeoutException) {
                    throw new SocketTimeoutException("sftp " + where + ": logging in timed out after "
                            + options.connectTimeout().toSeconds() + " s");
                }
                if (s.isClosing() || s.isClosed()) {
                    // The server (or the transport) ended the session: not a refused login.
                    throw new IOException("sftp " + where + ": the connection failed during login: "
                            + SftpEndpoint.rootMessage(e), e);
                }
                throw at.authenticationFailed(login);
            }
            return s;
        } catch (IOException | RuntimeException e) {
            s.close(true);
            if (keyProblem.get() != null && !(e instanceof HostKeyException)) {
                throw new HostKeyException(where, keyProblem.get());
            }
            throw e;
        }
    }

    private static Login login(org.apache.sshd.common.session.SessionContext session) {
        return session instanceof ClientSession cs && cs.getConnectionContext() != null
                ? cs.getConnectionContext().getAttribute(LOGIN) : null;
    }

    /** known_hosts as OpenSSH reads it, decided once for both clients ({@link KnownHosts#accept}), per hop. */
    static boolean verify(ClientSession session, java.net.SocketAddress address, java.security.PublicKey key) {
        Login login = login(session);
        if (login == null) {
            return false;
        }
        SftpEndpoint at = login.endpoint();
        org.apache.sshd.common.util.buffer.ByteArrayBuffer blob = new org.apache.sshd.common.util.buffer.ByteArrayBuffer();
        blob.putRawPublicKey(key);
        return KnownHosts.accept(at.options(), at.connectTo(), at.port(), KeyUtils.getKeyType(key),
                blob.getCompactData(), session.getConnectionContext().getAttribute(KEY_PROBLEM));
    }

    /** The login's key files, loaded when MINA comes to them; an unusable one is skipped, its reason kept. */
    private static List<KeyPair> keys(org.apache.sshd.common.session.SessionContext session, Login login) {
        List<KeyPair> out = new ArrayList<>();
        for (Path f : login.keyFiles()) {
            boolean[] asked = {false};
            FilePasswordProvider passphrase = (ctx, resource, retry) -> {
                asked[0] = true;
                char[] p = login.passphrase(f);
                return p == null ? null : new String(p);
            };
            try (InputStream in = Files.newInputStream(f)) {
                Iterable<KeyPair> loaded = SecurityUtils.loadKeyPairIdentities(session, NamedResource.ofName(f.toString()), in,
                        passphrase);
                if (loaded != null) {
                    loaded.forEach(out::add);
                }
            } catch (IOException | java.security.GeneralSecurityException | RuntimeException e) {
                login.problem(asked[0] && login.endpoint().options().keyPassphrase().isPresent()
                        ? "the passphrase for the key " + f + " is wrong (or the key is damaged)"
                        : asked[0] ? "the key " + f + " is encrypted and no passphrase was given"
                        : "cannot load the key " + f + ": " + SftpEndpoint.rootMessage(e));
            }
        }
        return out;
    }

    /** MINA's agent hook, answered by {@link AgentClient} for the session's login. */
    static final class Agents implements org.apache.sshd.agent.SshAgentFactory {
        @Override
        public List<org.apache.sshd.common.channel.ChannelFactory> getChannelForwardingFactories(
                org.apache.sshd.common.FactoryManager manager) {
            return List.of(); // no agent forwarding to the server
        }

        @Override
        public org.apache.sshd.agent.SshAgent createClient(org.apache.sshd.common.session.Session session,
                org.apache.sshd.common.FactoryManager manager) {
            Login login = login(session);
            return login == null || login.agent().isEmpty() ? null : new Agent(login);
        }

        @Override
        public org.apache.sshd.agent.SshAgentServer createServer(org.apache.sshd.common.session.ConnectionService service) {
            throw new UnsupportedOperationException("agent forwarding is not offered");
        }
    }

    private static final class Agent implements org.apache.sshd.agent.SshAgent {
        private final Login login;
        private final java.util.Map<java.security.PublicKey, byte[]> blobs = new java.util.LinkedHashMap<>();

        Agent(Login login) {
            this.login = login;
        }

        @Override
        public Iterable<? extends java.util.Map.Entry<java.security.PublicKey, String>> getIdentities() {
            List<java.util.Map.Entry<java.security.PublicKey, String>> keys = new ArrayList<>();
            for (AgentClient.Identity id : login.agentKeys()) {
                try {
                    java.security.PublicKey k = new ByteArrayBuffer(id.blob()).getRawPublicKey();
                    blobs.put(k, id.blob());
                    keys.add(java.util.Map.entry(k, id.comment()));
                } catch (IOException | RuntimeException e) {
                    // a key type MINA cannot use (a security key, a certificate): not offered
                }
            }
            return keys;
        }

        @Override
        public java.util.Map.Entry<String, byte[]> sign(org.apache.sshd.common.session.SessionContext session,
                java.security.PublicKey key, String algo, byte[] data) throws IOException {
            byte[] blob = blobs.get(key);
            if (blob == null) {
                throw new IOException("the ssh-agent does not hold this key");
            }
            int flags = "rsa-sha2-512".equals(algo) ? AgentClient.RSA_SHA2_512
                    : "rsa-sha2-256".equals(algo) ? AgentClient.RSA_SHA2_256 : 0;
            ByteArrayBuffer signature = new ByteArrayBuffer(login.agent().orElseThrow().sign(blob, data, flags));
            String algorithm = signature.getString();
            return java.util.Map.entry(algorithm, signature.getBytes());
        }

        @Override
        public void addIdentity(KeyPair key, String comment, org.apache.sshd.agent.SshAgentKeyConstraint... constraints) {
            throw new UnsupportedOperationException("keys are not added to the agent");
        }

        @Override
        public void removeIdentity(java.security.PublicKey key) {
            throw new UnsupportedOperationException("keys are not removed from the agent");
        }

        @Override
        public void removeAllIdentities() {
            throw new UnsupportedOperationException("keys are not removed from the agent");
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            // one connection per request: nothing held
        }
    }

}
