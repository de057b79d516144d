package dev.remotepath.http;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.http.index.IndexPage;
import dev.remotepath.http.index.IndexTitles;
import dev.remotepath.http.index.IndexPageParser;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.ContentRange;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.ReadOnlyFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * One HTTP origin as a read-only file system: {@code stat} is a HEAD (a 1-byte ranged GET when
 * HEAD is refused), a directory is a URL whose listing is an index page, {@code list} parses that
 * page ({@link IndexPageParser}), reads stream with {@code Range}, and a read that breaks resumes
 * with {@code If-Range} so it never mixes two versions of a file. Redirects stay on the same
 * origin unless the options allow otherwise. One Jetty client per file system (HTTP/1.1,
 * keep-alive), closed with it.
 */
public final class HttpFileSystem implements ReadOnlyFileSystem {

    private static final int MAX_REDIRECTS = 5;
    /** JSON first: Caddy answers its browse listing as JSON when asked; servers that ignore Accept send HTML. */
    private static final String ACCEPT_LISTING = "application/json, text/html;q=0.9, application/xml;q=0.8, */*;q=0.5";

    private final RemoteFileSystemProvider provider;
    private final String scheme;
    private final String host;
    private final int port;
    private final HttpOptions options;
    private final HttpClient client;
    /** The server's zone offset, for pages that show local times without saying so. */
    private final ZoneCalibration zone = new ZoneCalibration();

    /** Connections lent out to exchanges now; none once every stream is closed (the tests' leak check). */
    int activeConnections() {
        int active = 0;
        for (org.eclipse.jetty.client.Destination d : client.getDestinations()) {
            if (d.getConnectionPool() instanceof org.eclipse.jetty.client.AbstractConnectionPool pool) {
                active += pool.getActiveConnectionCount();
            }
        }
        return active;
    }
    private final Runnable onClose;
    private final dev.remotepath.spi.OpenState state = new dev.remotepath.spi.OpenState();

    HttpFileSystem(RemoteFileSystemProvider provider, String scheme, String host, int port, HttpOptions options,
            Runnable onClose) {
        this.provider = provider;
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.options = options;
        this.onClose = onClose;
        // Jetty's default queue sizes itself by the CPU's cache line, which it asks of the
        // platform MBean server: starting JMX (and JFR's MBean) cost a command ~0.1 s.
        QueuedThreadPool threads = new QueuedThreadPool(200, 8, 60_000, new java.util.concurrent.LinkedBlockingQueue<>());
        threads.setName("remotepath-http-" + host);
        threads.setDaemon(true);
        org.eclipse.jetty.io.ClientConnector connector = new org.eclipse.jetty.io.ClientConnector();
        if (scheme.equals("http")) {
            // plain HTTP never uses TLS: its context (the JDK's trust store read, keys made)
            // cost every http:// command ~0.3 s at start
            connector.setSslContextFactory(new NoTls());
        }
        HttpClient c = new HttpClient(new org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP(connector));
        c.setExecutor(threads);
        c.setScheduler(new ScheduledExecutorScheduler("remotepath-http-scheduler-" + host, true));
        c.setFollowRedirects(false); // redirects are followed here, within the origin policy
        c.setConnectTimeout(options.connectTimeout().toMillis());
        c.setIdleTimeout(options.idleTimeout().toMillis());
        c.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, options.userAgent()));
        // A copy writes the bytes of the resource: no transparent gunzip (a .tar.gz served with
        // Content-Encoding: gzip would be saved decompressed, and a small body could expand
        // without bound). Every request asks for identity; index pages sent encoded anyway are
        // decoded here, within maxIndexPageBytes.
        try {
            c.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the HTTP client for " + uriPrefix(), e);
        }
        c.getContentDecoderFactories().clear(); // after start(), which installs the gzip decoder
        this.client = c;
    }

    /** The TLS context of an http:// file system: never started, never used. */
    private static final class NoTls extends org.eclipse.jetty.util.ssl.SslContextFactory.Client {
        @Override
        protected void doStart() {
        }
    }

    HttpOptions options() {
        return options;
    }

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        boolean defaultPort = (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
        String h = host.contains(":") ? "[" + host + "]" : host;
        return scheme + "://" + h + (defaultPort ? "" : ":" + port);
    }

    /** Read-only: no write capability, so the api refuses writes before they get here. */
    @Override
    public Set<Capability> capabilities() {
        return Set.of();
    }

    @Override
    public boolean isOpen() {
        return state.isOpen();
    }

    @Override
    public void close() throws IOException {
        if (!state.close()) {
            return; // another thread closed it (or is closing it)
        }
        onClose.run();
        try {
            client.stop();
        } catch (Exception e) {
            throw new IOException("closing the HTTP client for " + uriPrefix() + " failed", e);
        }
    }

    @Override
    public String toString() {
        return "HttpFileSystem[" + uriPrefix() + "]";
    }

    // ------------------------------------------------------------------ requests

    URI uriOf(RemotePath p, boolean directory) {
        String path = p.pathString();
        String encoded = UriPaths.encodePath(directory && !path.endsWith("/") ? path + "/" : path);
        return URI.create(uriPrefix() + encoded);
    }

    /** A response with its body still to be read (or discarded). */
    record Exchange(URI uri, Response response, InputStreamResponseListener body) implements AutoCloseable {
        int status() {
            return response.getStatus();
        }

        HttpFields headers() {
            return response.getHeaders();
        }

        @Override
        public void close() throws IOException {
            body.close();
        }
    }

    private Exchange send(HttpMethod method, URI uri, HttpFields.Mutable extra, Duration total) throws IOException {
        state.requireOpen();
        // Headers must come within requestTimeout (below) and a body may not stall for longer
        // than idleTimeout. A total deadline only where the whole body is read at once (index
        // pages); file bodies, which may rightly take hours, are held to minimumBodyRate instead.
        Request request = client.newRequest(uri).method(method)
                .idleTimeout(options.idleTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .headers(h -> {
                    h.put(HttpHeader.ACCEPT_ENCODING, "identity");
                    options.credentials().ifPresent(c -> h.put(HttpHeader.AUTHORIZATION, authorization(c)));
                    if (extra != null) {
                        extra.forEach(h::put);
                    }
                });
        if (total != null) {
            request.timeout(total.toMillis(), TimeUnit.MILLISECONDS);
        }
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        try {
            Response response = listener.get(options.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
            return new Exchange(uri, response, listener);
        } catch (InterruptedException e) {
            request.abort(e);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException(method + " " + uri + " interrupted");
        } catch (TimeoutException e) {
            request.abort(e);
            throw new SocketTimeoutException(method + " " + uri + ": no response within "
                    + options.requestTimeout().toSeconds() + " s (HttpOptions.requestTimeout)");
        } catch (ExecutionException e) {
            throw HttpErrors.transport(method, uri, e.getCause(), options, total);
        }
    }

    private static String authorization(HttpOptions.Credentials c) {
        return switch (c) {
            case HttpOptions.Credentials.Basic b -> "Basic " + Base64.getEncoder().encodeToString(
                    (b.user() + ":" + b.password()).getBytes(StandardCharsets.UTF_8));
            case HttpOptions.Credentials.Bearer t -> "Bearer " + t.token();
        };
    }

    /**
     * Sends, following redirects that stay on this origin (or any, when allowed). With
     * {@code stopAtSlash}, a redirect that only adds or drops the final '/' is returned, not
     * followed: {@code /x} to {@code /x/} says "directory", {@code /x/} to {@code /x} says "file".
     */
    Exchange sendFollowing(HttpMethod method, URI uri, HttpFields.Mutable extra, boolean stopAtSlash)
            throws IOException {
        return sendFollowing(method, uri, extra, stopAtSlash, null);
    }

    private Exchange sendFollowing(HttpMethod method, URI uri, HttpFields.Mutable extra, boolean stopAtSlash,
            Duration total) throws IOException {
        URI current = uri;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            Exchange ex = send(method, current, extra, total);
            int status = ex.status();
            if (status < 300 || status > 399 || status == 304) {
                return ex;
            }
            String location = ex.headers().get(HttpHeader.LOCATION);
            ex.close();
            if (location == null) {
                throw new FileSystemException(current.toString(), null, "HTTP " + status + " redirect without a Location");
            }
            URI next = resolveLocation(current, location);
            if (next == null) {
                throw new FileSystemException(current.toString(), null, "HTTP " + status + " redirect to a malformed Location");
            }
            if (!options.crossOriginRedirects() && !sameOrigin(next)) {
                throw new AccessDeniedException(current.toString(), null,
                        "redirect to another origin refused (" + originOf(next) + "); HttpOptions.crossOriginRedirects allows it");
            }
            if (stopAtSlash && (isSlashRedirect(current, next) || isSlashRedirect(next, current))) {
                return new Exchange(next, ex.response(), ex.body());
            }
            current = next;
        }
        throw new FileSystemException(uri.toString(), null, "more than " + MAX_REDIRECTS + " redirects");
    }

    /**
     * A Location resolved against the request, or null when it cannot be read. Servers send raw
     * spaces and non-ASCII (mini_httpd: {@code Location: /sub dir/}); as browsers do, such
     * characters are percent-encoded (UTF-8) first, and a '%' that starts no escape is one.
     */
    static URI resolveLocation(URI base, String location) {
        String l = location.strip();
        StringBuilder sb = new StringBuilder(l.length() + 8);
        for (int i = 0; i < l.length(); i++) {
            char c = l.charAt(i);
            boolean escape = c == '%' && i + 2 < l.length()
                    && HexFormat.isHexDigit(l.charAt(i + 1)) && HexFormat.isHexDigit(l.charAt(i + 2));
            if (c == '%' && !escape) {
                sb.append("%25");
            } else if (c <= ' ' || c >= 0x7f || "\"<>\\^`{|}".indexOf(c) >= 0) {
                int cp = l.codePointAt(i);
                for (byte b : new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                    sb.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                            .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
                }
                i += Character.charCount(cp) - 1;
            } else {
                sb.append(c);
            }
        }
        try {
            return base.resolve(sb.toString());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private boolean sameOrigin(URI u) {
        int p = u.getPort() > 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
        String h = u.getHost();
        if (h != null && h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1); // this file system keeps an IPv6 host without brackets
        }
        return scheme.equalsIgnoreCase(u.getScheme()) && host.equalsIgnoreCase(h) && port == p;
    }

    private static String originOf(URI u) {
        return u.getScheme() + "://" + u.getHost() + (u.getPort() > 0 ? ":" + u.getPort() : "");
    }

    static boolean isSlashRedirect(URI from, URI to) {
        String a = from.getRawPath() == null ? "" : from.getRawPath();
        String b = to.getRawPath() == null ? "" : to.getRawPath();
        return b.endsWith("/") && UriPaths.decode(b).equals(UriPaths.decode(a) + "/");
    }

    // ------------------------------------------------------------------ stat

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        boolean root = path.pathString().equals("/");
        URI uri = uriOf(path, root);
        try (Exchange ex = sendFollowing(HttpMethod.HEAD, uri, null, true)) {
            if (isSlashRedirect(uri, ex.uri())) {
                return FileStat.ofType(FileType.DIRECTORY);
            }
            int status = ex.status();
            if (status == 405 || status == 501) {
                return statByRangedGet(path, uri);
            }
            if (status != 200) {
                throw HttpErrors.status("HEAD", uri, status, path);
            }
            if (root) {
                return FileStat.ofType(FileType.DIRECTORY);
            }
            return noted(HttpHeaderStats.fileStat(ex.headers(), HttpHeaderStats.contentLength(ex.headers())));
        }
    }

    /**
     * Algorithms this server has stated in a response's headers. Only these are advertised as
     * native checksums: a server that sends none has none, and a caller trusting the
     * advertisement (quick-check's checksum shortcut) would otherwise read both files instead.
     */
    private final Set<ChecksumAlgorithm> statedChecksums = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private FileStat noted(FileStat stat) {
        statedChecksums.addAll(stat.checksums().keySet());
        return stat;
    }

    /** Servers that refuse HEAD: GET the first byte and read the size from Content-Range. */
    private FileStat statByRangedGet(RemotePath path, URI uri) throws IOException {
        HttpFields.Mutable range = HttpFields.build().put(HttpHeader.RANGE, "bytes=0-0");
        try (Exchange ex = sendFollowing(HttpMethod.GET, uri, range, true)) {
            if (isSlashRedirect(uri, ex.uri())) {
                return FileStat.ofType(FileType.DIRECTORY);
            }
            int status = ex.status();
            long size;
            if (status == 206) {
                size = ContentRange.parse(ex.headers().get(HttpHeader.CONTENT_RANGE)).map(ContentRange::total).orElse(-1L);
            } else if (status == 200) {
                size = HttpHeaderStats.contentLength(ex.headers());
            } else if (status == 416) {
                size = 0;
            } else {
                throw HttpErrors.status("GET", uri, status, path);
            }
            return noted(HttpHeaderStats.fileStat(ex.headers(), size));
        }
    }

    @Override
    public Set<ChecksumAlgorithm> nativeChecksums() {
        return statedChecksums.isEmpty() ? Set.of() : EnumSet.copyOf(statedChecksums);
    }

    /** The checksum the server states in its headers, if it states one (the caller streams otherwise). */
    @Override
    public Optional<Checksum> nativeChecksum(RemotePath file, ChecksumAlgorithm algorithm) throws IOException {
        FileStat s = stat(file, true);
        String hex = s.checksums().get(algorithm);
        return hex == null ? Optional.empty() : Optional.of(new Checksum(algorithm, hex, Checksum.Origin.METADATA));
    }

    // ------------------------------------------------------------------ list

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        URI uri = uriOf(directory, true);
        HttpFields.Mutable accept = HttpFields.build().put(HttpHeader.ACCEPT, ACCEPT_LISTING);
        byte[] body;
        int length;
        String contentType;
        URI pageUri;
        try (Exchange ex = sendFollowing(HttpMethod.GET, uri, accept, true, options.listingTimeout())) {
            if (isSlashRedirect(ex.uri(), uri)) {
                throw new NotDirectoryException(directory.toString()); // sent from "x/" to "x": a file
            }
            if (redirectedToAncestor(uri, ex.uri())) {
                throw new java.nio.file.FileSystemLoopException(directory + " (the server redirects it to "
                        + ex.uri().getRawPath() + ", a directory above it: listing it would never end)");
            }
            int status = ex.status();
            if (status == 404 || status == 410) {
                throw missingOrFile(directory);
            }
            if (status != 200) {
                throw HttpErrors.status("GET", uri, status, directory);
            }
            contentType = ex.headers().get(HttpHeader.CONTENT_TYPE);
            pageUri = ex.uri();
            if (pageUri.getRawPath() == null || !pageUri.getRawPath().endsWith("/")) {
                // The server sent us from "x/" to "x": x is a file.
                throw new NotDirectoryException(directory.toString());
            }
            long declared = ex.headers().getLongField(HttpHeader.CONTENT_LENGTH);
            if (declared > options.maxIndexPageBytes()) {
                throw tooLarge(directory, declared);
            }
            try (InputStream in = ex.body().getInputStream()) {
                byte[] buf = new byte[(int) Math.min(options.maxIndexPageBytes() + 1, declared >= 0 ? declared + 1 : 64 * 1024)];
                length = 0;
                int n;
                while ((n = in.read(buf, length, buf.length - length)) >= 0) {
                    length += n;
                    if (length > options.maxIndexPageBytes()) {
                        throw tooLarge(directory, length);
                    }
                    if (length == buf.length) {
                        buf = java.util.Arrays.copyOf(buf, (int) Math.min(options.maxIndexPageBytes() + 1, buf.length * 2L));
                    }
                }
                if (declared >= 0 && length != declared) {
                    throw new FileSystemException(directory.toString(), null, "index page truncated: " + length
                            + " of " + declared + " bytes");
                }
                body = buf;
            } catch (IOException e) {
                if (e instanceof FileSystemException) {
                    throw e;
                }
                if (causedByTimeout(e)) {
                    SocketTimeoutException t = new SocketTimeoutException("GET " + uri + ": the index page did not "
                            + "arrive within " + options.listingTimeout().toSeconds() + " s (HttpOptions.listingTimeout)");
                    t.initCause(e);
                    throw t;
                }
                throw new IOException("GET " + uri + ": reading the index page failed: " + e.getMessage(), e);
            }
            String encoding = ex.headers().get(HttpHeader.CONTENT_ENCODING);
            if (encoding != null && !encoding.isBlank() && !encoding.strip().equalsIgnoreCase("identity")) {
                body = BoundedDecoding.decode(encoding.strip(), body, length, options.maxIndexPageBytes(), directory);
                length = body.length;
            }
        }
        String dirPath = UriPaths.decode(pageUri.getRawPath() == null ? "/" : pageUri.getRawPath());
        if (!dirPath.endsWith("/")) {
            dirPath += "/";
        }
        IndexPage page = IndexPageParser.parse(body, length, contentType, dirPath, scheme, pageUri.getRawAuthority(),
                directory.toString());
        if (page.format() == IndexPage.Format.HTML && !options.lenientIndexPages()
                && !IndexTitles.namesDirectory(body, length, dirPath)) {
            // A 200 page that does not say it lists this directory (a maintenance, login or error
            // page) is not evidence that the directory holds only its few links.
            throw new FileSystemException(directory.toString(), null, "the server's page is not a directory index "
                    + "(its title and headings do not name " + dirPath + "): refusing to read it as the listing "
                    + "(HttpOptions.lenientIndexPages accepts such pages)");
        }
        List<ListedEntry> entries = page.timesInUnstatedZone()
                ? zone.correct(directory, page.entries(), f -> stat(f, true)) : page.entries();
        return DirectoryListing.of(page.directoriesUnmarked() ? withDirectoriesFound(directory, entries) : entries);
    }

    /**
     * On a page that links directories without their slash (mini_httpd), each entry shown as a
     * file is asked about: a HEAD that the server answers by redirecting to the name with a slash
     * is a directory. One request per such entry, on such pages only.
     */
    private List<ListedEntry> withDirectoriesFound(RemotePath directory, List<ListedEntry> entries) throws IOException {
        List<ListedEntry> out = new java.util.ArrayList<>(entries.size());
        for (ListedEntry e : entries) {
            if (e.stat().type() != FileType.FILE) {
                out.add(e);
                continue;
            }
            URI child = uriOf(directory.child(e.name()), false);
            try (Exchange ex = send(HttpMethod.HEAD, child, null, null)) {
                String location = ex.headers().get(HttpHeader.LOCATION);
                boolean redirect = ex.status() >= 300 && ex.status() < 400 && location != null;
                URI next = redirect ? resolveLocation(child, location) : null;
                out.add(next != null && isSlashRedirect(child, next)
                        ? new ListedEntry(e.name(), FileStat.ofType(FileType.DIRECTORY)) : e);
            }
        }
        return out;
    }

    private static boolean causedByTimeout(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof TimeoutException || c instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** A redirect from a directory to one of its ancestors (not to itself): an endless tree. */
    private static boolean redirectedToAncestor(URI asked, URI landed) {
        String from = asked.getRawPath() == null ? "/" : UriPaths.decode(asked.getRawPath());
        String to = landed.getRawPath() == null ? "/" : UriPaths.decode(landed.getRawPath());
        if (!to.endsWith("/")) {
            to += "/";
        }
        if (!from.endsWith("/")) {
            from += "/";
        }
        return !from.equals(to) && from.startsWith(to);
    }

    private IOException tooLarge(RemotePath dir, long bytes) {
        return new FileSystemException(dir.toString(), null, "index page larger than " + options.maxIndexPageBytes()
                + " bytes (" + bytes + "): raise HttpOptions.maxIndexPageBytes to list it");
    }

    /** A listing 404: the path is a file (NotDirectory) or does not exist. */
    private IOException missingOrFile(RemotePath directory) {
        try {
            if (stat(directory, true).isRegularFile()) {
                return new NotDirectoryException(directory.toString());
            }
        } catch (IOException e) {
            // fall through: missing
        }
        return new NoSuchFileException(directory.toString());
    }

    // ------------------------------------------------------------------ read

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        return new HttpReadStream(this, file, offset, Long.MAX_VALUE);
    }

    /** A bounded {@code Range}: the server sends the window and no more (the NIO channel's reads). */
    @Override
    public InputStream openRead(RemotePath file, long offset, long length) throws IOException {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length);
        }
        return new HttpReadStream(this, file, offset, length);
    }
}
