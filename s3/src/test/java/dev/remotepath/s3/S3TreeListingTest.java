package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.LocalTrees;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jclouds.blobstore.domain.Blob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A tree listing past its first page goes on by the first level ({@link S3TreeListing}): on
 * s3proxy's two stores it lists exactly the keys there are, each once, with one delimited
 * request and one per first-level directory; a sync from it copies everything and a resync
 * deletes nothing. Against a store that lies in the delimited page or in a directory's pages,
 * the listing fails naming the answer, and a directory that fails fails the listing.
 */
@Timeout(120)
class S3TreeListingTest {

    /** 5 files at the top, 30 directories of 40 files and a subdirectory of 5, a marker-only directory. */
    private static List<String> treeKeys() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            keys.add("t/r" + i + ".txt");
        }
        for (int d = 0; d < 30; d++) {
            for (int f = 0; f < 40; f++) {
                keys.add("t/a" + d + "/f" + f + ".txt");
            }
            for (int f = 0; f < 5; f++) {
                keys.add("t/a" + d + "/sub/x" + f + ".txt");
            }
        }
        keys.add("t/empty/");
        keys.add("t/0first/only.txt");
        return keys;
    }

    private static void seed(TestS3Server server, String bucket, List<String> keys) {
        for (String key : keys) {
            byte[] body = key.endsWith("/") ? new byte[0] : key.getBytes(StandardCharsets.UTF_8);
            Blob blob = server.blobStore.blobBuilder(key).payload(body).build();
            server.blobStore.putBlob(bucket, blob);
        }
    }

    private static List<String> names(RemotePath dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryListing l = dir.fileSystem().listTree(dir, ListDetail.FILE_STATS)) {
            while (l.hasNext()) {
                names.add(l.next().name());
            }
        }
        return names;
    }

    /** Every directory above a name ({@code a/b/c} gives {@code a} and {@code a/b}). */
    private static TreeSet<String> parentsOf(Collection<String> names) {
        TreeSet<String> parents = new TreeSet<>();
        for (String n : names) {
            for (int slash = n.indexOf('/'); slash >= 0; slash = n.indexOf('/', slash + 1)) {
                parents.add(n.substring(0, slash));
            }
        }
        return parents;
    }

    private static List<String> withoutImpliedDirectories(List<String> names) {
        TreeSet<String> parents = parentsOf(names);
        return names.stream().filter(n -> !parents.contains(n)).toList();
    }

    /** What is in {@code a} and not in {@code b}. */
    private static TreeSet<String> minus(Collection<String> a, Collection<String> b) {
        TreeSet<String> rest = new TreeSet<>(a);
        rest.removeAll(b);
        return rest;
    }

    /** {@code uri} on {@code server}, its requests counted by {@code counter}. */
    private static RemotePath counted(TestS3Server server, String uri, RequestCounter counter,
            Consumer<S3Options.Builder> more) throws IOException {
        return RemotePaths.get(URI.create(uri), server.options(b -> {
            more.accept(b);
            b.clientCustomizer(c -> c.overrideConfiguration(o -> o.addExecutionInterceptor(counter)));
        }));
    }

    /** What a flat listing of the keys should name: each key below {@code t/}, markers without their slash. */
    private static TreeSet<String> expected(List<String> keys) {
        TreeSet<String> want = new TreeSet<>();
        for (String k : keys) {
            String rel = k.substring(2);
            want.add(rel.endsWith("/") ? rel.substring(0, rel.length() - 1) : rel);
        }
        return want;
    }

    @Test
    void aTreeOfManyPagesIsListedByItsFirstLevelOnEachKeyOnceOnBothStores() throws Exception {
        for (TestS3Server server : List.of(new TestS3Server(), TestS3Server.onDisk())) {
            try (server) {
                server.createBucket("tree");
                List<String> keys = treeKeys();
                seed(server, "tree", keys);
                RequestCounter counter = new RequestCounter();
                RemotePath dir = counted(server, "s3://tree/t", counter, b -> { });
                List<String> byLevel = names(dir);
                assertThat(byLevel).as("each key once").doesNotHaveDuplicates();
                assertThat(minus(expected(keys), byLevel)).as("missing").isEmpty();
                // Beyond the keys, only directories the keys imply (the filesystem store names them as markers).
                assertThat(minus(byLevel, expected(keys))).as("listed beyond the keys").allSatisfy(d -> assertThat(expected(keys))
                        .anySatisfy(k -> assertThat(k).startsWith(d + "/")));
                // The first page, the delimited one, then a0..a29 and 0first; empty/ too where the
                // store names a marker-only directory as a prefix rather than as an object.
                assertThat(counter.count("ListObjectsV2")).as(counter.toString()).isBetween(1 + 1 + 31, 1 + 1 + 32);
                assertThat(counter.total()).as(counter.toString()).isEqualTo(counter.count("ListObjectsV2"));

                RemotePath paged = counted(server, "s3://tree/t", counter, b -> b.flatListingsByFirstLevel(false));
                counter.reset();
                List<String> pageByPage = names(paged);
                assertThat(counter.total()).as(counter.toString()).isEqualTo(2);
                // The same, but for directories with something below them, which a store may or
                // may not name as markers in a flat listing (its first level is not listed flat).
                assertThat(withoutImpliedDirectories(pageByPage)).containsExactlyInAnyOrderElementsOf(
                        withoutImpliedDirectories(byLevel));

                Path local = Files.createTempDirectory("rp-s3-level-");
                try {
                    SyncReport first = PathSyncer.builder(dir, RemotePaths.get(local.toUri())).build().run();
                    assertThat(first.succeeded()).as(first.errors().toString()).isTrue();
                    assertThat(first.filesCopied()).isEqualTo(keys.size() - 1);
                    try (Stream<Path> files = Files.walk(local)) {
                        assertThat(files.filter(Files::isRegularFile).count()).isEqualTo(keys.size() - 1);
                    }
                    assertThat(local.resolve("empty")).isDirectory();
                    assertThat(Files.readString(local.resolve("a7/sub/x3.txt"))).isEqualTo("t/a7/sub/x3.txt");
                    SyncReport again = PathSyncer.builder(dir, RemotePaths.get(local.toUri())).build().run();
                    assertThat(again.filesSkipped()).isEqualTo(keys.size() - 1);
                    assertThat(again.filesDeleted()).isZero();
                    assertThat(again.filesCopied()).isZero();
                } finally {
                    LocalTrees.delete(local);
                }

                dir.deleteRecursively();
                assertThat(server.blobStore.list("tree")).isEmpty();
                dir.fileSystem().close();
                paged.fileSystem().close();
            }
        }
    }

    /**
     * A marker for every directory, as {@code rpath mkdir} and a sync leave them: s3proxy's
     * transient store lists a marker as a key of the delimited page rather than rolling it into a
     * common prefix, which once had the listing take every directory for an empty one.
     */
    @Test
    void aTreeWithAMarkerForEveryDirectoryIsListedWholeOnBothStores() throws Exception {
        for (TestS3Server server : List.of(new TestS3Server(), TestS3Server.onDisk())) {
            try (server) {
                server.createBucket("marked");
                List<String> keys = new ArrayList<>(treeKeys());
                for (String d : parentsOf(keys)) {
                    if (!d.equals("t") && !keys.contains(d + "/")) {
                        keys.add(d + "/");
                    }
                }
                seed(server, "marked", keys);
                RequestCounter counter = new RequestCounter();
                RemotePath dir = counted(server, "s3://marked/t", counter, b -> { });
                List<String> names = names(dir);
                assertThat(names).as("each key once").doesNotHaveDuplicates();
                assertThat(minus(expected(keys), names)).as("missing on " + server).isEmpty();
                assertThat(minus(names, expected(keys))).as("listed beyond the keys on " + server).isEmpty();
                // By the first level on both: the first page, the delimited one, then each of the 32 directories.
                assertThat(counter.count("ListObjectsV2")).as(counter.toString()).isEqualTo(1 + 1 + 32);
                dir.fileSystem().close();
            }
        }
    }

    /** A local tree synced to both stores (markers and all) resyncs as a no-op, and a deletion reaches it. */
    @Test
    void aResyncToEitherStoreCopiesNothingAndDeletesWhatWasRemoved() throws Exception {
        Path local = Files.createTempDirectory("rp-s3-level-src-");
        try {
            for (int d = 0; d < 12; d++) {
                Files.createDirectories(local.resolve("d" + d + "/sub"));
                for (int f = 0; f < 100; f++) {
                    Files.writeString(local.resolve("d" + d + "/f" + f + ".txt"), d + "/" + f);
                }
                Files.writeString(local.resolve("d" + d + "/sub/x.txt"), "x" + d);
            }
            Files.createDirectories(local.resolve("empty"));
            int files = 12 * 101;
            for (TestS3Server server : List.of(new TestS3Server(), TestS3Server.onDisk())) {
                try (server) {
                    server.createBucket("mirror");
                    RemotePath target = RemotePaths.get(URI.create("s3://mirror/m"), server.options());
                    SyncReport first = PathSyncer.builder(RemotePaths.get(local.toUri()), target).build().run();
                    assertThat(first.succeeded()).as(first.errors().toString()).isTrue();
                    assertThat(first.filesCopied()).isEqualTo(files);
                    SyncReport again = PathSyncer.builder(RemotePaths.get(local.toUri()), target).build().run();
                    assertThat(again.succeeded()).as(again.errors().toString()).isTrue();
                    assertThat(again.filesCopied()).as("a no-op resync").isZero();
                    assertThat(again.filesSkipped()).isEqualTo(files);
                    Files.delete(local.resolve("d7/f42.txt"));
                    try {
                        SyncReport deleting = PathSyncer.builder(RemotePaths.get(local.toUri()), target).deleteExtraneous(true).build().run();
                        assertThat(deleting.filesCopied()).isZero();
                        assertThat(deleting.filesDeleted()).isEqualTo(1);
                        assertThat(server.blobStore.blobExists("mirror", "m/d7/f42.txt")).isFalse();
                        assertThat(server.blobStore.blobExists("mirror", "m/d7/f41.txt")).isTrue();
                    } finally {
                        Files.writeString(local.resolve("d7/f42.txt"), "7/42");
                    }
                    target.fileSystem().close();
                }
            }
        } finally {
            LocalTrees.delete(local);
        }
    }

    /** A first page of files only (1,200 at the top before any directory) goes on page by page. */
    @Test
    void aFirstPageOfFilesOnlyGoesOnPageByPage() throws Exception {
        try (TestS3Server server = new TestS3Server()) {
            server.createBucket("files");
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 1200; i++) {
                keys.add(String.format("t/f%04d", i));
            }
            keys.add("t/zz/last.txt");
            seed(server, "files", keys);
            RequestCounter counter = new RequestCounter();
            RemotePath dir = counted(server, "s3://files/t", counter, b -> { });
            List<String> names = names(dir);
            assertThat(names).doesNotHaveDuplicates();
            assertThat(new TreeSet<>(names)).isEqualTo(expected(keys));
            assertThat(counter.total()).as(counter.toString()).isEqualTo(2);
            dir.fileSystem().close();
        }
    }

    // ------------------------------------------------------------------ a store that lies

    /** The tree {@code dir/}: a first page (truncated), a delimited page, and a page per directory. */
    private record Store(String delimited, Function<String, String> directory) {
    }

    private static String page(boolean truncated, List<String> keys, List<String> prefixes) {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult><Name>bkt</Name>");
        b.append("<KeyCount>").append(keys.size() + prefixes.size()).append("</KeyCount><MaxKeys>1000</MaxKeys>");
        b.append("<IsTruncated>").append(truncated).append("</IsTruncated>");
        if (truncated) {
            b.append("<NextContinuationToken>next</NextContinuationToken>");
        }
        for (String k : keys) {
            b.append("<Contents><Key>").append(k).append("</Key><LastModified>2026-11-30T10:00:00.000Z</LastModified>")
                    .append("<ETag>&quot;2c1743a391305fbf367df8e4f069f9f9&quot;</ETag><Size>5</Size></Contents>");
        }
        for (String p : prefixes) {
            b.append("<CommonPrefixes><Prefix>").append(p).append("</Prefix></CommonPrefixes>");
        }
        return b.append("</ListBucketResult>").toString();
    }

    private static final String FIRST = page(true, List.of("dir/a/1", "dir/a/2", "dir/b/1"), List.of());

    /** Runs {@code check} against a store answering as {@code store} says; returns the requests it saw. */
    private static List<String> against(Store store, ThrowingCheck check) throws Exception {
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(8));
        server.createContext("/", exchange -> {
            Map<String, String> q = new HashMap<>();
            String raw = exchange.getRequestURI().getRawQuery();
            for (String kv : raw == null ? new String[0] : raw.split("&")) {
                int eq = kv.indexOf('=');
                q.put(eq < 0 ? kv : kv.substring(0, eq), eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
            }
            String prefix = q.getOrDefault("prefix", "");
            String body;
            int status = 200;
            if (q.containsKey("delimiter")) {
                seen.add("level");
                body = store.delimited();
            } else if (prefix.equals("dir/") && !q.containsKey("continuation-token")) {
                seen.add("first");
                body = FIRST;
            } else {
                seen.add(prefix + (q.containsKey("continuation-token") ? " (next)" : ""));
                body = store.directory().apply(prefix + (q.containsKey("continuation-token") ? "#next" : ""));
                if (body.startsWith("HTTP ")) {
                    status = Integer.parseInt(body.substring(5, 8));
                    body = "<Error><Code>InternalError</Code><Message>no</Message></Error>";
                }
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/xml");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        try {
            S3Options o = S3Options.builder().endpoint(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                    .pathStyle(true).region("us-east-1").credentials(S3Credentials.of("k", "s")).maxRetries(0).build();
            RemotePath dir = RemotePaths.get(URI.create("s3://bkt/dir/"), o);
            try {
                check.run(dir);
            } finally {
                dir.fileSystem().close();
            }
        } finally {
            server.stop(0);
        }
        return seen;
    }

    private interface ThrowingCheck {
        void run(RemotePath dir) throws Exception;
    }

    private static final Function<String, String> HONEST = p -> switch (p) {
        case "dir/a/" -> page(false, List.of("dir/a/1", "dir/a/2"), List.of());
        case "dir/b/" -> page(false, List.of("dir/b/1", "dir/b/2"), List.of());
        default -> page(false, List.of(), List.of());
    };

    @Test
    void anHonestStoreIsListedByTheFirstLevel() throws Exception {
        // Each directory named once, as the delimited page names it, whether or not it has a marker.
        List<String> seen = against(new Store(page(false, List.of("dir/top"), List.of("dir/a/", "dir/b/")), HONEST),
                dir -> assertThat(names(dir)).containsExactlyInAnyOrder("top", "a", "a/1", "a/2", "b", "b/1", "b/2"));
        assertThat(seen).containsExactlyInAnyOrder("first", "level", "dir/a/", "dir/b/");
    }

    @Test
    void aDelimitedPageNamingAPrefixTwoLevelsDownFailsTheListing() throws Exception {
        // Listed alone, dir/a/deep/ would hide dir/a/1 and dir/a/2.
        against(new Store(page(false, List.of(), List.of("dir/a/deep/", "dir/b/")), HONEST),
                dir -> assertThatThrownBy(() -> names(dir)).isInstanceOf(IOException.class)
                        .hasMessageContaining("the store listed the common prefix 'dir/a/deep/', which is not one level below 'dir/'"));
    }

    @Test
    void aDelimitedPageNamingAPrefixElsewhereFailsTheListing() throws Exception {
        against(new Store(page(false, List.of(), List.of("other/", "dir/b/")), HONEST),
                dir -> assertThatThrownBy(() -> names(dir)).isInstanceOf(IOException.class)
                        .hasMessageContaining("the store listed the common prefix 'other/', which is not below 'dir/'"));
        against(new Store(page(false, List.of(), List.of("dir/b")), HONEST),
                dir -> assertThatThrownBy(() -> names(dir)).isInstanceOf(IOException.class)
                        .hasMessageContaining("which is not one level below 'dir/' ending in the delimiter '/'"));
    }

    @Test
    void aDirectoryListingKeysOfAnotherFailsTheListing() throws Exception {
        Function<String, String> lying = p -> p.equals("dir/b/") ? page(false, List.of("dir/a/3"), List.of()) : HONEST.apply(p);
        against(new Store(page(false, List.of(), List.of("dir/a/", "dir/b/")), lying),
                dir -> assertThatThrownBy(() -> names(dir)).isInstanceOf(IOException.class)
                        .hasMessageContaining("the store listed the key 'dir/a/3', which is not under 'dir/b/'"));
    }

    @Test
    void aDirectoryThatFailsFailsTheListingAndLeavesNothingWaiting() throws Exception {
        List<String> prefixes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            prefixes.add("dir/d" + i + "/");
        }
        prefixes.addAll(List.of("dir/a/", "dir/b/")); // the first page's, or the listing goes on page by page
        AtomicInteger served = new AtomicInteger();
        Function<String, String> failing = p -> {
            served.incrementAndGet();
            return p.equals("dir/d3/") ? "HTTP 500" : page(false, List.of(p + "x"), List.of());
        };
        against(new Store(page(false, List.of(), prefixes), failing), dir -> {
            assertThatThrownBy(() -> names(dir)).isInstanceOf(IOException.class).hasMessageContaining("HTTP 500");
        });
        // Fetched ahead at most 16 beyond the one read: the failing fourth stops the rest.
        assertThat(served.get()).isLessThanOrEqualTo(4 + S3ShardPrefetch.AHEAD);
    }

    @Test
    void aDirectoryOfManyPagesIsReadToItsEnd() throws Exception {
        Function<String, String> paged = p -> switch (p) {
            case "dir/a/" -> page(true, List.of("dir/a/1"), List.of());
            case "dir/a/#next" -> page(false, List.of("dir/a/2"), List.of());
            default -> HONEST.apply(p);
        };
        List<String> seen = against(new Store(page(false, List.of(), List.of("dir/a/", "dir/b/")), paged),
                dir -> assertThat(names(dir)).containsExactlyInAnyOrder("a", "a/1", "a/2", "b", "b/1", "b/2"));
        assertThat(seen).contains("dir/a/ (next)");
    }

    /** The first page's remainder, for a store whose delimited page is not trusted. */
    private static final Function<String, String> REST = p -> p.equals("dir/#next") ? page(false, List.of("dir/b/2"), List.of()) : HONEST.apply(p);

    @Test
    void aDelimitedPageThatIgnoresTheDelimiterGoesOnPageByPage() throws Exception {
        List<String> seen = against(new Store(page(false, List.of("dir/a/1", "dir/a/2", "dir/b/1", "dir/b/2"), List.of()), REST),
                dir -> assertThat(names(dir)).containsExactlyInAnyOrder("a/1", "a/2", "b/1", "b/2"));
        assertThat(seen).containsExactly("first", "level", "dir/ (next)");
    }

    @Test
    void aDelimitedPageLeavingOutADirectoryOfTheFirstPageGoesOnPageByPage() throws Exception {
        // dir/b/ holds dir/b/1 on the first page: listed by dir/a/ alone, it would be missed.
        List<String> seen = against(new Store(page(false, List.of(), List.of("dir/a/")), REST),
                dir -> assertThat(names(dir)).containsExactlyInAnyOrder("a/1", "a/2", "b/1", "b/2"));
        assertThat(seen).containsExactly("first", "level", "dir/ (next)");
    }

    @Test
    void aMarkerListedAsAKeyOfTheDelimitedPageIsListedAsItsDirectory() throws Exception {
        Function<String, String> withMarker = p -> p.equals("dir/a/") ? page(false, List.of("dir/a/", "dir/a/1", "dir/a/2"), List.of())
                : HONEST.apply(p);
        List<String> seen = against(new Store(page(false, List.of("dir/a/", "dir/top"), List.of("dir/b/")), withMarker),
                dir -> assertThat(names(dir)).containsExactlyInAnyOrder("top", "a", "a/1", "a/2", "b", "b/1", "b/2"));
        assertThat(seen).containsExactlyInAnyOrder("first", "level", "dir/a/", "dir/b/");
    }

    @Test
    void aFirstLevelOfMorePagesThanOneGoesOnPageByPage() throws Exception {
        List<String> seen = against(new Store(page(true, List.of(), List.of("dir/a/")), REST),
                dir -> assertThat(names(dir)).containsExactlyInAnyOrder("a/1", "a/2", "b/1", "b/2"));
        assertThat(seen).containsExactly("first", "level", "dir/ (next)");
    }
}
