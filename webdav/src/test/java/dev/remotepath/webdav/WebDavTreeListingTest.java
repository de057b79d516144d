package dev.remotepath.webdav;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.tree.FlatIndex;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole trees by one {@code PROPFIND Depth: infinity}, against a server that answers it fully,
 * refuses it, answers it as a lesser depth without saying so (as sabre/dav does), trickles it,
 * sends too much, or lies in it. A tree is served from the one answer only when it can stand
 * for the tree; otherwise the walk lists directory by directory, and a sync neither deletes what
 * the cut answer left out nor writes outside its target.
 */
class WebDavTreeListingTest {

    /** How the server answers {@code Depth: infinity}. */
    private enum Infinity { FULL, AS_DEPTH_ONE, FORBIDDEN, TRICKLE }

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    /** The server's tree: directories end with '/', all below "/dir/". */
    private final TreeSet<String> tree = new TreeSet<>();
    private volatile Infinity infinity = Infinity.FULL;
    /** Responses added to a full tree answer (lies). */
    private final List<String> extra = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private RemotePath root;

    @TempDir
    Path temp;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        root = RemotePaths.get(URI.create("webdav://127.0.0.1:" + server.getAddress().getPort() + "/"), options(64 * 1024));
        tree.addAll(List.of("/dir/", "/dir/a.txt", "/dir/sub/", "/dir/sub/b.txt", "/dir/sub/deeper/",
                "/dir/sub/deeper/c.txt", "/dir/empty/"));
    }

    private WebDavOptions options(long maxBytes) {
        return WebDavOptions.builder().mtimes(WebDavOptions.Mtimes.SERVER).requestTimeout(Duration.ofSeconds(2))
                .listingTimeout(Duration.ofSeconds(2)).idleTimeout(Duration.ofSeconds(2)).maxListingBytes(maxBytes)
                .userAgent("tree-" + maxBytes).build();
    }

    @AfterEach
    void stop() throws IOException {
        release.countDown();
        root.fileSystem().close();
        server.stop(0);
    }

    private void answer(HttpExchange x) throws IOException {
        try (x) {
            String depth = x.getRequestHeaders().getFirst("Depth");
            String path = x.getRequestURI().getRawPath();
            requests.add(x.getRequestMethod() + " " + depth + " " + path);
            x.getRequestBody().readAllBytes();
            if (!x.getRequestMethod().equals("PROPFIND")) {
                x.sendResponseHeaders(204, -1);
                return;
            }
            String self = path.endsWith("/") ? path : path + "/";
            if (!tree.contains(path) && !tree.contains(self)) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            if (!tree.contains(self)) { // a file
                send(x, 207, multistatus(List.of(response(path))));
                return;
            }
            List<String> out = new ArrayList<>();
            if ("infinity".equals(depth)) {
                switch (infinity) {
                    case FORBIDDEN -> {
                        send(x, 403, "<?xml version=\"1.0\"?><D:error xmlns:D=\"DAV:\"><D:propfind-finite-depth/></D:error>");
                        return;
                    }
                    case AS_DEPTH_ONE -> out.addAll(members(self, 1));
                    case FULL, TRICKLE -> {
                        out.addAll(members(self, Integer.MAX_VALUE));
                        out.addAll(extra);
                    }
                }
            } else {
                out.addAll(members(self, "0".equals(depth) ? 0 : 1));
            }
            if (infinity == Infinity.TRICKLE && "infinity".equals(depth)) {
                x.sendResponseHeaders(207, 0);
                try (OutputStream o = x.getResponseBody()) {
                    for (byte b : multistatus(out).getBytes(StandardCharsets.UTF_8)) {
                        if (release.getCount() == 0) {
                            break;
                        }
                        o.write(b);
                        o.flush();
                        Thread.sleep(100);
                    }
                } catch (IOException | InterruptedException cut) {
                    // the client gave up: what the test wants
                }
                return;
            }
            send(x, 207, multistatus(out));
        }
    }

    private List<String> members(String self, int depth) {
        List<String> out = new ArrayList<>();
        for (String p : tree.tailSet(self, true)) {
            if (!p.startsWith(self)) {
                break;
            }
            String rel = p.substring(self.length());
            int d = rel.isEmpty() ? 0 : rel.replaceAll("/$", "").split("/").length;
            if (d <= depth) {
                out.add(response(p));
            }
        }
        return out;
    }

    private static void send(HttpExchange x, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", "application/xml; charset=utf-8");
        x.sendResponseHeaders(status, b.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(b);
        }
    }

    private static String response(String href) {
        boolean collection = href.endsWith("/");
        return "<D:response><D:href>" + href + "</D:href><D:propstat><D:prop>"
                + (collection ? "<D:resourcetype><D:collection/></D:resourcetype>"
                        : "<D:resourcetype/><D:getcontentlength>4</D:getcontentlength>")
                + "<D:getlastmodified>Thu, 03 Dec 2026 21:39:25 GMT</D:getlastmodified></D:prop>"
                + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>";
    }

    private static String multistatus(List<String> responses) {
        return "<?xml version=\"1.0\"?><D:multistatus xmlns:D=\"DAV:\">" + String.join("", responses) + "</D:multistatus>";
    }

    private long infinityRequests() {
        return requests.stream().filter(r -> r.startsWith("PROPFIND infinity")).count();
    }

    private List<String> depthOneRequests() {
        return requests.stream().filter(r -> r.startsWith("PROPFIND 1 ")).map(r -> r.substring(11)).toList();
    }

    private static List<String> names(List<DirEntry> entries) {
        return entries.stream().map(e -> e.name() + (e.isDirectory() ? "/" : " " + e.stat().size().orElse(-1))).toList();
    }

    @Test
    void aWholeTreeComesInOneRequestAndIsServedDirectoryByDirectory() throws Exception {
        RemotePath dir = root.resolve("dir");
        assertThat(root.fileSystem().capabilities()).contains(Capability.FLAT_LISTING);
        FlatIndex index = FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000).orElseThrow();
        assertThat(names(index.take(dir).orElseThrow())).containsExactly("a.txt 4", "empty/", "sub/");
        assertThat(names(index.take(dir.resolve("sub")).orElseThrow())).containsExactly("b.txt 4", "deeper/");
        assertThat(names(index.take(dir.resolve("sub/deeper")).orElseThrow())).containsExactly("c.txt 4");
        assertThat(index.take(dir.resolve("empty")).orElseThrow()).isEmpty();
        assertThat(index.take(dir)).as("handed out once").isEmpty();
        assertThat(infinityRequests()).isEqualTo(1);
        assertThat(depthOneRequests()).as("the deepest entries are files: nothing to check").isEmpty();
        assertThat(root.fileSystem().capabilities()).contains(Capability.FLAT_LISTING);
    }

    @Test
    void directoriesAtTheDeepestLevelAreCheckedByTheirOwnListing() throws Exception {
        tree.addAll(List.of("/dir/sub/deeper/last/", "/dir/sub/deeper/also/"));
        RemotePath dir = root.resolve("dir");
        FlatIndex index = FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000).orElseThrow();
        assertThat(depthOneRequests()).containsExactlyInAnyOrder("/dir/sub/deeper/last/", "/dir/sub/deeper/also/");
        assertThat(index.take(dir.resolve("sub/deeper/last")).orElseThrow()).isEmpty();
        // an empty directory alone: its own listing says it is empty
        requests.clear();
        FlatIndex empty = FlatIndex.read(dir.resolve("empty"), ListDetail.FILE_STATS, 1_000).orElseThrow();
        assertThat(empty.take(dir.resolve("empty")).orElseThrow()).isEmpty();
        assertThat(depthOneRequests()).containsExactly("/dir/empty/");
    }

    @Test
    void aServerThatAnswersInfinityAsDepthOneIsWalkedAndTheSyncDeletesNothingItShouldKeep() throws Exception {
        infinity = Infinity.AS_DEPTH_ONE;
        Path target = Files.createDirectories(temp.resolve("mirror/sub/deeper"));
        Files.writeString(target.resolve("c.txt"), "keep");
        Files.writeString(target.getParent().resolve("b.txt"), "keep");
        RemotePath dir = root.resolve("dir");
        assertThat(FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000)).isEmpty();
        assertThat(root.fileSystem().capabilities()).doesNotContain(Capability.FLAT_LISTING);
        assertThat(infinityRequests()).isEqualTo(1);

        RemotePath fresh = RemotePaths.get(URI.create("webdav://127.0.0.1:" + server.getAddress().getPort() + "/dir"),
                options(64 * 1024 + 1));
        try {
            requests.clear();
            SyncReport r = PathSyncer.builder(fresh, RemotePaths.of(temp.resolve("mirror"))).deleteExtraneous(true)
                    .build().run();
            assertThat(r.filesDeleted()).isZero();
            assertThat(Files.exists(target.resolve("c.txt"))).isTrue();
            assertThat(Files.exists(target.getParent().resolve("b.txt"))).isTrue();
            assertThat(infinityRequests()).isEqualTo(1);
            assertThat(depthOneRequests()).contains("/dir/sub/", "/dir/sub/deeper/");
        } finally {
            fresh.fileSystem().close();
        }
    }

    @Test
    void aRefusalCostsOneRequestAndTreesAreWalkedFromThen() throws Exception {
        infinity = Infinity.FORBIDDEN;
        RemotePath dir = root.resolve("dir");
        assertThat(FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000)).isEmpty();
        assertThat(root.fileSystem().capabilities()).doesNotContain(Capability.FLAT_LISTING);
        assertThatThrownBy(() -> root.fileSystem().listTree(dir, ListDetail.FILE_STATS))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000)).isEmpty();
        assertThat(infinityRequests()).isEqualTo(1);
        // the walk still sees the whole tree
        try (var walk = dir.walk()) {
            assertThat(walk.map(e -> dir.relativize(e.path()).pathString()).sorted().toList())
                    .containsExactly("a.txt", "empty", "sub", "sub/b.txt", "sub/deeper", "sub/deeper/c.txt");
        }
    }

    @Test
    void aMissingDirectoryOrAFileFailsAsItsListingDoes() {
        assertThatThrownBy(() -> FlatIndex.read(root.resolve("nope"), ListDetail.FILE_STATS, 1_000))
                .isInstanceOf(NoSuchFileException.class);
        assertThat(root.fileSystem().capabilities()).contains(Capability.FLAT_LISTING);
    }

    @Test
    void lyingMembersFailTheListing() throws Exception {
        RemotePath dir = root.resolve("dir");
        extra.add(response("/other/x.txt"));
        assertThatThrownBy(() -> FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("not below this directory");
        extra.clear();
        extra.add(response("/dir/sub/a%2Fb.txt"));
        assertThatThrownBy(() -> FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("encoded '/'");
        extra.clear();
        extra.add("<D:response><D:href>/dir/sub/hidden.txt</D:href><D:status>HTTP/1.1 403 Forbidden</D:status></D:response>");
        assertThatThrownBy(() -> FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("cannot describe");
        extra.clear();
        extra.add(response("/dir/sub/%2e%2e/%2e%2e/x.txt"));
        FlatIndex index = FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000).orElseThrow();
        assertThatThrownBy(() -> index.take(dir.resolve("sub"))).isInstanceOf(UnsafeNameException.class);
        extra.clear();
        extra.add(response("/dir/a.txt/"));
        FlatIndex twice = FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000).orElseThrow();
        assertThatThrownBy(() -> twice.take(dir)).isInstanceOf(FileSystemException.class);
        assertThat(root.fileSystem().capabilities()).contains(Capability.FLAT_LISTING);
    }

    @Test
    void aSyncFromALyingTreeWritesNothingOutsideItsTarget() throws Exception {
        extra.add(response("/dir/sub/%2e%2e/%2e%2e/%2e%2e/escaped.txt"));
        Path target = Files.createDirectories(temp.resolve("out/mirror"));
        SyncReport r = PathSyncer.builder(root.resolve("dir"), RemotePaths.of(target)).build().run();
        assertThat(r.errors()).as("the directory whose names climb out fails, the run goes on")
                .anySatisfy(e -> assertThat(e.toString()).contains("sub"));
        assertThat(infinityRequests()).isEqualTo(1);
        try (var s = Files.walk(temp)) {
            assertThat(s.filter(p -> p.getFileName().toString().equals("escaped.txt")).toList()).isEmpty();
        }
    }

    @Test
    void anAnswerOverTheByteBoundOrTheBudgetIsLeftForTheWalk() throws Exception {
        for (int i = 0; i < 2_000; i++) {
            tree.add("/dir/sub/f" + i);
        }
        RemotePath dir = root.resolve("dir");
        assertThat(FlatIndex.read(dir, ListDetail.FILE_STATS, 100_000)).isEmpty(); // > 64 KiB of XML
        assertThat(root.fileSystem().capabilities()).as("a large tree says nothing of the server")
                .contains(Capability.FLAT_LISTING);
        assertThat(FlatIndex.read(dir, ListDetail.FILE_STATS, 10)).isEmpty(); // over the entries' budget
        assertThat(root.fileSystem().capabilities()).contains(Capability.FLAT_LISTING);
        assertThat(((WebDavFileSystem) root.fileSystem()).openStreams()).isZero();
        // the connection given up on is not lent out still
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (activeConnections() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(activeConnections()).isZero();
    }

    private int activeConnections() throws Exception {
        var f = WebDavFileSystem.class.getDeclaredField("wire");
        f.setAccessible(true);
        return ((WebDavWire) f.get(root.fileSystem())).activeConnections();
    }

    @Test
    void aTricklingTreeAnswerIsCutOffAndTheTreeWalked() throws Exception {
        infinity = Infinity.TRICKLE;
        RemotePath dir = root.resolve("dir");
        long start = System.nanoTime();
        assertThat(FlatIndex.read(dir, ListDetail.FILE_STATS, 1_000)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
        assertThat(root.fileSystem().capabilities()).doesNotContain(Capability.FLAT_LISTING);
    }

    @Test
    void offByOptionNoTreeIsAskedFor() throws Exception {
        RemotePath off = RemotePaths.get(URI.create("webdav://127.0.0.1:" + server.getAddress().getPort() + "/dir"),
                WebDavOptions.builder().mtimes(WebDavOptions.Mtimes.SERVER).flatListings(false).build());
        try {
            assertThat(off.fileSystem().capabilities()).doesNotContain(Capability.FLAT_LISTING);
            assertThat(FlatIndex.read(off, ListDetail.FILE_STATS, 1_000)).isEqualTo(Optional.empty());
            assertThat(infinityRequests()).isZero();
        } finally {
            off.fileSystem().close();
        }
    }
}
