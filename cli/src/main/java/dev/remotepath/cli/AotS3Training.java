package dev.remotepath.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The S3 part of {@link AotTraining}: the same commands against a store in this process, so that
 * the remote AOT cache holds the AWS SDK's classes (2,600 of them loaded outside the cache made
 * an {@code rpath ls s3://} take ~1 s). Not an S3 implementation: just enough of the protocol
 * for the training commands to succeed (path-style buckets; ListObjectsV2 with a delimiter on
 * one page; PUT, copy, HEAD, GET, DELETE, DeleteObjects), with no authentication.
 */
final class AotS3Training {

    private AotS3Training() {
    }

    private record Stored(byte[] data, Map<String, String> meta, Instant at, String etag) {
    }

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);
    private static final Pattern DELETE_KEY = Pattern.compile("<Key>([^<]*)</Key>");

    private static final class Store {
        final Map<String, ConcurrentSkipListMap<String, Stored>> buckets = new java.util.concurrent.ConcurrentHashMap<>();

        void handle(HttpExchange x) throws IOException {
            try (x) {
                String raw = x.getRequestURI().getRawPath();
                String[] parts = raw.substring(1).split("/", 2);
                String bucket = decode(parts[0]);
                String key = parts.length > 1 ? decode(parts[1]) : "";
                Map<String, String> query = query(x.getRequestURI().getRawQuery());
                byte[] body = x.getRequestBody().readAllBytes();
                ConcurrentSkipListMap<String, Stored> b = buckets.get(bucket);
                String method = x.getRequestMethod();
                if (key.isEmpty()) {
                    bucket(x, method, bucket, b, query, body);
                } else if (b == null) {
                    send(x, 404, error("NoSuchBucket"));
                } else {
                    object(x, method, b, key, body);
                }
            }
        }

        private void bucket(HttpExchange x, String method, String name, ConcurrentSkipListMap<String, Stored> b,
                Map<String, String> query, byte[] body) throws IOException {
            switch (method) {
                case "PUT" -> {
                    buckets.putIfAbsent(name, new ConcurrentSkipListMap<>());
                    send(x, 200, "");
                }
                case "HEAD" -> send(x, b == null ? 404 : 200, null);
                case "POST" -> { // DeleteObjects
                    StringBuilder r = new StringBuilder("<DeleteResult>");
                    Matcher m = DELETE_KEY.matcher(new String(body, StandardCharsets.UTF_8));
                    while (m.find()) {
                        String k = m.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
                        if (b != null) {
                            b.remove(k);
                        }
                        r.append("<Deleted><Key>").append(xml(k)).append("</Key></Deleted>");
                    }
                    send(x, 200, r.append("</DeleteResult>").toString());
                }
                case "GET" -> {
                    if (b == null) {
                        send(x, 404, error("NoSuchBucket"));
                    } else if (query.containsKey("uploads")) {
                        send(x, 200, "<ListMultipartUploadsResult><IsTruncated>false</IsTruncated></ListMultipartUploadsResult>");
                    } else {
                        send(x, 200, list(b, query.getOrDefault("prefix", ""), query.get("delimiter")));
                    }
                }
                default -> send(x, 405, error("MethodNotAllowed"));
            }
        }

        private static String list(ConcurrentSkipListMap<String, Stored> b, String prefix, String delimiter) {
            StringBuilder r = new StringBuilder("<ListBucketResult><Name>b</Name><Prefix>").append(xml(prefix))
                    .append("</Prefix><IsTruncated>false</IsTruncated>");
            TreeSet<String> prefixes = new TreeSet<>();
            int count = 0;
            for (Map.Entry<String, Stored> e : b.tailMap(prefix).entrySet()) {
                String k = e.getKey();
                if (!k.startsWith(prefix)) {
                    break;
                }
                int d = delimiter == null ? -1 : k.indexOf(delimiter, prefix.length());
                if (d >= 0) {
                    prefixes.add(k.substring(0, d + 1));
                    continue;
                }
                Stored s = e.getValue();
                count++;
                r.append("<Contents><Key>").append(xml(k)).append("</Key><LastModified>").append(s.at())
                        .append("</LastModified><ETag>&quot;").append(s.etag()).append("&quot;</ETag><Size>")
                        .append(s.data().length).append("</Size><StorageClass>STANDARD</StorageClass></Contents>");
            }
            for (String p : prefixes) {
                r.append("<CommonPrefixes><Prefix>").append(xml(p)).append("</Prefix></CommonPrefixes>");
            }
            return r.append("<KeyCount>").append(count + prefixes.size()).append("</KeyCount></ListBucketResult>").toString();
        }

        private void object(HttpExchange x, String method, ConcurrentSkipListMap<String, Stored> b, String key,
                byte[] body) throws IOException {
            Stored s = b.get(key);
            switch (method) {
                case "PUT" -> {
                    String copy = x.getRequestHeaders().getFirst("x-amz-copy-source");
                    if ("*".equals(x.getRequestHeaders().getFirst("If-None-Match")) && s != null) {
                        send(x, 412, error("PreconditionFailed"));
                        return;
                    }
                    if (copy != null) {
                        String[] from = decode(copy.startsWith("/") ? copy.substring(1) : copy).split("/", 2);
                        Stored src = buckets.getOrDefault(from[0], new ConcurrentSkipListMap<>()).get(from[1]);
                        if (src == null) {
                            send(x, 404, error("NoSuchKey"));
                            return;
                        }
                        Map<String, String> meta = "REPLACE".equals(x.getRequestHeaders().getFirst("x-amz-metadata-directive"))
                                ? meta(x) : src.meta();
                        Stored c = stored(src.data(), meta);
                        b.put(key, c);
                        send(x, 200, "<CopyObjectResult><ETag>&quot;" + c.etag() + "&quot;</ETag><LastModified>"
                                + c.at() + "</LastModified></CopyObjectResult>");
                        return;
                    }
                    Stored n = stored(body, meta(x));
                    b.put(key, n);
                    x.getResponseHeaders().add("ETag", "\"" + n.etag() + "\"");
                    send(x, 200, "");
                }
                case "HEAD", "GET" -> {
                    if (s == null) {
                        send(x, 404, "HEAD".equals(method) ? null : error("NoSuchKey"));
                        return;
                    }
                    x.getResponseHeaders().add("ETag", "\"" + s.etag() + "\"");
                    x.getResponseHeaders().add("Last-Modified", HTTP_DATE.format(s.at()));
                    x.getResponseHeaders().add("Content-Type", "application/octet-stream");
                    s.meta().forEach((k, v) -> x.getResponseHeaders().add("x-amz-meta-" + k, v));
                    if ("HEAD".equals(method)) {
                        x.getResponseHeaders().add("Content-Length", Integer.toString(s.data().length));
                        x.sendResponseHeaders(200, -1);
                        return;
                    }
                    int from = range(x.getRequestHeaders().getFirst("Range"));
                    byte[] part = java.util.Arrays.copyOfRange(s.data(), Math.min(from, s.data().length), s.data().length);
                    if (from > 0) {
                        x.getResponseHeaders().add("Content-Range",
                                "bytes " + from + "-" + (s.data().length - 1) + "/" + s.data().length);
                    }
                    x.sendResponseHeaders(from > 0 ? 206 : 200, part.length == 0 ? -1 : part.length);
                    try (OutputStream out = x.getResponseBody()) {
                        out.write(part);
                    }
                }
                case "DELETE" -> {
                    b.remove(key);
                    send(x, 204, null);
                }
                default -> send(x, 405, error("MethodNotAllowed"));
            }
        }

        private static int range(String header) {
            if (header == null || !header.startsWith("bytes=")) {
                return 0;
            }
            String first = header.substring(6, header.indexOf('-'));
            return first.isEmpty() ? 0 : Integer.parseInt(first);
        }

        private static Map<String, String> meta(HttpExchange x) {
            Map<String, String> meta = new HashMap<>();
            x.getRequestHeaders().forEach((k, v) -> {
                if (k.toLowerCase(java.util.Locale.ROOT).startsWith("x-amz-meta-")) {
                    meta.put(k.substring("x-amz-meta-".length()).toLowerCase(java.util.Locale.ROOT), v.getFirst());
                }
            });
            return meta;
        }

        private static Stored stored(byte[] data, Map<String, String> meta) {
            try {
                String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
                return new Stored(data, meta, Instant.now().truncatedTo(ChronoUnit.SECONDS), md5);
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static void run(Path work, OutputStream sink, Path local) throws Exception {
        Store store = new Store();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", store::handle);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        // The SDK's default chain reads these system properties before the environment.
        Map<String, String> saved = new TreeMap<>();
        for (String[] p : new String[][] {{"aws.accessKeyId", "training"}, {"aws.secretAccessKey", "training-secret"},
                {"aws.region", "us-east-1"}}) {
            saved.put(p[0], System.getProperty(p[0]));
            System.setProperty(p[0], p[1]);
        }
        try {
            String[] s3 = {"--s3-endpoint=http://127.0.0.1:" + server.getAddress().getPort(), "--s3-path-style"};
            String file = local.resolve("dir0/file0.txt").toString();
            AotTraining.run(sink, with(s3, "mkdir", "s3://training/"));
            AotTraining.run(sink, with(s3, "sync", local.toString(), "s3://training/tree", "--json"));
            AotTraining.run(sink, with(s3, "sync", local.toString(), "s3://training/tree"));
            AotTraining.run(sink, with(s3, "ls", "-l", "s3://training/tree/"));
            AotTraining.run(sink, with(s3, "ls", "--json", "-R", "s3://training/tree/dir0/"));
            AotTraining.run(sink, with(s3, "stat", "--json", "s3://training/tree/dir0/file0.txt"));
            AotTraining.run(sink, with(s3, "cp", file, "s3://training/one.txt"));
            AotTraining.run(sink, with(s3, "cp", "s3://training/one.txt", work.resolve("one-back.txt").toString()));
            AotTraining.run(sink, with(s3, "checksum", "s3://training/one.txt"));
            AotTraining.run(sink, with(s3, "rm", "-r", "s3://training/tree/"));
        } finally {
            saved.forEach((k, v) -> {
                if (v == null) {
                    System.clearProperty(k);
                } else {
                    System.setProperty(k, v);
                }
            });
            server.stop(0);
        }
    }

    static String[] with(String[] options, String... args) {
        String[] all = new String[options.length + args.length];
        System.arraycopy(options, 0, all, 0, options.length);
        System.arraycopy(args, 0, all, options.length, args.length);
        return all;
    }

    private static void send(HttpExchange x, int code, String body) throws IOException {
        if (body == null || body.isEmpty()) {
            x.sendResponseHeaders(code, -1);
            return;
        }
        byte[] b = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + body).getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/xml");
        x.sendResponseHeaders(code, b.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(b);
        }
    }

    private static String error(String code) {
        return "<Error><Code>" + code + "</Code><Message>" + code + "</Message></Error>";
    }

    static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                int eq = kv.indexOf('=');
                q.put(decode(eq < 0 ? kv : kv.substring(0, eq)), eq < 0 ? "" : decode(kv.substring(eq + 1)));
            }
        }
        return q;
    }
}
