package dev.remotepath.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Real web servers (nginx, Apache httpd, lighttpd, Caddy, Python's http.server) started as
 * processes on 127.0.0.1 with a generated configuration serving a directory with listings on,
 * for tests and benchmarks. Nothing under /etc is touched; each server keeps its state in its
 * own run directory. The tree must be readable by {@code nobody} (servers started as root
 * drop to it).
 */
public final class LocalWebServers {

    private LocalWebServers() {
    }

    /** A running server; closing it stops the process. */
    public record Running(String server, Process process, int port, Path log) implements AutoCloseable {
        /** {@code http://127.0.0.1:PORT} */
        public String base() {
            return "http://127.0.0.1:" + port;
        }

        @Override
        public void close() throws Exception {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** Thrown when a server's program is not installed: callers skip, or fail in CI. */
    public static final class NotInstalledException extends IOException {
        public NotInstalledException(String message) {
            super(message);
        }
    }

    /** The program each server runs from (Debian's paths). */
    public static Path binary(String server) {
        return Path.of(switch (server) {
            case "python" -> "/usr/bin/python3";
            case "nginx" -> "/usr/sbin/nginx";
            case "apache2" -> "/usr/sbin/apache2";
            case "lighttpd" -> "/usr/sbin/lighttpd";
            case "caddy" -> "/usr/bin/caddy";
            case "mini_httpd" -> "/usr/sbin/mini_httpd";
            case "http-server", "serve" -> npmBin().resolve(server).toString();
            default -> throw new IllegalArgumentException("unknown server " + server);
        });
    }

    /**
     * Where {@code .ci/run} installs the npm servers ({@code npm install --prefix}):
     * {@code RPATH_NPM_PREFIX}, else {@code ~/.cache/remotepath-npm}.
     */
    public static Path npmBin() {
        String prefix = System.getenv("RPATH_NPM_PREFIX");
        Path root = prefix != null && !prefix.isBlank() ? Path.of(prefix)
                : Path.of(System.getProperty("user.home"), ".cache", "remotepath-npm");
        return root.resolve("node_modules").resolve(".bin");
    }

    private static void require(String server, String binary) throws NotInstalledException {
        if (!Files.isExecutable(Path.of(binary))) {
            throw new NotInstalledException(server + " is not installed (" + binary + "); .ci/run installs it");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * Starts {@code server} serving {@code root} with directory listings, its run directory
     * under {@code work}, and waits until it accepts connections.
     */
    public static Running start(String server, Path root, Path work) throws Exception {
        return start(server, root, work, java.util.Map.of());
    }

    /**
     * As {@link #start(String, Path, Path)}, with variables added to the server's environment
     * ({@code TZ=Asia/Kolkata}: a server that shows its listings in another local time).
     */
    public static Running start(String server, Path root, Path work, java.util.Map<String, String> environment)
            throws Exception {
        int port = freePort();
        Path run = Files.createDirectories(work.resolve("run-" + server + "-" + UUID.randomUUID()));
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path log = run.resolve("server.log");
        List<String> cmd;
        switch (server) {
            case "python" -> {
                require(server, "/usr/bin/python3");
                cmd = List.of("/usr/bin/python3", "-m", "http.server", String.valueOf(port), "--bind", "127.0.0.1",
                        "--directory", root.toString());
            }
            case "nginx" -> {
                require(server, "/usr/sbin/nginx");
                Files.createDirectories(run.resolve("tmp"));
                Path conf = run.resolve("nginx.conf");
                Files.writeString(conf, """
                        worker_processes 1;
                        pid %1$s/nginx.pid;
                        error_log %1$s/error.log;
                        events { worker_connections 64; }
                        http {
                          access_log off;
                          client_body_temp_path %1$s/tmp; proxy_temp_path %1$s/tmp; fastcgi_temp_path %1$s/tmp;
                          uwsgi_temp_path %1$s/tmp; scgi_temp_path %1$s/tmp;
                          server { listen 127.0.0.1:%2$d; root %3$s; autoindex on; }
                        }
                        """.formatted(run, port, root));
                cmd = List.of("/usr/sbin/nginx", "-p", run.toString(), "-e", run.resolve("error.log").toString(), "-c",
                        conf.toString(), "-g", "daemon off;");
            }
            case "apache2" -> {
                require(server, "/usr/sbin/apache2");
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
                        LoadModule dir_module %4$s/mod_dir.so
                        LoadModule autoindex_module %4$s/mod_autoindex.so
                        LoadModule mime_module %4$s/mod_mime.so
                        TypesConfig /etc/mime.types
                        ServerLimit 2
                        StartServers 1
                        ThreadsPerChild 25
                        MaxRequestWorkers 50
                        User nobody
                        Group nogroup
                        DocumentRoot "%3$s"
                        <Directory "%3$s">
                          Options Indexes
                          Require all granted
                          IndexOptions FancyIndexing HTMLTable NameWidth=* Charset=UTF-8
                        </Directory>
                        """.formatted(run, port, root, modules));
                cmd = List.of("/usr/sbin/apache2", "-d", run.toString(), "-f", conf.toString(), "-D", "FOREGROUND");
            }
            case "lighttpd" -> {
                require(server, "/usr/sbin/lighttpd");
                Path conf = run.resolve("lighttpd.conf");
                Files.writeString(conf, """
                        server.document-root = "%3$s"
                        server.bind = "127.0.0.1"
                        server.port = %2$d
                        server.errorlog = "%1$s/error.log"
                        server.username = "nobody"
                        server.groupname = "nogroup"
                        server.modules = ("mod_dirlisting")
                        dir-listing.activate = "enable"
                        mimetype.assign = (".txt" => "text/plain", "" => "application/octet-stream")
                        """.formatted(run, port, root));
                // lighttpd drops to nobody before opening its log: the run directory must be nobody's.
                new ProcessBuilder("chown", "-R", "nobody:nogroup", run.toString()).start().waitFor();
                cmd = List.of("/usr/sbin/lighttpd", "-D", "-f", conf.toString());
            }
            case "caddy" -> {
                require(server, "/usr/bin/caddy");
                Path conf = run.resolve("Caddyfile");
                Files.writeString(conf, """
                        {
                          admin off
                          auto_https off
                        }
                        http://127.0.0.1:%2$d {
                          bind 127.0.0.1
                          root * "%3$s"
                          file_server browse
                        }
                        """.formatted(run, port, root));
                cmd = List.of("/usr/bin/caddy", "run", "--config", conf.toString(), "--adapter", "caddyfile");
            }
            case "mini_httpd" -> {
                require(server, "/usr/sbin/mini_httpd");
                // Run as root it serves as nobody: the tree must be readable by all (the tests make it so).
                cmd = List.of("/usr/sbin/mini_httpd", "-D", "-h", "127.0.0.1", "-p", String.valueOf(port), "-d",
                        root.toString(), "-l", run.resolve("access.log").toString());
            }
            case "http-server" -> {
                String bin = binary(server).toString();
                require(server, bin);
                cmd = List.of(bin, root.toString(), "-a", "127.0.0.1", "-p", String.valueOf(port), "-s", "-c-1");
            }
            case "serve" -> {
                String bin = binary(server).toString();
                require(server, bin);
                cmd = List.of(bin, "-l", "tcp://127.0.0.1:" + port, "--no-clipboard", "--no-port-switching",
                        root.toString());
            }
            default -> throw new IllegalArgumentException(server);
        }
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        // Caddy writes state under HOME and XDG directories: keep it in the run directory.
        builder.environment().put("HOME", run.toString());
        builder.environment().put("XDG_DATA_HOME", run.resolve("data").toString());
        builder.environment().put("XDG_CONFIG_HOME", run.resolve("config").toString());
        builder.environment().putAll(environment);
        Process p = builder.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return new Running(server, p, port, log);
            } catch (IOException notYet) {
                if (!p.isAlive()) {
                    break;
                }
                Thread.sleep(100);
            }
        }
        p.destroyForcibly();
        String out = Files.exists(log) ? Files.readString(log) : "";
        Path errors = run.resolve("error.log");
        if (Files.exists(errors)) {
            out += Files.readString(errors);
        }
        throw new IOException(server + " did not start on port " + port + ":\n" + out);
    }
}
