package dev.remotepath.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Real WebDAV servers started as processes on 127.0.0.1, each serving a directory read-write
 * with a generated configuration in its own run directory (nothing under /etc is touched):
 * Apache httpd with {@code mod_dav_fs} ({@code apache2}), lighttpd with {@code mod_webdav} and
 * its property database ({@code lighttpd}), and {@code rclone serve webdav} ({@code rclone}).
 * Servers started as root drop to {@code nobody}, so the served tree is made writable by all.
 */
public final class WebDavServers {

    /** The servers, by the names {@link #start} takes. */
    public static final List<String> ALL = List.of("apache2", "lighttpd", "rclone");

    private WebDavServers() {
    }

    /** A running server; closing it stops the process. */
    public record Running(String server, Process process, int port, Path root, Path log) implements AutoCloseable {
        /** {@code webdav://127.0.0.1:PORT} */
        public String base() {
            return "webdav://127.0.0.1:" + port;
        }

        @Override
        public void close() throws Exception {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static void require(String server, String binary) throws LocalWebServers.NotInstalledException {
        if (!Files.isReadable(Path.of(binary))) {
            throw new LocalWebServers.NotInstalledException(server + " is not installed (" + binary + "); .ci/run installs it");
        }
    }

    /** Starts {@code server} serving {@code root} (made writable by all) read-write, its state under {@code work}. */
    public static Running start(String server, Path root, Path work) throws Exception {
        return start(server, root, work, null, null, null);
    }

    /**
     * Starts Apache httpd serving {@code root} only to {@code user} with {@code password}, by
     * {@code scheme} ({@code Basic} or {@code Digest}, realm {@code dav}).
     */
    public static Running startWithLogin(Path root, Path work, String scheme, String user, String password)
            throws Exception {
        return start("apache2", root, work, scheme, user, password);
    }

    private static String login(Path run, String scheme, String user, String password) throws Exception {
        if (scheme == null) {
            return "Require all granted";
        }
        Path file = run.resolve("users");
        if (scheme.equals("Digest")) {
            String ha1 = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                    .digest((user + ":dav:" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            Files.writeString(file, user + ":dav:" + ha1 + "\n");
        } else {
            String sha = java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("SHA-1")
                    .digest(password.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            Files.writeString(file, user + ":{SHA}" + sha + "\n");
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return "AuthType " + scheme + "\n  AuthName dav\n  AuthUserFile " + file + "\n"
                + (scheme.equals("Digest") ? "  AuthDigestProvider file\n" : "  AuthBasicProvider file\n")
                + "  Require valid-user";
    }

    private static Running start(String server, Path root, Path work, String scheme, String user, String password)
            throws Exception {
        int port = ServerProcesses.freePort();
        Path run = Files.createDirectories(work.resolve("run-dav-" + server + "-" + UUID.randomUUID()));
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path log = run.resolve("server.log");
        List<String> cmd;
        switch (server) {
            case "apache2" -> {
                require(server, "/usr/lib/apache2/modules/mod_dav_fs.so");
                Path conf = run.resolve("httpd.conf");
                String modules = "/usr/lib/apache2/modules";
                Files.writeString(conf, """
                        ServerRoot %1$s
                        Listen 127.0.0.1:%2$d
                        ServerName localhost
                        PidFile %1$s/httpd.pid
                        ErrorLog %1$s/error.log
                        Mutex file:%1$s default
                        LoadModule mpm_event_module %4$s/mod_mpm_event.so
                        LoadModule authz_core_module %4$s/mod_authz_core.so
                        LoadModule dav_module %4$s/mod_dav.so
                        LoadModule dav_fs_module %4$s/mod_dav_fs.so
                        LoadModule mime_module %4$s/mod_mime.so
                        LoadModule authn_core_module %4$s/mod_authn_core.so
                        LoadModule authn_file_module %4$s/mod_authn_file.so
                        LoadModule authz_user_module %4$s/mod_authz_user.so
                        LoadModule auth_basic_module %4$s/mod_auth_basic.so
                        LoadModule auth_digest_module %4$s/mod_auth_digest.so
                        TypesConfig /etc/mime.types
                        ServerLimit 2
                        StartServers 1
                        ThreadsPerChild 25
                        MaxRequestWorkers 50
                        User nobody
                        Group nogroup
                        DavLockDB %1$s/davlock
                        DocumentRoot "%3$s"
                        <Directory "%3$s">
                          Dav On
                          AllowOverride None
                          %5$s
                        </Directory>
                        """.formatted(run, port, root, modules, login(run, scheme, user, password)));
                cmd = List.of("/usr/sbin/apache2", "-d", run.toString(), "-f", conf.toString(), "-D", "FOREGROUND");
            }
            case "lighttpd" -> {
                require(server, "/usr/lib/lighttpd/mod_webdav.so");
                Path conf = run.resolve("lighttpd.conf");
                Files.writeString(conf, """
                        server.document-root = "%3$s"
                        server.bind = "127.0.0.1"
                        server.port = %2$d
                        server.errorlog = "%1$s/error.log"
                        server.username = "nobody"
                        server.groupname = "nogroup"
                        server.modules = ("mod_webdav")
                        webdav.activate = "enable"
                        webdav.is-readonly = "disable"
                        webdav.sqlite-db-name = "%1$s/webdav.db"
                        mimetype.assign = ("" => "application/octet-stream")
                        """.formatted(run, port, root));
                // lighttpd drops to nobody before opening its log and database: the run directory must be nobody's.
                new ProcessBuilder("chown", "-R", "nobody:nogroup", run.toString()).start().waitFor();
                cmd = List.of("/usr/sbin/lighttpd", "-D", "-f", conf.toString());
            }
            case "rclone" -> {
                require(server, "/usr/bin/rclone");
                cmd = List.of("/usr/bin/rclone", "serve", "webdav", root.toString(), "--addr", "127.0.0.1:" + port,
                        "--config", run.resolve("rclone.conf").toString());
            }
            default -> throw new IllegalArgumentException("unknown WebDAV server " + server);
        }
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("HOME", run.toString());
        Process p = builder.start();
        try {
            ServerProcesses.awaitListening(p, port, log, server + " (WebDAV) on port " + port);
        } catch (IOException e) {
            // Apache and lighttpd report a failure after reading their configuration in their own log.
            Path errors = run.resolve("error.log");
            throw Files.exists(errors) ? new IOException(e.getMessage() + Files.readString(errors), e) : e;
        }
        return new Running(server, p, port, root, log);
    }
}
