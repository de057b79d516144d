package dev.remotepath.sftp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one endpoint's login offers, decided once for both SSH libraries, in OpenSSH's order:
 * the agent's keys, then the identity files (those named, or OpenSSH's default files when none
 * is named), then keyboard-interactive and password. Nothing is asked before it is needed: a
 * key's passphrase when that key is tried, the password when the server has refused every key.
 * What could not be offered (an unreachable agent, an encrypted key without a passphrase) is
 * kept, so a refused login says why.
 */
final class Login {

    private static final Logger LOG = LoggerFactory.getLogger(Login.class);

    private final SftpEndpoint at;
    private final List<Path> keyFiles;
    private final boolean named;
    private final Optional<AgentClient> agent;
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private volatile int agentKeysOffered;
    private volatile boolean passwordAsked;
    private char[] password;

    Login(SftpEndpoint at) {
        this.at = at;
        SftpOptions o = at.options();
        this.named = !o.identityFiles().isEmpty();
        this.keyFiles = named ? o.identityFiles() : o.defaultIdentityFiles().stream().filter(Files::isRegularFile).toList();
        this.agent = o.agentSocket().map(s -> new AgentClient(s, o.connectTimeout().compareTo(Duration.ofSeconds(10)) < 0
                ? o.connectTimeout() : Duration.ofSeconds(10)));
    }

    SftpEndpoint endpoint() {
        return at;
    }

    /** The key files to offer after the agent's keys, in order. */
    List<Path> keyFiles() {
        return keyFiles;
    }

    /** Whether the key files were named (an unusable one is an error) rather than OpenSSH's defaults (skipped). */
    boolean named() {
        return named;
    }

    Optional<AgentClient> agent() {
        return agent;
    }

    /**
     * The agent's keys to offer: all of them, or with IdentitiesOnly those matching a key
     * file's {@code .pub}. An agent that cannot be reached gives none (the reason is kept).
     */
    List<AgentClient.Identity> agentKeys() {
        if (agent.isEmpty()) {
            return List.of();
        }
        List<AgentClient.Identity> keys;
        try {
            keys = agent.get().identities();
        } catch (IOException e) {
            problem(e.getMessage());
            LOG.debug("ssh-agent not usable for {}", at.where(), e);
            return List.of();
        }
        if (at.options().identitiesOnly()) {
            List<byte[]> allowed = publicBlobs();
            keys = keys.stream().filter(k -> allowed.stream().anyMatch(b -> Arrays.equals(b, k.blob()))).toList();
        }
        agentKeysOffered = keys.size();
        return keys;
    }

    private List<byte[]> publicBlobs() {
        List<byte[]> blobs = new ArrayList<>();
        for (Path f : keyFiles) {
            Path pub = f.resolveSibling(f.getFileName() + ".pub");
            try {
                String[] fields = Files.readString(pub).strip().split("\\s+");
                if (fields.length >= 2) {
                    blobs.add(Base64.getDecoder().decode(fields[1]));
                }
            } catch (IOException | IllegalArgumentException e) {
                // no usable .pub: that file's key is offered from the file only
            }
        }
        return blobs;
    }

    /** The passphrase of an encrypted key file, or null when none can be had (the reason is kept). */
    char[] passphrase(Path keyFile) {
        if (at.options().keyPassphrase().isEmpty()) {
            problem("the key " + keyFile + " is encrypted and no passphrase was given (SftpOptions.keyPassphrase)");
            return null;
        }
        char[] p = at.options().keyPassphrase().get().apply(keyFile);
        if (p == null) {
            problem("no passphrase was given for the key " + keyFile);
        }
        return p;
    }

    /**
     * The password, asked only once a password or keyboard-interactive method is tried, and
     * once per login (both methods take the same answer); a copy the caller may wipe, or null.
     */
    synchronized char[] password() {
        if (at.options().password().isEmpty()) {
            return null;
        }
        if (!passwordAsked) {
            passwordAsked = true;
            password = at.options().password().get().get();
        }
        return password == null ? null : password.clone();
    }

    void problem(String what) {
        if (!problems.contains(what)) {
            problems.add(what);
        }
    }

    List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    /** What was offered, for the refused login's message: never a secret. */
    String offered() {
        List<String> parts = new ArrayList<>();
        if (agentKeysOffered > 0) {
            parts.add(agentKeysOffered + " ssh-agent key" + (agentKeysOffered == 1 ? "" : "s"));
        }
        if (!keyFiles.isEmpty()) {
            parts.add("keys " + keyFiles);
        }
        if (passwordAsked) {
            parts.add("password"); // only when a password method was tried: a server may take none
        }
        return String.join(", ", parts);
    }
}
