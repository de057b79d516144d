package dev.remotepath.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The WebDAV part of {@link AotTraining}: the commands against a WebDAV server in this process,
 * so that the remote AOT cache holds the webdav backend's classes and the Jetty client's (an
 * {@code rpath ls webdav://} took 1.15 s with them loaded outside the cache). Not a WebDAV
 * server: just enough of RFC 4918 over a local folder for the training commands to succeed
 * (PROPFIND of depth 0, 1 and infinity, PROPPATCH accepted and forgotten, GET with a range, PUT, MKCOL,
 * MOVE, COPY, DELETE), with no locking and no authentication.
 */
final class AotWebDavTraining {

    private AotWebDavTraining() {
    }

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private record Server(Path root) {
        void handle(HttpExchange x) throws IOException {
            try (x) {
                String path = AotS3Training.decode(x.getRequestURI().getRawPath());
                Path p = root.resolve(path.substring(1)).normalize();
                if (!p.startsWith(root)) {
                    x.sendResponseHeaders(403, -1);
                    return;
                }
                byte[] body = x.getRequestBody().readAllBytes();
                switch (x.getRequestMethod()) {
                    case "PROPFIND" -> propfind(x, path, p);
                    case "PROPPATCH" -> send(x, 207, "<D:multistatus xmlns:D=\"DAV:\"><D:response><D:href>"
                            + x.getRequestURI().getRawPath() + "</D:href><D:propstat><D:prop/><D:status>HTTP/1.1 200 OK"
                            + "</D:status></D:propstat></D:response></D:multistatus>");
                    case "GET" -> get(x, p);
                    case "PUT" -> {
                        Files.write(p, body);
                        x.sendResponseHeaders(201, -1);
                    }
                    case "MKCOL" -> {
                        Files.createDirectory(p);
                        x.sendResponseHeaders(201, -1);
                    }
                    case "MOVE", "COPY" -> {
                        Path to = root.resolve(AotS3Training.decode(URI.create(x.getRequestHeaders().getFirst("Destination"))
                                .getRawPath()).substring(1)).normalize();
                        if (x.getRequestMethod().equals("MOVE")) {
                            Files.move(p, to, StandardCopyOption.REPLACE_EXISTING);
                        } else {
                            Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
                        }
                        x.sendResponseHeaders(201, -1);
                    }
                    case "DELETE" -> {
                        Files.delete(p);
                        x.sendResponseHeaders(204, -1);
                    }
                    default -> x.sendResponseHeaders(405, -1);
                }
            } catch (java.nio.file.NoSuchFileException e) {
                x.sendResponseHeaders(404, -1);
            }
        }

        private void propfind(HttpExchange x, String path, Path p) throws IOException {
            if (!Files.exists(p)) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            List<Path> all = new ArrayList<>(List.of(p));
            String depth = x.getRequestHeaders().getFirst("Depth");
            if (Files.isDirectory(p) && "infinity".equals(depth)) { // whole trees, as rclone serve and Caddy answer
                try (Stream<Path> s = Files.walk(p)) {
                    s.skip(1).forEach(all::add);
                }
            } else if (Files.isDirectory(p) && !"0".equals(depth)) {
                try (Stream<Path> s = Files.list(p)) {
                    s.sorted().forEach(all::add);
                }
            }
            StringBuilder b = new StringBuilder("<D:multistatus xmlns:D=\"DAV:\">");
            for (Path e : all) {
                boolean dir = Files.isDirectory(e);
                String href = "/" + dev.remotepath.UriPaths.encodePath(root.relativize(e).toString()).replaceFirst("^/", "")
                        + (dir && !e.equals(root) ? "/" : "");
                b.append("<D:response><D:href>").append(href.equals("//") ? "/" : href)
                        .append("</D:href><D:propstat><D:prop>")
                        .append(dir ? "<D:resourcetype><D:collection/></D:resourcetype>"
                                : "<D:resourcetype/><D:getcontentlength>" + Files.size(e) + "</D:getcontentlength>")
                        .append("<D:getlastmodified>").append(HTTP_DATE.format(Files.getLastModifiedTime(e).toInstant()))
                        .append("</D:getlastmodified><D:getetag>\"").append(Files.getLastModifiedTime(e).toMillis())
                        .append("\"</D:getetag></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>");
            }
            send(x, 207, b.append("</D:multistatus>").toString());
        }

        private static void get(HttpExchange x, Path p) throws IOException {
            byte[] data = Files.readAllBytes(p);
            String range = x.getRequestHeaders().getFirst("Range");
            int from = 0;
            int to = data.length - 1;
            if (range != null && range.startsWith("bytes=")) {
                String[] r = range.substring(6).split("-", 2);
                from = Integer.parseInt(r[0]);
                to = r.length > 1 && !r[1].isEmpty() ? (int) Math.min(Long.parseLong(r[1]), data.length - 1L) : to;
                x.getResponseHeaders().add("Content-Range", "bytes " + from + "-" + to + "/" + data.length);
            }
            int length = Math.max(0, to - from + 1);
            x.sendResponseHeaders(range != null ? 206 : 200, length == 0 ? -1 : length);
            if (length > 0) {
                try (OutputStream out = x.getResponseBody()) {
                    out.write(data, from, length);
                }
            }
        }
    }

    private static void send(HttpExchange x, int code, String body) throws IOException {
        byte[] b = ("<?xml version=\"1.0\" encoding=\"utf-8\"?>" + body).getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/xml; charset=utf-8");
        x.sendResponseHeaders(code, b.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(b);
        }
    }

    static void run(Path work, OutputStream sink, Path local) throws Exception {
        Path root = Files.createDirectories(work.resolve("webdav"));
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", new Server(root.toRealPath())::handle);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        String base = "webdav://127.0.0.1:" + server.getAddress().getPort();
        try {
            AotTraining.remoteCommands(sink, base, local, work);
        } finally {
            server.stop(0);
        }
    }
}
