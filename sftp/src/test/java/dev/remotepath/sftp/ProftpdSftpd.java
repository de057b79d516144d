package dev.remotepath.sftp;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * ProFTPD with mod_sftp (Debian {@code proftpd-core} and {@code proftpd-mod-crypto}), standalone
 * in the foreground on 127.0.0.1 with a configuration of its own: one virtual user with the
 * test's own uid (from an AuthUserFile, so no system account is touched), key login with the
 * key in RFC 4716 form as mod_sftp wants it, overwrites allowed as every SFTP server does.
 */
final class ProftpdSftpd implements RealSftpServer {

    static final Path PROFTPD = Path.of("/usr/sbin/proftpd");
    static final Path MOD_SFTP = Path.of("/usr/lib/proftpd/mod_sftp.so");
    static final String USER = "tester";
    /** A second virtual user, uid 65534, without rights to what the tests make. */
    static final String UNPRIVILEGED = "denied";

    private final int port;
    private final Path clientKey;
    private final Path knownHosts;
    private final Process process;

    ProftpdSftpd(Path work) throws Exception {
        Path hostKey = work.resolve("host_ecdsa");
        clientKey = work.resolve("client_ecdsa");
        dev.remotepath.testkit.ServerProcesses.keygen(hostKey, true);
        dev.remotepath.testkit.ServerProcesses.keygen(clientKey, false);
        Path keys = work.resolve("client.rfc4716");
        Files.writeString(keys, dev.remotepath.testkit.ServerProcesses.run(List.of("ssh-keygen", "-e", "-f", clientKey + ".pub")));
        port = dev.remotepath.testkit.ServerProcesses.freePort();
        knownHosts = RealSftpServer.knownHosts(work, port, hostKey);
        String uid = dev.remotepath.testkit.ServerProcesses.run(List.of("id", "-u")).trim();
        String gid = dev.remotepath.testkit.ServerProcesses.run(List.of("id", "-g")).trim();
        String userName = dev.remotepath.testkit.ServerProcesses.run(List.of("id", "-un")).trim();
        String groupName = dev.remotepath.testkit.ServerProcesses.run(List.of("id", "-gn")).trim();
        Path passwd = Files.writeString(work.resolve("passwd"), USER + ":x:" + uid + ":" + gid + "::" + work + ":/bin/sh\n"
                + UNPRIVILEGED + ":x:65534:65534::" + work + ":/bin/sh\n");
        Path group = Files.writeString(work.resolve("group"), groupName + ":x:" + gid + ":\nnogroup:x:65534:\n");
        Files.setPosixFilePermissions(passwd, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(group, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Path config = work.resolve("proftpd.conf");
        Files.writeString(config, """
                ServerType standalone
                ServerName "remotepath-test"
                Port %d
                DefaultAddress 127.0.0.1
                SocketBindTight on
                UseIPv6 off
                User %s
                Group %s
                PidFile %s
                ScoreboardFile %s
                DelayTable none
                WtmpLog off
                TransferLog none
                SystemLog %s
                UseReverseDNS off
                RootLogin on
                RequireValidShell off
                AuthOrder mod_auth_file.c
                AuthUserFile %s
                AuthGroupFile %s
                AllowOverwrite on
                AllowStoreRestart on
                Umask 022
                <IfModule mod_dso.c>
                  ModulePath /usr/lib/proftpd
                  LoadModule mod_sftp.c
                </IfModule>
                SFTPEngine on
                SFTPLog %s
                SFTPHostKey %s
                SFTPAuthMethods publickey
                SFTPAuthorizedUserKeys file:%s
                """.formatted(port, userName, groupName, work.resolve("proftpd.pid"), work.resolve("proftpd.scoreboard"),
                work.resolve("proftpd.log"), passwd, group, work.resolve("sftp.log"), hostKey, keys));
        Path log = work.resolve("proftpd.out");
        process = new ProcessBuilder(List.of(PROFTPD.toString(), "-n", "-c", config.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        dev.remotepath.testkit.ServerProcesses.awaitListening(process, port, log, "proftpd");
    }

    @Override
    public URI uri(Path absolute) {
        return URI.create("sftp://" + USER + "@127.0.0.1:" + port + dev.remotepath.UriPaths.encodePath(absolute.toString()));
    }

    @Override
    public SftpOptions.Builder optionsBuilder(SftpOptions.Client client) {
        return SftpOptions.builder().identityFiles(List.of(clientKey)).knownHosts(knownHosts).client(client);
    }

    @Override
    public String name() {
        return "ProFTPD mod_sftp";
    }

    @Override
    public java.util.Optional<URI> unprivilegedUri(Path absolute) {
        if (!"root".equals(System.getProperty("user.name"))) {
            return java.util.Optional.empty(); // only root may switch to another uid
        }
        return java.util.Optional.of(URI.create("sftp://" + UNPRIVILEGED + "@127.0.0.1:" + port
                + dev.remotepath.UriPaths.encodePath(absolute.toString())));
    }

    @Override
    public void close() throws Exception {
        // Session processes are forked children: end them with the daemon.
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        process.waitFor();
    }
}
