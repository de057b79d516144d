package dev.remotepath.sftp;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.sshd.client.config.hosts.ConfigFileHostEntryResolver;
import org.apache.sshd.client.config.hosts.HostConfigEntry;

/** Reads the OpenSSH client configuration (Host blocks: HostName, Port, User, IdentityFile). */
final class SshConfig {

    private SshConfig() {
    }

    /** The effective entry for {@code host}, or null when the file is missing or has no block for it. */
    static HostConfigEntry lookup(Path file, String host) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        HostConfigEntry e = new ConfigFileHostEntryResolver(file).resolveEffectiveHost(host, 0, null, null, null, null);
        return e;
    }

    /**
     * The options with the entry's IdentityFile keys added (~ expanded) when they exist, its
     * IdentitiesOnly, IdentityAgent and ProxyJump applied where the options do not say otherwise.
     */
    static SftpOptions apply(SftpOptions options, HostConfigEntry entry) {
        SftpOptions.Builder b = options.toBuilder();
        if (entry.getIdentities() != null && !entry.getIdentities().isEmpty()) {
            List<Path> keys = new ArrayList<>(options.identityFiles());
            for (String id : entry.getIdentities()) {
                Path p = expand(id);
                if (Files.isRegularFile(p) && !keys.contains(p)) {
                    keys.add(p);
                }
            }
            b.identityFiles(keys);
        }
        if (entry.isIdentitiesOnly()) {
            b.identitiesOnly(true);
        }
        String agent = entry.getProperty(HostConfigEntry.IDENTITY_AGENT);
        if (agent != null && !agent.isBlank()) {
            String a = agent.strip();
            if (a.equalsIgnoreCase("none")) {
                b.noAgent();
            } else if (!a.equals("SSH_AUTH_SOCK") && !a.equals("$SSH_AUTH_SOCK")) {
                b.agentSocket(expand(a));
            }
        }
        String jump = entry.getProxyJump();
        if (options.proxyJump().isEmpty() && jump != null && !jump.isBlank() && !jump.strip().equalsIgnoreCase("none")) {
            b.proxyJump(jump.strip());
        }
        return b.build();
    }

    private static Path expand(String file) {
        return file.startsWith("~/") ? Path.of(System.getProperty("user.home"), file.substring(2)) : Path.of(file);
    }
}
