package dev.remotepath.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The Azure part of {@link AotTraining}: the same commands against a blob service in this
 * process, so that the remote AOT cache holds the Azure SDK's classes (Netty, Reactor, its XML
 * and JSON layers: 2,700 of them loaded outside the cache made an {@code rpath ls az://} take
 * ~1.9 s). Not a blob service: just enough of the protocol for the training commands to
 * succeed (one container; List Blobs on one page; Put Blob, Copy Blob, Get Blob Properties,
 * Get Blob, Set Blob Metadata, Delete Blob), with no authentication.
 */
final class AotAzureTraining {

    private AotAzureTraining() {
    }

    private record Stored(byte[] data, Map<String, String> meta, Instant at, String etag, String md5) {
    }

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private static final class Service {
        final Map<String, ConcurrentSkipListMap<String, Stored>> containers = new java.util.concurrent.ConcurrentHashMap<>();

        void handle(HttpExchange x) throws IOException {
            try (x) {
                // /ACCOUNT/CONTAINER/BLOB
                String[] parts = x.getRequestURI().getRawPath().substring(1).split("/", 3);
                String container = parts.length > 1 ? AotS3Training.decode(parts[1]) : "";
                String blob = parts.length > 2 ? AotS3Training.decode(parts[2]) : "";
                Map<String, String> query = AotS3Training.query(x.getRequestURI().getRawQuery());
                byte[] body = x.getRequestBody().readAllBytes();
                ConcurrentSkipListMap<String, Stored> c = containers.get(container);
                String method = x.getRequestMethod();
                x.getResponseHeaders().add("x-ms-version", "2021-10-04");
                x.getResponseHeaders().add("x-ms-request-id", "training");
                if (blob.isEmpty()) {
                    container(x, method, container, c, query);
                } else if (c == null) {
                    fail(x, 404, "ContainerNotFound", method);
                } else {
                    blob(x, method, c, blob, query, body);
                }
            }
        }

        private void container(HttpExchange x, String method, String name, ConcurrentSkipListMap<String, Stored> c,
                Map<String, String> query) throws IOException {
            if ("PUT".equals(method)) {
                if (containers.putIfAbsent(name, new ConcurrentSkipListMap<>()) != null) {
                    fail(x, 409, "ContainerAlreadyExists", method);
                    return;
                }
                x.getResponseHeaders().add("ETag", "\"0x1\"");
                x.getResponseHeaders().add("Last-Modified", HTTP_DATE.format(Instant.now()));
                x.sendResponseHeaders(201, -1);
            } else if (c == null) {
                fail(x, 404, "ContainerNotFound", method);
            } else if ("list".equals(query.get("comp"))) {
                send(x, 200, list(c, query.getOrDefault("prefix", ""), query.get("delimiter")));
            } else {
                x.getResponseHeaders().add("ETag", "\"0x1\"");
                x.getResponseHeaders().add("Last-Modified", HTTP_DATE.format(Instant.now()));
                x.sendResponseHeaders(200, -1);
            }
        }

        private static String list(ConcurrentSkipListMap<String, Stored> c, String prefix, String delimiter) {
            StringBuilder r = new StringBuilder("<EnumerationResults ContainerName=\"training\"><Prefix>")
                    .append(AotS3Training.xml(prefix)).append("</Prefix>");
            if (delimiter != null) {
                r.append("<Delimiter>").append(AotS3Training.xml(delimiter)).append("</Delimiter>");
            }
            r.append("<Blobs>");
            TreeSet<String> prefixes = new TreeSet<>();
            for (Map.Entry<String, Stored> e : c.tailMap(prefix).entrySet()) {
                String name = e.getKey();
                if (!name.startsWith(prefix)) {
                    break;
                }
                int d = delimiter == null ? -1 : name.indexOf(delimiter, prefix.length());
                if (d >= 0) {
                    prefixes.add(name.substring(0, d + 1));
                    continue;
                }
                Stored s = e.getValue();
                r.append("<Blob><Name>").append(AotS3Training.xml(name)).append("</Name><Properties><Last-Modified>")
                        .append(HTTP_DATE.format(s.at())).append("</Last-Modified><Etag>").append(s.etag())
                        .append("</Etag><Content-Length>").append(s.data().length)
                        .append("</Content-Length><Content-Type>application/octet-stream</Content-Type><Content-MD5>")
                        .append(s.md5()).append("</Content-MD5><BlobType>BlockBlob</BlobType></Properties><Metadata>");
                s.meta().forEach((k, v) -> r.append('<').append(k).append('>').append(AotS3Training.xml(v))
                        .append("</").append(k).append('>'));
                r.append("</Metadata></Blob>");
            }
            for (String p : prefixes) {
                r.append("<BlobPrefix><Name>").append(AotS3Training.xml(p)).append("</Name></BlobPrefix>");
            }
            return r.append("</Blobs><NextMarker /></EnumerationResults>").toString();
        }

        private void blob(HttpExchange x, String method, ConcurrentSkipListMap<String, Stored> c, String name,
                Map<String, String> query, byte[] body) throws IOException {
            Stored s = c.get(name);
            switch (method) {
                case "PUT" -> {
                    if ("metadata".equals(query.get("comp"))) {
                        if (s == null) {
                            fail(x, 404, "BlobNotFound", method);
                            return;
                        }
                        Stored n = stored(s.data(), meta(x));
                        c.put(name, n);
                        headers(x, n);
                        x.sendResponseHeaders(200, -1);
                        return;
                    }
                    if ("*".equals(x.getRequestHeaders().getFirst("If-None-Match")) && s != null) {
                        fail(x, 409, "BlobAlreadyExists", method);
                        return;
                    }
                    String copy = x.getRequestHeaders().getFirst("x-ms-copy-source");
                    if (copy != null) {
                        String[] from = java.net.URI.create(copy).getRawPath().substring(1).split("/", 3);
                        Stored src = containers.getOrDefault(AotS3Training.decode(from[1]), new ConcurrentSkipListMap<>())
                                .get(AotS3Training.decode(from[2]));
                        if (src == null) {
                            fail(x, 404, "CannotVerifyCopySource", method);
                            return;
                        }
                        Stored n = new Stored(src.data(), src.meta(), Instant.now().truncatedTo(ChronoUnit.SECONDS),
                                src.etag() + "1", src.md5());
                        c.put(name, n);
                        headers(x, n);
                        x.getResponseHeaders().add("x-ms-copy-id", "training-copy");
                        x.getResponseHeaders().add("x-ms-copy-status", "success");
                        x.sendResponseHeaders(202, -1);
                        return;
                    }
                    Stored n = stored(body, meta(x));
                    c.put(name, n);
                    headers(x, n);
                    x.getResponseHeaders().add("x-ms-request-server-encrypted", "true");
                    x.sendResponseHeaders(201, -1);
                }
                case "HEAD", "GET" -> {
                    if (s == null) {
                        fail(x, 404, "BlobNotFound", method);
                        return;
                    }
                    headers(x, s);
                    x.getResponseHeaders().add("x-ms-blob-type", "BlockBlob");
                    x.getResponseHeaders().add("Content-Type", "application/octet-stream");
                    s.meta().forEach((k, v) -> x.getResponseHeaders().add("x-ms-meta-" + k, v));
                    if ("HEAD".equals(method)) {
                        x.getResponseHeaders().add("Content-Length", Integer.toString(s.data().length));
                        x.sendResponseHeaders(200, -1);
                        return;
                    }
                    String range = x.getRequestHeaders().getFirst("x-ms-range");
                    range = range != null ? range : x.getRequestHeaders().getFirst("Range");
                    int from = 0;
                    int to = s.data().length - 1;
                    if (range != null && range.startsWith("bytes=")) {
                        String[] fromTo = range.substring(6).split("-", 2);
                        from = Integer.parseInt(fromTo[0]);
                        if (fromTo.length > 1 && !fromTo[1].isEmpty()) {
                            to = Math.min(to, Integer.parseInt(fromTo[1]));
                        }
                        if (from >= s.data().length) {
                            fail(x, 416, "InvalidRange", method);
                            return;
                        }
                        x.getResponseHeaders().add("Content-Range", "bytes " + from + "-" + to + "/" + s.data().length);
                    }
                    byte[] part = java.util.Arrays.copyOfRange(s.data(), from, to + 1);
                    x.sendResponseHeaders(range != null ? 206 : 200, part.length == 0 ? -1 : part.length);
                    try (OutputStream out = x.getResponseBody()) {
                        out.write(part);
                    }
                }
                case "DELETE" -> {
                    if (c.remove(name) == null) {
                        fail(x, 404, "BlobNotFound", method);
                        return;
                    }
                    x.sendResponseHeaders(202, -1);
                }
                default -> fail(x, 405, "UnsupportedHttpVerb", method);
            }
        }

        private static void headers(HttpExchange x, Stored s) {
            x.getResponseHeaders().add("ETag", s.etag());
            x.getResponseHeaders().add("Last-Modified", HTTP_DATE.format(s.at()));
            x.getResponseHeaders().add("Content-MD5", s.md5());
        }

        private static Map<String, String> meta(HttpExchange x) {
            Map<String, String> meta = new HashMap<>();
            x.getRequestHeaders().forEach((k, v) -> {
                if (k.toLowerCase(java.util.Locale.ROOT).startsWith("x-ms-meta-")) {
                    meta.put(k.substring("x-ms-meta-".length()).toLowerCase(java.util.Locale.ROOT), v.getFirst());
                }
            });
            return meta;
        }

        private static Stored stored(byte[] data, Map<String, String> meta) {
            try {
                String md5 = Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
                return new Stored(data, meta, Instant.now().truncatedTo(ChronoUnit.SECONDS),
                        "\"0x" + Long.toHexString(System.nanoTime()) + "\"", md5);
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static void run(Path work, OutputStream sink, Path local) throws Exception {
        Service service = new Service();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", service::handle);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        Map<String, String> saved = Paths.azureEnvironment;
        // the emulator's published development key: the service here checks no signature
        Paths.azureEnvironment = Map.of("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=http;"
                + "AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq"
                + "/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:" + server.getAddress().getPort()
                + "/devstoreaccount1;");
        try {
            String file = local.resolve("dir0/file0.txt").toString();
            AotTraining.run(sink, "mkdir", "az://training");
            AotTraining.run(sink, "sync", local.toString(), "az://training/tree", "--json");
            AotTraining.run(sink, "sync", local.toString(), "az://training/tree");
            AotTraining.run(sink, "ls", "-l", "az://training/tree/");
            AotTraining.run(sink, "ls", "--json", "-R", "az://training/tree/dir0/");
            AotTraining.run(sink, "stat", "--json", "az://training/tree/dir0/file0.txt");
            AotTraining.run(sink, "cp", file, "az://training/one.txt");
            AotTraining.run(sink, "cp", "az://training/one.txt", "az://training/two.txt");
            AotTraining.run(sink, "cp", "az://training/one.txt", work.resolve("one-az.txt").toString());
            AotTraining.run(sink, "checksum", "az://training/one.txt");
            AotTraining.run(sink, "rm", "az://training/two.txt");
        } finally {
            Paths.azureEnvironment = saved;
            server.stop(0);
        }
    }

    private static void send(HttpExchange x, int code, String body) throws IOException {
        byte[] b = ("<?xml version=\"1.0\" encoding=\"utf-8\"?>" + body).getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/xml");
        x.sendResponseHeaders(code, b.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(b);
        }
    }

    private static void fail(HttpExchange x, int code, String error, String method) throws IOException {
        x.getResponseHeaders().add("x-ms-error-code", error);
        if ("HEAD".equals(method)) {
            x.sendResponseHeaders(code, -1);
            return;
        }
        send(x, code, "<Error><Code>" + error + "</Code><Message>" + error + "</Message></Error>");
    }
}
