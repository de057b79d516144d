package dev.remotepath.webdav;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.IsDirectoryException;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.OpenState;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * One WebDAV origin (RFC 4918) as a file system: {@code stat} is a {@code PROPFIND} of depth 0,
 * {@code list} one of depth 1 whose answer carries every member's type, size, time and ETag (no
 * request per entry), reads are ranged GETs pinned to the stat's ETag, a write is a PUT (the api
 * writes a temporary sibling and MOVEs it into place), directories are MKCOL and DELETE,
 * server-side copies are COPY to a temporary sibling then MOVE.
 *
 * <p>Servers differ in what their status codes mean (rclone answers 201 to a MKCOL of an existing
 * collection and ignores {@code If-None-Match}; lighttpd serves a file under {@code file/}), so
 * what must hold is checked by a PROPFIND first, never inferred from a server's leniency: a
 * write never replaces a directory, a MKCOL never "succeeds" on one that exists, and a DELETE,
 * which takes a whole collection with it, is sent only for a file, or for a directory its listing
 * just showed empty, guarded by {@code If-Match} on the ETag seen.
 *
 * <p>Modification times ({@link WebDavOptions.Mtimes}): where the server keeps dead properties
 * the mtime is one, with the server's time of the write beside it, and honoured only while the
 * server's own time of the file is not later (a file another client changed since falls back to
 * the server's time). Elsewhere the server's own time is the mtime, and cannot be set.
 */
public final class WebDavFileSystem implements RemoteFileSystem {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(WebDavFileSystem.class);

    private static final String PROPFIND_BODY = """
            <?xml version="1.0" encoding="utf-8"?>\
            <D:propfind xmlns:D="DAV:" xmlns:R="%s"><D:prop><D:resourcetype/><D:getcontentlength/>\
            <D:getlastmodified/><D:getetag/>%s</D:prop></D:propfind>""";

    private final RemoteFileSystemProvider provider;
    private final String scheme;
    private final String host;
    private final int port;
    private final WebDavOptions options;
    private final WebDavWire wire;
    private final Runnable onClose;
    private final OpenState state = new OpenState();
    private final AtomicInteger openStreams = new AtomicInteger();
    private final WebDavMtimes mtimes;
    private final byte[] propfind;
    /** The server refused a {@code Depth: infinity} PROPFIND, or answered one short: trees are walked. */
    private volatile boolean treeListingRefused;

    WebDavFileSystem(RemoteFileSystemProvider provider, String scheme, String host, int port, WebDavOptions options,
            String probePath, Runnable onClose) throws IOException {
        this.provider = provider;
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.options = options;
        this.onClose = onClose;
        this.wire = new WebDavWire(httpOrigin(), options);
        try {
            this.mtimes = WebDavMtimes.resolve(options.mtimes(), wire, this, probePath);
        } catch (IOException | RuntimeException e) {
            wire.close();
            throw e;
        }
        this.propfind = PROPFIND_BODY.formatted(Multistatus.RP, mtimes.kept() ? "<R:mtime/>" : "")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private String httpOrigin() {
        String h = host.contains(":") ? "[" + host + "]" : host;
        return (scheme.equals("webdavs") ? "https" : "http") + "://" + h + ":" + port;
    }

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        boolean defaultPort = (scheme.equals("webdav") && port == 80) || (scheme.equals("webdavs") && port == 443);
        String h = host.contains(":") ? "[" + host + "]" : host;
        return scheme + "://" + h + (defaultPort ? "" : ":" + port);
    }

    /**
     * Writes, renames (MOVE, which cannot replace atomically on every server: the api sets the
     * old file aside and restores it if the MOVE fails), server-side copies; modification times
     * where the server keeps them; whole trees in one request ({@link #listTree}) until the
     * server has refused one.
     */
    @Override
    public Set<Capability> capabilities() {
        EnumSet<Capability> caps = EnumSet.of(Capability.WRITE, Capability.RENAME, Capability.SERVER_SIDE_COPY);
        if (mtimes.kept()) {
            caps.add(Capability.SET_LAST_MODIFIED_TIME);
            caps.add(Capability.MTIME_ON_WRITE);
        }
        if (options.flatListings() && !treeListingRefused) {
            caps.add(Capability.FLAT_LISTING);
        }
        return caps;
    }

    /** How this file system keeps modification times, as the server's answer to the probe decided. */
    public WebDavOptions.Mtimes mtimes() {
        return mtimes.kept() ? WebDavOptions.Mtimes.PROPERTY : WebDavOptions.Mtimes.SERVER;
    }

    @Override
    public boolean isOpen() {
        return state.isOpen();
    }

    @Override
    public void close() throws IOException {
        if (!state.close()) {
            return;
        }
        onClose.run();
        wire.close();
    }

    @Override
    public String toString() {
        return "WebDavFileSystem[" + uriPrefix() + "]";
    }

    /** Read and write streams open now (the contract suite's leak check). */
    public int openStreams() {
        return openStreams.get();
    }

    void streamOpened() {
        openStreams.incrementAndGet();
    }

    void streamClosed() {
        openStreams.decrementAndGet();
    }

    // ------------------------------------------------------------------ addresses

    URI uriOf(RemotePath p, boolean collection) {
        String path = p.pathString();
        String encoded = UriPaths.encodePath(collection && !path.endsWith("/") ? path + "/" : path);
        return URI.create(httpOrigin() + encoded);
    }

    // ------------------------------------------------------------------ PROPFIND

    /** The responses of a PROPFIND of {@code path}; empty where the server says it does not exist. */
    private Optional<List<Multistatus.Response>> propfind(RemotePath path, boolean collection, int depth)
            throws IOException {
        state.requireOpen();
        URI uri = uriOf(path, collection);
        HttpFields extra = HttpFields.build().put("Depth", String.valueOf(depth));
        try (WebDavWire.Exchange ex = wire.send("PROPFIND", uri, extra, propfind, "application/xml; charset=utf-8")) {
            int status = ex.status();
            if (status == 404 || status == 410) {
                return Optional.empty();
            }
            if ((status == 400 || status == 403 || status == 409) && belowAFile(path)) {
                return Optional.empty(); // Apache answers 400 and lighttpd 403 for a path below a file
            }
            if (status != 207) {
                throw WebDavErrors.of("PROPFIND", uri, status, path);
            }
            byte[] body = WebDavWire.body(ex, options.maxListingBytes(), path.toString());
            try {
                return Optional.of(Multistatus.parse(body, body.length));
            } catch (Multistatus.MalformedException e) {
                throw new FileSystemException(path.toString(), null, "PROPFIND " + uri + ": " + e.getMessage());
            }
        }
    }

    /** Whether the nearest ancestor of {@code path} that exists is a file: below it nothing exists. */
    private boolean belowAFile(RemotePath path) throws IOException {
        for (RemotePath p = path.parent(); p != null; p = p.parent()) {
            Optional<FileStat> st = find(p);
            if (st.isPresent()) {
                return !st.get().isDirectory();
            }
        }
        return false;
    }

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        return find(path).orElseThrow(() -> new NoSuchFileException(path.toString()));
    }

    private Optional<FileStat> find(RemotePath path) throws IOException {
        Optional<List<Multistatus.Response>> answer = propfind(path, path.pathString().equals("/"), 0);
        if (answer.isEmpty()) {
            return Optional.empty();
        }
        URI uri = uriOf(path, false);
        for (Multistatus.Response r : answer.get()) {
            if (Hrefs.path(r.href(), uri, path).equals(path.pathString()) && r.status() / 100 != 4) {
                return Optional.of(mtimes.stat(r));
            }
        }
        if (answer.get().size() == 1 && answer.get().getFirst().status() < 0) {
            return Optional.of(mtimes.stat(answer.get().getFirst())); // a server that names it otherwise
        }
        return Optional.empty();
    }

    // ------------------------------------------------------------------ list

    /** A directory's own response and its members'. */
    private record Members(Multistatus.Response self, List<ListedEntry> entries) {
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        return DirectoryListing.of(members(directory).entries());
    }

    private Members members(RemotePath directory) throws IOException {
        Optional<List<Multistatus.Response>> answer;
        try {
            answer = propfind(directory, true, 1);
        } catch (FileSystemException refused) {
            // Apache answers 400 and lighttpd 403 for a file asked as a collection
            if (find(directory).filter(s -> !s.isDirectory()).isPresent()) {
                throw new NotDirectoryException(directory.toString());
            }
            throw refused;
        }
        if (answer.isEmpty()) {
            if (find(directory).isPresent()) {
                throw new NotDirectoryException(directory.toString());
            }
            throw new NoSuchFileException(directory.toString());
        }
        URI uri = uriOf(directory, true);
        String dir = directory.pathString();
        String prefix = dir.endsWith("/") ? dir : dir + "/";
        Multistatus.Response self = null;
        List<ListedEntry> entries = new ArrayList<>(answer.get().size());
        for (Multistatus.Response r : answer.get()) {
            String p = Hrefs.path(r.href(), uri, directory);
            if (p.equals(dir)) {
                if (!r.collection()) {
                    throw new NotDirectoryException(directory.toString());
                }
                self = r;
                continue;
            }
            if (!p.startsWith(prefix) || p.indexOf('/', prefix.length()) >= 0) {
                throw new FileSystemException(directory.toString(), null, "the server listed " + r.href()
                        + ", which is not a member of this directory: refusing the listing");
            }
            if (r.status() >= 300) {
                throw WebDavErrors.undescribedMember(directory, r.href(), r.status());
            }
            entries.add(new ListedEntry(p.substring(prefix.length()), mtimes.stat(r)));
        }
        return new Members(self, entries);
    }

    /**
     * The whole tree below {@code directory} by one {@code PROPFIND Depth: infinity}, streamed
     * ({@link WebDavTreeListing}), where {@link WebDavOptions#flatListings()} allows it. A server
     * may refuse that depth (Apache's default {@code DavDepthInfinity Off} and lighttpd's answer
     * 403): then, and after an answer that stopped short, this file system no longer declares
     * {@link Capability#FLAT_LISTING} and this throws {@link UnsupportedOperationException}, so
     * the tree is walked directory by directory.
     */
    @Override
    public DirectoryListing listTree(RemotePath directory, ListDetail detail) throws IOException {
        if (!options.flatListings() || treeListingRefused) {
            throw new UnsupportedOperationException(uriPrefix() + " lists no whole trees at once"
                    + (treeListingRefused ? " (it refused one)" : " (WebDavOptions.flatListings)"));
        }
        state.requireOpen();
        return WebDavTreeListing.open(this, wire, mtimes, directory, propfind, options.maxListingBytes());
    }

    /** Notes that this server lists no whole trees, and says so to the caller, which walks instead. */
    UnsupportedOperationException treeListingRefused(String why) {
        treeListingRefused = true;
        LOG.debug("{}: {}; trees are listed directory by directory from now on", uriPrefix(), why);
        return new UnsupportedOperationException(why + "; list directory by directory");
    }

    // ------------------------------------------------------------------ read

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        return openRead(file, offset, Long.MAX_VALUE);
    }

    @Override
    public InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        FileStat st = stat(file, true);
        if (st.isDirectory()) {
            throw new IsDirectoryException(file.toString());
        }
        return new WebDavReadStream(this, wire, file, st, uriOf(file, false), offset, length);
    }

    IOException readFailure(RemotePath file, URI uri, int status) {
        return WebDavErrors.of("GET", uri, status, file);
    }

    // ------------------------------------------------------------------ write

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return write(file, mode, Optional.empty());
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
        return write(file, mode, Optional.of(lastModified));
    }

    private OutputStream write(RemotePath file, WriteMode mode, Optional<Instant> mtime) throws IOException {
        state.requireOpen();
        if (file.pathString().equals("/")) {
            throw new IsDirectoryException(file.toString());
        }
        Optional<FileStat> existing = find(file);
        if (existing.isPresent() && existing.get().isDirectory()) {
            throw new IsDirectoryException(file.toString());
        }
        if (existing.isPresent() && mode == WriteMode.CREATE_NEW) {
            throw new FileAlreadyExistsException(file.toString());
        }
        URI uri = uriOf(file, false);
        HttpFields.Mutable extra = HttpFields.build();
        if (mode == WriteMode.CREATE_NEW) {
            extra.put(HttpHeader.IF_NONE_MATCH, "*"); // where the server honours it, a race lost is a 412
        }
        mtime.ifPresent(t -> extra.put(WebDavMtimes.OC_MTIME, String.valueOf(t.getEpochSecond())));
        WebDavUploadStream out = new WebDavUploadStream(this, wire, file, uri, extra,
                headers -> mtimes.written(file, mtime, headers));
        if (existing.isPresent() && mode == WriteMode.CREATE_OR_APPEND) {
            // A PUT replaces the whole resource: appending writes the old content first.
            try (InputStream old = openRead(file, 0)) {
                old.transferTo(out);
            } catch (IOException | RuntimeException e) {
                out.abort();
                throw e;
            }
        }
        return out;
    }

    /** A PUT refused: 409 (rclone: 404, Apache below a file: 400) may mean the parent is missing or a file. */
    IOException writeFailure(RemotePath file, URI uri, int status) {
        if (status == 409 || status == 404 || status == 400 || status == 403) {
            return parentProblem(file, "PUT", uri, status);
        }
        return WebDavErrors.of("PUT", uri, status, file);
    }

    private IOException parentProblem(RemotePath path, String method, URI uri, int status) {
        RemotePath parent = path.parent();
        try {
            Optional<FileStat> p = parent == null ? Optional.empty() : find(parent);
            if (p.isEmpty()) {
                return new NoSuchFileException(path.toString(), null, "parent directory does not exist");
            }
            if (!p.get().isDirectory()) {
                // below a file nothing exists, as NIO maps ENOTDIR
                return new NoSuchFileException(path.toString(), null, "a file, not a directory, is above it");
            }
        } catch (IOException e) {
            return e;
        }
        return WebDavErrors.of(method, uri, status, path);
    }

    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        state.requireOpen();
        if (!mtimes.kept()) {
            throw RemoteFileSystem.unsupported(path, "setting a modification time (this server keeps no dead "
                    + "properties: WebDavOptions.Mtimes.SERVER)");
        }
        if (find(path).isEmpty()) {
            throw new NoSuchFileException(path.toString());
        }
        mtimes.set(path, time, wire.serverNow());
    }

    // ------------------------------------------------------------------ directories

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        state.requireOpen();
        if (find(directory).isPresent()) {
            throw new FileAlreadyExistsException(directory.toString());
        }
        URI uri = uriOf(directory, true);
        try (WebDavWire.Exchange ex = wire.send("MKCOL", uri, null, null, null)) {
            int status = ex.status();
            if (status / 100 == 2) {
                return;
            }
            if (status == 405) {
                throw new FileAlreadyExistsException(directory.toString());
            }
            if (status == 409 || status == 404) {
                throw parentProblem(directory, "MKCOL", uri, status);
            }
            throw WebDavErrors.of("MKCOL", uri, status, directory);
        }
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        state.requireOpen();
        FileStat st = stat(file, false);
        if (st.isDirectory()) {
            throw new IsDirectoryException(file.toString(), "a DELETE would remove it with everything in it");
        }
        delete(file, false, st.etag());
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        state.requireOpen();
        if (directory.pathString().equals("/")) {
            throw new FileSystemException(directory.toString(), null, "the root cannot be deleted");
        }
        Members m = members(directory);
        if (!m.entries().isEmpty()) {
            throw new DirectoryNotEmptyException(directory.toString());
        }
        delete(directory, true, m.self() == null ? Optional.empty() : m.self().etag());
    }

    /** A DELETE, with {@code If-Match} on a strong ETag seen, so what changed since is not deleted. */
    private void delete(RemotePath path, boolean collection, Optional<String> etag) throws IOException {
        URI uri = uriOf(path, collection);
        HttpFields.Mutable extra = HttpFields.build();
        etag.filter(e -> !e.startsWith("W/")).ifPresent(e -> extra.put(HttpHeader.IF_MATCH, e));
        try (WebDavWire.Exchange ex = wire.send("DELETE", uri, extra, null, null)) {
            int status = ex.status();
            if (status / 100 == 2) {
                if (status == 207) { // a collection some of whose members could not be deleted
                    throw new FileSystemException(path.toString(), null, "DELETE " + uri + " left some members behind");
                }
                return;
            }
            if (status == 412) {
                throw new FileSystemException(path.toString(), null, "changed since it was listed: not deleted");
            }
            throw WebDavErrors.of("DELETE", uri, status, path);
        }
    }

    // ------------------------------------------------------------------ MOVE and COPY

    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        state.requireOpen();
        if (replaceExisting) {
            Optional<FileStat> t = find(target);
            if (t.isPresent() && t.get().isDirectory() && !members(target).entries().isEmpty()) {
                throw new DirectoryNotEmptyException(target.toString()); // Overwrite: T would delete its tree
            }
        }
        transfer("MOVE", source, target, replaceExisting);
    }

    /**
     * Copies a file within the server: COPY to a temporary sibling, its mtime set, then MOVE into
     * place, so the target is never seen half-copied. A target that exists is left to the api
     * (false), which replaces it by its own temporary and rename.
     */
    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        state.requireOpen();
        if (!sourceStat.isRegularFile()) {
            return false;
        }
        if (find(target).isPresent()) {
            if (replaceExisting) {
                return false;
            }
            throw new FileAlreadyExistsException(target.toString());
        }
        RemotePath temporary = target.resolveSibling("." + target.name() + ".rpcopy-"
                + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong()));
        try {
            HttpFields done = transfer("COPY", source, temporary, false);
            Optional<Instant> mtime = sourceStat.lastModified();
            if (mtime.isPresent() && mtimes.kept()) {
                mtimes.set(temporary, mtime.get(), WebDavWire.serverDate(done).orElse(wire.serverNow()));
            }
            transfer("MOVE", temporary, target, false);
        } catch (IOException | RuntimeException e) {
            try {
                delete(temporary, false, Optional.empty()); // what a COPY that broke may have left
            } catch (NoSuchFileException nothingLeft) {
                // the usual case
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return true;
    }

    private static String locationPath(WebDavWire.Exchange ex) {
        String location = ex.headers().get(HttpHeader.LOCATION);
        try {
            return location == null ? null : ex.uri().resolve(location.strip()).getRawPath();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private HttpFields transferCollection(String method, RemotePath source, RemotePath target, boolean overwrite)
            throws IOException {
        URI from = uriOf(source, true);
        HttpFields.Mutable extra = HttpFields.build()
                .put("Destination", uriOf(target, true).toASCIIString())
                .put("Overwrite", overwrite ? "T" : "F");
        try (WebDavWire.Exchange ex = wire.send(method, from, extra, null, null)) {
            if (ex.status() / 100 == 2) {
                return ex.headers();
            }
            throw transferFailure(method, from, ex.status(), source, target);
        }
    }

    /** A MOVE or COPY of one resource; the response's headers. */
    private HttpFields transfer(String method, RemotePath source, RemotePath target, boolean overwrite)
            throws IOException {
        URI from = uriOf(source, false);
        URI to = uriOf(target, false);
        HttpFields.Mutable extra = HttpFields.build()
                .put("Destination", to.toASCIIString())
                .put("Overwrite", overwrite ? "T" : "F");
        if (method.equals("COPY")) {
            extra.put("Depth", "0");
        }
        try (WebDavWire.Exchange ex = wire.send(method, from, extra, null, null)) {
            int status = ex.status();
            if (status / 100 == 2) {
                return ex.headers();
            }
            if ((status == 301 || status == 308) && !from.getRawPath().endsWith("/")
                    && (from.getRawPath() + "/").equals(locationPath(ex))) {
                // lighttpd sends a collection asked without its '/' to the URL with one
                return transferCollection(method, source, target, overwrite);
            }
            throw transferFailure(method, from, status, source, target);
        }
    }

    private IOException transferFailure(String method, URI from, int status, RemotePath source, RemotePath target)
            throws IOException {
        if (status == 412) {
            return new FileAlreadyExistsException(target.toString());
        }
        if (find(source).isEmpty()) { // rclone answers 403 for a missing source
            return new NoSuchFileException(source.toString());
        }
        if (status == 409 || status == 404) {
            return parentProblem(target, method, from, status);
        }
        return WebDavErrors.of(method, from, status, source);
    }

    /** The options this file system was opened with. */
    WebDavOptions options() {
        return options;
    }
}
