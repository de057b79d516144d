package dev.remotepath.cli;

import static dev.remotepath.cli.RpathTest.rpath;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cat} ranges and its cat-like going on, {@code --json} errors on stderr, and S3 times in {@code ls -l}. */
class CatLsJsonErrorsTest {

    @TempDir
    Path temp;

    @Test
    void catWritesARangeAndGoesOnPastAMissingFile() throws Exception {
        Path digits = Files.writeString(temp.resolve("digits"), "0123456789");
        Path b = Files.writeString(temp.resolve("b"), "bravo");
        assertThat(rpath("cat", "--offset", "3", "--length", "4", digits.toString()).out()).isEqualTo("3456");
        assertThat(rpath("cat", "--offset", "8", digits.toString()).out()).isEqualTo("89");
        assertThat(rpath("cat", "--length", "2", digits.toString(), b.toString()).out()).isEqualTo("01br");
        RpathTest.Result past = rpath("cat", "--offset", "20", digits.toString());
        assertThat(past.code()).isZero();
        assertThat(past.out()).isEmpty();

        RpathTest.Result r = rpath("cat", digits.toString(), temp.resolve("missing").toString(), b.toString());
        assertThat(r.out()).isEqualTo("0123456789bravo");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("rpath cat: " + temp.resolve("missing") + ": no such file or directory");
        assertThat(rpath("cat", "--offset", "-1", digits.toString()).code()).isEqualTo(2);
    }

    @Test
    void uriPathsAreLiteralTextUnlessWellFormedAndErrorsShowThemAsTyped() throws Exception {
        String vol = "mem://literal-" + java.util.UUID.randomUUID();
        dev.remotepath.RemotePaths.get(vol + "/").resolve("moved #1.bin").writeString("one");
        dev.remotepath.RemotePaths.get(vol + "/").resolve("a b").writeString("space");
        dev.remotepath.RemotePaths.get(vol + "/").resolve("100%").writeString("full");
        dev.remotepath.RemotePaths.get(vol + "/").resolve("q?x").writeString("query");
        assertThat(rpath("cat", vol + "/moved #1.bin").out()).isEqualTo("one");
        assertThat(rpath("cat", vol + "/moved%20%231.bin").out()).isEqualTo("one");
        assertThat(rpath("cat", vol + "/a b").out()).isEqualTo("space");
        assertThat(rpath("cat", vol + "/a%20b").out()).isEqualTo("space");
        assertThat(rpath("cat", vol + "/100%").out()).isEqualTo("full");
        assertThat(rpath("cat", vol + "/q?x").out()).isEqualTo("query");
        // Errors name the path as it was typed, literal or encoded, and names below it decoded.
        RpathTest.Result missing = rpath("cat", vol + "/no such #file");
        assertThat(missing.err().strip()).isEqualTo("rpath cat: " + vol + "/no such #file: no such file or directory");
        RpathTest.Result json = rpath("--json", "cat", vol + "/gone%20away");
        assertThat(json.err()).contains("\"path\":\"" + vol + "/gone%20away\"");
        Path dir = Files.createDirectories(temp.resolve("dir with space"));
        Files.writeString(dir.resolve("file"), "x");
        RpathTest.Result notDir = rpath("ls", dir.resolve("file").resolve("below").toString());
        assertThat(notDir.err()).contains(dir.resolve("file").resolve("below").toString()).doesNotContain("file://");
    }

    @Test
    void jsonErrorsAreObjectsOnStderr() throws Exception {
        Path a = Files.writeString(temp.resolve("a"), "alpha");
        RpathTest.Result r = rpath("--json", "cat", a.toString(), temp.resolve("missing").toString());
        assertThat(r.out()).isEqualTo("alpha");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("{\"error\":\"" + temp.resolve("missing") + ": no such file or directory\","
                + "\"path\":\"" + temp.resolve("missing") + "\",\"other\":null,\"kind\":\"no_such_file\",\"command\":\"cat\",\"exit\":1}");

        RpathTest.Result usage = rpath("stat", "--json");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.err().lines().toList()).hasSize(1);
        assertThat(usage.err()).startsWith("{\"error\":").contains("\"kind\":\"usage\"", "\"exit\":2");

        RpathTest.Result badUri = rpath("--json", "stat", "mem://v/a%00b");
        assertThat(badUri.code()).isEqualTo(2);
        assertThat(badUri.err()).contains("\"kind\":\"invalid_path\"", "\"path\":\"mem://v/a%00b\"");

        RpathTest.Result notEmpty = rpath("--json", "mkdir", temp.toString());
        assertThat(notEmpty.err()).contains("\"kind\":\"already_exists\"");
    }

    @Test
    void jsonSyncErrorsReachStderrAsTheyHappen() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src"));
        Files.writeString(src.resolve("ok.txt"), "ok");
        Process mkfifo = new ProcessBuilder("mkfifo", src.resolve("pipe").toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        RpathTest.Result r = rpath("--json", "sync", src.toString(), temp.resolve("dst").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().lines().toList()).hasSize(1);
        assertThat(r.err()).startsWith("{\"error\":\"pipe: copy failed: special file").contains("\"path\":\"pipe\"",
                "\"kind\":\"sync\"", "\"command\":\"sync\"", "\"operation\":\"copy\"");
        assertThat(r.out()).contains("\"errors\":[{\"path\":\"pipe\",\"operation\":\"copy\"", "\"kind\":\"sync\"");
    }

    /**
     * {@code ls -l} of S3 shows the listing's storage time marked {@code ~}, never as an mtime;
     * {@code --mtime} asks each object (HEAD) for the mtime it keeps. The server is scripted
     * with S3's own wire answers.
     */
    @Test
    void lsOfS3MarksStorageTimesAndMtimeAsksEachObject() throws Exception {
        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer s3 = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        s3.createContext("/", exchange -> {
            String q = exchange.getRequestURI().getRawQuery();
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            byte[] body = new byte[0];
            int status = 404;
            if (exchange.getRequestMethod().equals("GET") && q != null && q.contains("list-type=2")) {
                status = 200;
                body = """
                        <?xml version="1.0" encoding="UTF-8"?>
                        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>bucket</Name>\
                        <Prefix>dir/</Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>/</Delimiter>\
                        <IsTruncated>false</IsTruncated><Contents><Key>dir/a.txt</Key>\
                        <LastModified>2026-11-30T10:00:00.000Z</LastModified>\
                        <ETag>&quot;2c1743a391305fbf367df8e4f069f9f9&quot;</ETag><Size>5</Size>\
                        <StorageClass>STANDARD</StorageClass></Contents></ListBucketResult>""".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/xml");
            } else if (exchange.getRequestMethod().equals("HEAD") && exchange.getRequestURI().getPath().equals("/bucket/dir/a.txt")) {
                status = 200;
                exchange.getResponseHeaders().add("Last-Modified", "Mon, 30 Nov 2026 10:00:00 GMT");
                exchange.getResponseHeaders().add("ETag", "\"2c1743a391305fbf367df8e4f069f9f9\"");
                exchange.getResponseHeaders().add("x-amz-meta-mtime", "1700000000");
                exchange.getResponseHeaders().add("Content-Length", "5");
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
                return;
            }
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        s3.start();
        System.setProperty("aws.accessKeyId", "test-key");
        System.setProperty("aws.secretAccessKey", "test-secret");
        try {
            String[] flags = {"--s3-endpoint", "http://127.0.0.1:" + s3.getAddress().getPort(), "--s3-path-style",
                    "--s3-region", "us-east-1"};
            RpathTest.Result ls = rpath(concat(flags, "ls", "-l", "s3://bucket/dir/"));
            assertThat(ls.err()).isEmpty();
            assertThat(ls.out().lines().toList()).containsExactly(
                    "-            5  ~2026-11-30T10:00:00Z" + " ".repeat(9) + "  a.txt");
            long heads = requests.stream().filter(r -> r.startsWith("HEAD /bucket/dir/a.txt")).count();

            RpathTest.Result mtime = rpath(concat(flags, "ls", "-l", "--mtime", "s3://bucket/dir/"));
            assertThat(mtime.out().lines().toList()).containsExactly(
                    "-            5  2023-11-14T22:13:20Z" + " ".repeat(10) + "  a.txt");
            assertThat(requests.stream().filter(r -> r.startsWith("HEAD /bucket/dir/a.txt")).count()).isEqualTo(heads + 1);

            // ls -R reads the whole tree: one flat listing (no delimiter), not one per directory.
            requests.clear();
            RpathTest.Result tree = rpath(concat(flags, "ls", "-R", "s3://bucket/dir/"));
            assertThat(tree.out().lines().toList()).containsExactly("a.txt");
            assertThat(requests.stream().filter(r -> r.startsWith("GET") && r.contains("list-type=2")))
                    .anySatisfy(r -> assertThat(r).doesNotContain("delimiter"))
                    .noneSatisfy(r -> assertThat(r).contains("delimiter"));

            RpathTest.Result json = rpath(concat(flags, "ls", "--json", "s3://bucket/dir/"));
            assertThat(json.out().strip()).isEqualTo("{\"name\":\"a.txt\",\"type\":\"file\",\"size\":5,\"mtime\":null,"
                    + "\"storedAt\":\"2026-11-30T10:00:00Z\"}");
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
            s3.stop(0);
        }
    }

    private static String[] concat(String[] flags, String... args) {
        String[] all = new String[flags.length + args.length];
        System.arraycopy(flags, 0, all, 0, flags.length);
        System.arraycopy(args, 0, all, flags.length, args.length);
        return all;
    }
}
