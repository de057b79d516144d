package dev.remotepath.ftp;

import dev.remotepath.testkit.LocalWebServers;
import dev.remotepath.testkit.ServerProcesses;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.ftpserver.DataConnectionConfigurationFactory;
import org.apache.ftpserver.FtpServer;
import org.apache.ftpserver.FtpServerFactory;
import org.apache.ftpserver.ftplet.Authority;
import org.apache.ftpserver.listener.ListenerFactory;
import org.apache.ftpserver.ssl.SslConfigurationFactory;
import org.apache.ftpserver.usermanager.PropertiesUserManagerFactory;
import org.apache.ftpserver.usermanager.impl.BaseUser;
import org.apache.ftpserver.usermanager.impl.WritePermission;

/**
 * Real FTP servers on 127.0.0.1 for the tests, each serving {@code root} as the login's root
 * directory: Apache MINA FtpServer in-process, and ProFTPD, vsftpd and Pure-FTPd as processes
 * with a generated configuration ({@code .ci/run} installs ProFTPD from Debian and unpacks
 * vsftpd's and Pure-FTPd's packages, which Debian will not install beside it, into a cache).
 * With TLS each gets a fresh self-signed certificate for {@code localhost} and 127.0.0.1, and the
 * client trusts that certificate alone.
 */
final class FtpServers {

    static final String USER = "tester";
    static final String PASSWORD = "s3cret-pw";

    /** TLS as the server offers it. */
    enum Tls {
        NONE, EXPLICIT, IMPLICIT
    }

    /** A started server. */
    record Running(String name, int port, String user, Tls tls, Optional<SSLContext> trust, String below,
            AutoCloseable stop) implements AutoCloseable {

        Running(String name, int port, String user, Tls tls, Optional<SSLContext> trust, AutoCloseable stop) {
            this(name, port, user, tls, trust, "", stop);
        }

        /** The URI of the served directory, without a trailing slash. */
        URI base() {
            String userPart = user.equals("anonymous") ? "" : user + "@";
            return URI.create((tls == Tls.NONE ? "ftp" : "ftps") + "://" + userPart + "127.0.0.1:" + port + below);
        }

        FtpOptions.Builder options() {
            FtpOptions.Builder b = FtpOptions.builder().implicitTls(tls == Tls.IMPLICIT);
            if (!user.equals("anonymous")) {
                b.password(PASSWORD);
            }
            trust.ifPresent(b::sslContext);
            return b;
        }

        @Override
        public void close() throws Exception {
            stop.close();
        }
    }

    private FtpServers() {
    }

    static Running start(String server, Path root, Path work, Tls tls) throws Exception {
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
        return switch (server) {
            case "mina" -> mina(root, work, tls);
            case "proftpd" -> proftpd(root, work, tls);
            case "vsftpd" -> vsftpd(root, work, tls);
            case "pure-ftpd" -> pureFtpd(root, work, tls);
            default -> throw new IllegalArgumentException(server);
        };
    }

    // ------------------------------------------------------------------ certificates

    /** A self-signed certificate and key (PEM) for localhost and 127.0.0.1; returns {cert, key}. */
    private static Path[] certificate(Path work) throws Exception {
        Path cert = work.resolve("cert.pem");
        Path key = work.resolve("key.pem");
        if (!Files.exists(cert)) {
            ServerProcesses.run(List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    key.toString(), "-out", cert.toString(), "-days", "2", "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1"));
        }
        return new Path[] {cert, key};
    }

    /** An SSLContext that trusts {@code cert} alone. */
    static SSLContext trusting(Path cert) throws Exception {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        try (InputStream in = Files.newInputStream(cert)) {
            ks.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    private static Optional<SSLContext> trust(Path work, Tls tls) throws Exception {
        return tls == Tls.NONE ? Optional.empty() : Optional.of(trusting(certificate(work)[0]));
    }

    // ------------------------------------------------------------------ MINA FtpServer

    static Running mina(Path root, Path work, Tls tls) throws Exception {
        return mina(root, work, tls, false);
    }

    /**
     * @param caseInsensitive whether the server looks names up without regard to case, as an FTP
     *                        server on Windows does (MINA's {@code NativeFileSystemFactory} option)
     */
    static Running mina(Path root, Path work, Tls tls, boolean caseInsensitive) throws Exception {
        FtpServerFactory factory = new FtpServerFactory();
        org.apache.ftpserver.filesystem.nativefs.NativeFileSystemFactory disk =
                new org.apache.ftpserver.filesystem.nativefs.NativeFileSystemFactory();
        disk.setCaseInsensitive(caseInsensitive);
        factory.setFileSystem(disk);
        ListenerFactory listener = new ListenerFactory();
        int port = ServerProcesses.freePort();
        listener.setPort(port);
        listener.setServerAddress("127.0.0.1");
        DataConnectionConfigurationFactory data = new DataConnectionConfigurationFactory();
        data.setPassiveAddress("127.0.0.1");
        data.setPassiveExternalAddress("127.0.0.1");
        if (tls != Tls.NONE) {
            Path[] pem = certificate(work);
            Path p12 = work.resolve("server.p12");
            if (!Files.exists(p12)) {
                ServerProcesses.run(List.of("openssl", "pkcs12", "-export", "-in", pem[0].toString(), "-inkey",
                        pem[1].toString(), "-out", p12.toString(), "-passout", "pass:changeit", "-name", "server"));
            }
            SslConfigurationFactory ssl = new SslConfigurationFactory();
            ssl.setKeystoreFile(p12.toFile());
            ssl.setKeystoreType("PKCS12");
            ssl.setKeystorePassword("changeit");
            listener.setSslConfiguration(ssl.createSslConfiguration());
            listener.setImplicitSsl(tls == Tls.IMPLICIT);
            data.setSslConfiguration(ssl.createSslConfiguration());
            data.setImplicitSsl(true);
        }
        listener.setDataConnectionConfiguration(data.createDataConnectionConfiguration());
        factory.addListener("default", listener.createListener());
        PropertiesUserManagerFactory users = new PropertiesUserManagerFactory();
        users.setFile(Files.createFile(work.resolve("users-" + port + ".properties")).toFile());
        users.setPasswordEncryptor(new org.apache.ftpserver.usermanager.ClearTextPasswordEncryptor());
        org.apache.ftpserver.ftplet.UserManager manager = users.createUserManager();
        BaseUser user = new BaseUser();
        user.setName(USER);
        user.setPassword(PASSWORD);
        user.setHomeDirectory(root.toString());
        List<Authority> rights = new ArrayList<>();
        rights.add(new WritePermission());
        user.setAuthorities(rights);
        manager.save(user);
        factory.setUserManager(manager);
        org.apache.ftpserver.ConnectionConfigFactory conn = new org.apache.ftpserver.ConnectionConfigFactory();
        conn.setMaxLogins(100);
        conn.setMaxThreads(0);
        factory.setConnectionConfig(conn.createConnectionConfig());
        FtpServer server = factory.createServer();
        server.start();
        return new Running("MINA FtpServer", port, USER, tls, trust(work, tls), server::stop);
    }

    // ------------------------------------------------------------------ ProFTPD

    static final Path PROFTPD = Path.of("/usr/sbin/proftpd");

    static Running proftpd(Path root, Path work, Tls tls) throws Exception {
        require("ProFTPD", PROFTPD);
        int port = ServerProcesses.freePort();
        Path dir = Files.createDirectories(work.resolve("proftpd-" + port));
        String uid = ServerProcesses.run(List.of("id", "-u")).trim();
        String gid = ServerProcesses.run(List.of("id", "-g")).trim();
        String userName = ServerProcesses.run(List.of("id", "-un")).trim();
        String groupName = ServerProcesses.run(List.of("id", "-gn")).trim();
        String hash = ServerProcesses.run(List.of("openssl", "passwd", "-6", PASSWORD)).trim();
        Path passwd = Files.writeString(dir.resolve("passwd"), USER + ":" + hash + ":" + uid + ":" + gid + "::" + root
                + ":/bin/sh\n");
        Path group = Files.writeString(dir.resolve("group"), groupName + ":x:" + gid + ":\n");
        Files.setPosixFilePermissions(passwd, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(group, PosixFilePermissions.fromString("rw-------"));
        String tlsConfig = "";
        if (tls != Tls.NONE) {
            Path[] pem = certificate(work);
            tlsConfig = """
                    LoadModule mod_tls.c
                    TLSEngine on
                    TLSLog %s
                    TLSProtocol TLSv1.2 TLSv1.3
                    TLSRSACertificateFile %s
                    TLSRSACertificateKeyFile %s
                    TLSRequired on
                    TLSOptions NoSessionReuseRequired%s
                    """.formatted(dir.resolve("tls.log"), pem[0], pem[1], tls == Tls.IMPLICIT ? " UseImplicitSSL" : "");
        }
        Path config = dir.resolve("proftpd.conf");
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
                DefaultRoot ~
                AllowOverwrite on
                AllowStoreRestart on
                Umask 022
                MaxInstances 100
                <IfModule mod_dso.c>
                  ModulePath /usr/lib/proftpd
                %s
                </IfModule>
                """.formatted(port, userName, groupName, dir.resolve("proftpd.pid"), dir.resolve("proftpd.scoreboard"),
                dir.resolve("proftpd.log"), passwd, group, tlsConfig.indent(2)));
        Path log = dir.resolve("proftpd.out");
        Process process = new ProcessBuilder(List.of(PROFTPD.toString(), "-n", "-c", config.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServerProcesses.awaitListening(process, port, log, "proftpd (FTP)");
        return new Running("ProFTPD", port, USER, tls, trust(work, tls), () -> stop(process));
    }

    // ------------------------------------------------------------------ vsftpd

    static Running vsftpd(Path root, Path work, Tls tls) throws Exception {
        Path binary = located("vsftpd", "usr/sbin/vsftpd");
        int port = ServerProcesses.freePort();
        Path dir = Files.createDirectories(work.resolve("vsftpd-" + port));
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Files.setPosixFilePermissions(empty, PosixFilePermissions.fromString("r-xr-xr-x"));
        String tlsConfig = "";
        if (tls != Tls.NONE) {
            Path[] pem = certificate(work);
            tlsConfig = """
                    ssl_enable=YES
                    allow_anon_ssl=YES
                    force_anon_logins_ssl=YES
                    force_anon_data_ssl=YES
                    require_ssl_reuse=NO
                    ssl_ciphers=HIGH
                    rsa_cert_file=%s
                    rsa_private_key_file=%s
                    implicit_ssl=%s
                    """.formatted(pem[0], pem[1], tls == Tls.IMPLICIT ? "YES" : "NO");
        }
        Path config = dir.resolve("vsftpd.conf");
        Files.writeString(config, """
                listen=YES
                listen_ipv6=NO
                listen_address=127.0.0.1
                listen_port=%d
                background=NO
                anonymous_enable=YES
                local_enable=NO
                anon_root=%s
                no_anon_password=YES
                ftp_username=daemon
                write_enable=YES
                anon_upload_enable=YES
                anon_mkdir_write_enable=YES
                anon_other_write_enable=YES
                anon_world_readable_only=NO
                anon_umask=022
                allow_writeable_chroot=YES
                secure_chroot_dir=%s
                seccomp_sandbox=NO
                isolate=NO
                isolate_network=NO
                pasv_enable=YES
                pasv_address=127.0.0.1
                pasv_addr_resolve=NO
                use_localtime=NO
                force_dot_files=YES
                xferlog_enable=NO
                vsftpd_log_file=%s
                dual_log_enable=NO
                max_clients=100
                max_per_ip=100
                %s
                """.formatted(port, root, empty, dir.resolve("vsftpd.log"), tlsConfig));
        Path log = dir.resolve("vsftpd.out");
        // vsftpd refuses an anonymous chroot it can write to: the root is read-only, the tests work in /pub
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path pub = Files.createDirectories(root.resolve("pub"));
        Files.setPosixFilePermissions(pub, PosixFilePermissions.fromString("rwxrwxrwx"));
        Process process = new ProcessBuilder(List.of(binary.toString(), config.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServerProcesses.awaitListening(process, port, log, "vsftpd");
        return new Running("vsftpd", port, "anonymous", tls, trust(work, tls), "/pub", () -> stop(process));
    }

    // ------------------------------------------------------------------ Pure-FTPd

    static Running pureFtpd(Path root, Path work, Tls tls) throws Exception {
        Path binary = located("pure-ftpd", "usr/sbin/pure-ftpd");
        Path purePw = located("pure-ftpd", "usr/bin/pure-pw");
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new LocalWebServers.NotInstalledException("Pure-FTPd's virtual users need root (it chroots)");
        }
        int port = ServerProcesses.freePort();
        Path dir = Files.createDirectories(work.resolve("pure-ftpd-" + port));
        Path passwd = dir.resolve("pureftpd.passwd");
        Path pdb = dir.resolve("pureftpd.pdb");
        // pure-pw would hash with argon2id, tuned to take seconds per login: a SHA-512 crypt hash
        // (which Pure-FTPd checks with crypt(3)) keeps each of the tests' logins fast
        String hash = ServerProcesses.run(List.of("openssl", "passwd", "-6", PASSWORD)).trim();
        Files.writeString(passwd, USER + ":" + hash + ":65534:65534::" + root + "/./::::::::::::\n");
        ServerProcesses.run(List.of(purePw.toString(), "mkdb", pdb.toString(), "-f", passwd.toString()));
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "-S", "127.0.0.1," + port, "-l", "puredb:" + pdb,
                "-E", "-A", "-H", "-D", "-p", "30000:60000", "-P", "127.0.0.1", "-c", "100", "-C", "100",
                "-u", "1", "-O", "clf:" + dir.resolve("transfer.log")));
        if (tls != Tls.NONE) {
            if (tls == Tls.IMPLICIT) {
                throw new LocalWebServers.NotInstalledException("Pure-FTPd has no implicit TLS");
            }
            Path[] pem = certificate(work);
            cmd.addAll(List.of("-Y", "2", "-2", pem[0] + "," + pem[1]));
        }
        Path log = dir.resolve("pure-ftpd.out");
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServerProcesses.awaitListening(process, port, log, "pure-ftpd");
        return new Running("Pure-FTPd", port, USER, tls, trust(work, tls), () -> stop(process));
    }

    // ------------------------------------------------------------------ helpers

    /**
     * A server binary: installed, or unpacked by {@code .ci/run} from its Debian package into
     * {@code $RPATH_DEB_ROOT} ({@code ~/.cache/remotepath-debs/root} by default).
     */
    static Path located(String server, String relative) throws LocalWebServers.NotInstalledException {
        Path installed = Path.of("/").resolve(relative);
        if (Files.isExecutable(installed)) {
            return installed;
        }
        String env = System.getenv("RPATH_DEB_ROOT");
        Path unpacked = (env != null ? Path.of(env) : Path.of(System.getProperty("user.home"), ".cache",
                "remotepath-debs", "root")).resolve(relative);
        if (Files.isExecutable(unpacked)) {
            return unpacked;
        }
        throw new LocalWebServers.NotInstalledException(server + " is not installed (" + installed + " or " + unpacked
                + "); .ci/run unpacks it");
    }

    private static void require(String server, Path binary) throws LocalWebServers.NotInstalledException {
        if (!Files.isExecutable(binary)) {
            throw new LocalWebServers.NotInstalledException(server + " is not installed (" + binary + "); .ci/run installs it");
        }
    }

    private static void stop(Process process) throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
