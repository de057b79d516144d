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

    /** The options with the entry's IdentityFile keys added (~ expanded), when they exist. */
    static SftpOptions withIdentities(SftpOptions options, HostConfigEntry entry) {
        if (entry.getIdentities() == null || entry.getIdentities().isEmpty()) {
            return options;
        }
        List<Path> keys = new ArrayList<>(options.identityFiles());
        for (String id : entry.getIdentities()) {
            Path p = id.startsWith("~/") ? Path.of(System.getProperty("user.home"), id.substring(2)) : Path.of(id);
            if (Files.isRegularFile(p) && !keys.contains(p)) {
                keys.add(p);
            }
        }
        return new SftpOptions(options.user(), options.password(), keys, options.knownHosts(), options.hostKeyPolicy(),
                options.connectTimeout(), options.sshConfig(), options.client(), options.keepAlive(), options.windowSize(),
                options.requestsInFlight(), options.connections(), options.readTimeout());
    }
}
