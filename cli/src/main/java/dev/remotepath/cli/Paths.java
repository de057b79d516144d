package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.local.LocalFileSystemProvider;
import dev.remotepath.spi.Capability;
import java.io.IOException;

/** Command-line arguments to paths: URIs, or local paths without a scheme. */
final class Paths {

    /** The environment variable an encrypted SSH key's passphrase may come from; otherwise it is asked at the terminal. */
    static final String SSH_PASSPHRASE_ENV = "RPATH_SSH_PASSPHRASE";

    /** The environment variable an SFTP password may come from; otherwise it is asked at the terminal. */
    static final String SFTP_PASSWORD_ENV = "RPATH_SFTP_PASSWORD";

    private static volatile Rpath options;
    /** Whether a path of a backend that is not {@link Capability#IN_PROCESS} may be in use. */
    private static volatile boolean networkBackends;

    private Paths() {
    }

    /** The top command whose backend flags apply to every path made from now on. */
    static void use(Rpath rpath) {
        options = rpath;
        TYPED.clear(); // a command's own arguments name its paths (tests run many in one JVM)
        ALSO_TYPED.clear();
        requestLines = null;
    }

    /** With {@code --verbose}: a line per request of a remote backend (made once the flags are parsed). */
    private static RequestLines requestLines;

    private static synchronized RequestLines requestLines() {
        if (requestLines == null && options != null && options.verbose) {
            requestLines = new RequestLines(options.err);
        }
        return requestLines;
    }

    static RemotePath of(String arg) throws IOException {
        String uri = uriOf(arg);
        RemotePath path = make(uri);
        if (!path.fileSystem().capabilities().contains(Capability.IN_PROCESS)) {
            networkBackends = true;
            RequestLines lines = requestLines();
            if (lines != null) {
                path = lines.observe(path);
            }
        }
        String canonical = path.toString();
        if (TYPED.size() < 1_000) { // bounded: a script may make paths by the million
            Typed typed = new Typed(arg, !uri.equals(arg) || !hasScheme(arg));
            Typed first = TYPED.putIfAbsent(canonical, typed);
            if (first != null && !first.arg().equals(arg)) {
                ALSO_TYPED.putIfAbsent(canonical, typed); // "cp f d/../f": one file, two spellings
            }
        }
        return path;
    }

    /** An argument as typed, and whether the path in it is literal text (so names below it are shown decoded). */
    private record Typed(String arg, boolean literal) {
    }

    /** Each path made, by its URI, to the first argument it was made from. */
    private static final java.util.Map<String, Typed> TYPED = new java.util.concurrent.ConcurrentHashMap<>();

    /** A later argument that named the same URI another way. */
    private static final java.util.Map<String, Typed> ALSO_TYPED = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The second of two arguments that named {@code uri} differently ({@code cp f d/../f}), for an
     * error naming it as both source and target; else as {@link #asTyped}.
     */
    static String asTypedSecond(String uri) {
        Typed also = uri == null ? null : ALSO_TYPED.get(uri);
        return also != null ? also.arg() : asTyped(uri);
    }

    /**
     * {@code uri} (a path's URI, as errors name files) the way the user typed it: the argument
     * it is, or lies below, with the rest appended (decoded where the argument's path was
     * literal text). A URI of no argument comes back unchanged.
     */
    static String asTyped(String uri) {
        if (uri == null || TYPED.isEmpty()) {
            return uri;
        }
        String best = null;
        for (String made : TYPED.keySet()) {
            if ((uri.equals(made) || uri.startsWith(made.endsWith("/") ? made : made + "/"))
                    && (best == null || made.length() > best.length())) {
                best = made;
            }
        }
        if (best == null) {
            return uri;
        }
        Typed t = TYPED.get(best);
        String rest = uri.substring(best.length());
        if (rest.isEmpty()) {
            return t.arg();
        }
        if (t.literal()) {
            try {
                rest = dev.remotepath.UriPaths.decode(rest);
            } catch (RuntimeException e) {
                // leave it encoded
            }
        }
        return t.arg().endsWith("/") && rest.startsWith("/") ? t.arg() + rest.substring(1) : t.arg() + rest;
    }

    private static boolean hasScheme(String arg) {
        int colon = arg.indexOf(':');
        return colon > 0 && arg.startsWith("//", colon + 1);
    }

    /**
     * The URI a command-line argument stands for. The path part of {@code scheme://authority/path}
     * is taken as typed (its {@code %XX} escapes decoded) when it is a well-formed URI path, and
     * as literal text otherwise: when it holds a space, {@code #}, {@code ?}, a {@code %} not
     * followed by two hex digits, a control character or one of {@code "<>\^`{|}}. So
     * {@code sftp://h/moved #1.bin} names the file {@code moved #1.bin}, as rclone's
     * {@code remote:path} would, and {@code sftp://h/a%20b} still names {@code a b}. No backend
     * takes a query or a fragment, so {@code ?} and {@code #} are never anything but name characters.
     */
    static String uriOf(String arg) {
        if (!hasScheme(arg)) {
            return arg;
        }
        int colon = arg.indexOf(':');
        int pathStart = arg.indexOf('/', colon + 3);
        int special = firstOf(arg, colon + 3, "?#");
        if (pathStart < 0 || special >= 0 && special < pathStart) {
            return arg; // no path, or '?'/'#' in the authority: left for the provider to refuse
        }
        String path = arg.substring(pathStart);
        return wellFormed(path) ? arg : arg.substring(0, pathStart) + dev.remotepath.UriPaths.encodePath(path);
    }

    private static int firstOf(String s, int from, String chars) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    private static boolean wellFormed(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%') {
                if (i + 2 >= path.length() || Character.digit(path.charAt(i + 1), 16) < 0
                        || Character.digit(path.charAt(i + 2), 16) < 0) {
                    return false;
                }
                i += 2;
            } else if (c <= ' ' || c == 127 || "#?\"<>\\^`{|}".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** New archives the command's paths lie in, to publish (or discard) when it ends. */
    private static final java.util.Set<dev.remotepath.archive.NewArchiveFileSystem> NEW_ARCHIVES =
            new java.util.LinkedHashSet<>();

    /**
     * Publishes every new archive the command wrote into ({@code publish}), or discards them
     * all (the command failed); returns what went wrong, one exception per archive.
     */
    static java.util.List<Exception> finishNewArchives(boolean publish) {
        java.util.List<dev.remotepath.archive.NewArchiveFileSystem> all;
        synchronized (NEW_ARCHIVES) {
            all = new java.util.ArrayList<>(NEW_ARCHIVES);
            NEW_ARCHIVES.clear();
        }
        java.util.List<Exception> failures = new java.util.ArrayList<>();
        for (dev.remotepath.archive.NewArchiveFileSystem fs : all) {
            try {
                if (publish) {
                    fs.close();
                } else if (fs.abort()) {
                    failures.add(new java.nio.file.FileSystemException(fs.archive().toString(), null,
                            "not written: the command failed, and an archive is published only whole"));
                }
            } catch (IOException | RuntimeException e) {
                failures.add(e);
            }
        }
        return failures;
    }

    /** Notes that paths may come from elsewhere than {@link #of} (a script's own calls). */
    static void anyBackend() {
        networkBackends = true;
    }

    /**
     * True while every path made was on an {@link Capability#IN_PROCESS} file system (local,
     * mem): nothing to close at exit, and no threads but daemon ones.
     */
    static boolean inProcessOnly() {
        return !networkBackends;
    }

    private static RemotePath make(String arg) throws IOException {
        return make(options, arg);
    }

    /**
     * {@code arg} as a URI; a malformed one ({@code s3://}, {@code http://[::1}) is the usage
     * error {@code RemotePaths.get(String)} makes of it, not the JDK's bare parser message.
     */
    private static java.net.URI uri(String arg) {
        try {
            return new java.net.URI(arg);
        } catch (java.net.URISyntaxException e) {
            throw new java.nio.file.InvalidPathException(arg, "malformed URI: " + e.getReason()
                    + " (percent-encode spaces and reserved characters)");
        }
    }

    /** The path {@code arg} names, with {@code options}' backend flags (none: null). */
    static RemotePath make(Rpath options, String arg) throws IOException {
        if (arg.isEmpty()) {
            // Not the working directory, as Path.of("") would make it: an empty argument is a mistake.
            throw new java.nio.file.InvalidPathException(arg, "empty path");
        }
        if (arg.regionMatches(true, 0, "zip:", 0, 4) || arg.regionMatches(true, 0, "tar:", 0, 4)) {
            // the archive's own URI gets this command's options too
            RemotePath path = dev.remotepath.archive.ArchiveFileSystem.path(arg, inner -> make(options, inner));
            // innermost first: a new archive inside a new archive is finished before the outer one
            for (var fs = path.fileSystem(); fs instanceof dev.remotepath.archive.NewArchiveFileSystem n;
                    fs = n.archive().fileSystem()) {
                synchronized (NEW_ARCHIVES) {
                    NEW_ARCHIVES.add(n);
                }
            }
            return path;
        }
        if (arg.regionMatches(true, 0, "sftp:", 0, 5) && options != null) {
            return RemotePaths.get(uri(arg), sftpOptions(options));
        }
        if (arg.regionMatches(true, 0, "s3:", 0, 3) && options != null) {
            return RemotePaths.get(uri(arg), s3Options(options));
        }
        if (arg.regionMatches(true, 0, "az:", 0, 3) && options != null) {
            return RemotePaths.get(uri(arg), azureOptions(options, arg));
        }
        if ((arg.regionMatches(true, 0, "webdav:", 0, 7) || arg.regionMatches(true, 0, "webdavs:", 0, 8))
                && options != null) {
            java.net.URI uri = uri(arg);
            return RemotePaths.get(WebDavCredentials.withoutUser(uri), webdavOptions(options, uri));
        }
        if ((arg.regionMatches(true, 0, "ftp:", 0, 4) || arg.regionMatches(true, 0, "ftps:", 0, 5)) && options != null) {
            java.net.URI uri = uri(arg);
            return RemotePaths.get(uri, ftpOptions(options, uri));
        }
        if ((arg.regionMatches(true, 0, "http:", 0, 5) || arg.regionMatches(true, 0, "https:", 0, 6)) && options != null) {
            return RemotePaths.get(uri(arg), httpOptions(options));
        }
        if (!RemotePaths.startsWithScheme(arg)) {
            return local(arg);
        }
        return RemotePaths.get(arg);
    }

    /** The bundled local backend's provider, made here rather than found by {@link RemotePaths}. */
    private static final LocalFileSystemProvider LOCAL = new LocalFileSystemProvider();

    /**
     * A local path, as {@link RemotePaths#get(String)} makes one (the same path, the same
     * errors), from the local backend this jar bundles. {@link RemotePaths} would first find the
     * {@code file} scheme's provider: reading the services file means opening the JDK's module
     * image and this jar's index, ~3.5 ms of a local {@code ls} in a fresh JVM, for the provider
     * a local command always gets.
     */
    private static RemotePath local(String arg) throws IOException {
        java.nio.file.Path nio;
        try {
            nio = java.nio.file.Path.of(arg);
        } catch (java.nio.file.InvalidPathException e) {
            if (arg.indexOf('\0') >= 0) {
                throw new java.nio.file.InvalidPathException(arg, "not a URI and not a local path: " + e.getReason());
            }
            // NIO encodes a name in the locale's charset (ASCII under LANG=C) and has no bytes for
            // an escape (RawArguments): such a path is resolved as the local backend names it,
            // against the working directory's own bytes (an absolute one needs none), as
            // RemotePaths.get resolves it.
            java.net.URI base = arg.startsWith("/") ? java.net.URI.create("file:///") : RemotePaths.workingDirectory().toUri();
            return LOCAL.getPath(base, dev.remotepath.FileSystemOptions.DEFAULTS).resolve(arg);
        }
        java.nio.file.Path absolute = nio.isAbsolute() ? nio : RemotePaths.workingDirectory().resolve(nio);
        return LOCAL.getPath(absolute.normalize().toUri(), dev.remotepath.FileSystemOptions.DEFAULTS);
    }

    /**
     * WebDAV options from the flags; the user from the URI ({@code webdav://alice@host/}) or
     * {@value WebDavCredentials#USER_ENV}, the password from {@value WebDavCredentials#PASSWORD_ENV}
     * or a prompt, a bearer token from {@value WebDavCredentials#TOKEN_ENV}; never a flag.
     */
    static dev.remotepath.webdav.WebDavOptions webdavOptions(Rpath r, java.net.URI uri) throws IOException {
        dev.remotepath.webdav.WebDavOptions.Builder b = dev.remotepath.webdav.WebDavOptions.builder()
                .flatListings(!r.webdavPerDirectoryListing);
        if (r.timeout != null) {
            b.requestTimeout(r.timeout).idleTimeout(r.timeout);
        }
        if (r.webdavListingTimeout != null) {
            b.listingTimeout(r.webdavListingTimeout);
        }
        if (r.webdavMaxListingBytes != null) {
            b.maxListingBytes(r.webdavMaxListingBytes);
        }
        WebDavCredentials.apply(b, uri, System.getenv());
        return b.build();
    }

    /**
     * FTP options from the flags; the password from {@value FtpCredentials#PASSWORD_ENV} or a
     * prompt when the URI names a user other than {@code anonymous}; never a flag.
     */
    static dev.remotepath.ftp.FtpOptions ftpOptions(Rpath r, java.net.URI uri) throws IOException {
        dev.remotepath.ftp.FtpOptions.Builder b = dev.remotepath.ftp.FtpOptions.builder();
        if (r.timeout != null) {
            b.readTimeout(r.timeout);
        }
        FtpCredentials.apply(b, uri, System.getenv());
        return b.build();
    }

    /** HTTP options from the flags. */
    static dev.remotepath.http.HttpOptions httpOptions(Rpath r) {
        dev.remotepath.http.HttpOptions.Builder b = dev.remotepath.http.HttpOptions.builder()
                .lenientIndexPages(r.httpLenientIndex)
                .crossOriginRedirects(r.httpCrossOriginRedirects);
        if (r.timeout != null) {
            b.requestTimeout(r.timeout).idleTimeout(r.timeout);
        }
        if (r.httpListingTimeout != null) {
            b.listingTimeout(r.httpListingTimeout);
        }
        if (r.httpMaxIndexBytes != null) {
            b.maxIndexPageBytes(r.httpMaxIndexBytes);
        }
        if (r.httpMinRate != null) {
            b.minimumBodyRate(r.httpMinRate);
        }
        return b.build();
    }

    /** Set by bin/rpath to the compilers it chose for this command: {@code c1} or {@code c2}. */
    static final String JIT_PROPERTY = "rpath.jit";
    static final String LAUNCHED_ON_C1 = "c1";

    /** SFTP options from the flags; the password from the environment or a prompt, never a flag. */
    static dev.remotepath.sftp.SftpOptions sftpOptions(Rpath r) {
        dev.remotepath.sftp.SftpOptions.Builder b = dev.remotepath.sftp.SftpOptions.builder()
                .client(dev.remotepath.sftp.SftpOptions.Client.parse(r.sftpClient))
                .identityFiles(r.identities)
                .hostKeyPolicy(r.acceptNewHostKeys ? dev.remotepath.sftp.SftpOptions.HostKeyPolicy.ACCEPT_NEW
                        : dev.remotepath.sftp.SftpOptions.HostKeyPolicy.STRICT);
        if (r.knownHosts != null) {
            b.knownHosts(r.knownHosts);
        }
        if (r.timeout != null) {
            b.readTimeout(r.timeout);
        }
        if (r.proxyJump != null) {
            b.proxyJump(r.proxyJump);
        }
        if (LAUNCHED_ON_C1.equals(System.getProperty(JIT_PROPERTY))) {
            // Without C2, the JDK's AES-GCM runs as plain compiled Java (no AES-NI or GHASH
            // intrinsics) and costs more CPU than either client's ChaCha20-Poly1305: a first sync
            // of T1 into OpenSSH took ~0.9 s less CPU with it, both clients (docs/benchmarks.md).
            b.preferCiphers(java.util.List.of("chacha20-poly1305@openssh.com"));
        }
        // Asked only when a method needs them, after the agent's keys and the key files (the
        // libraries call these lazily): a working key never prompts for anything.
        String env = System.getenv(SFTP_PASSWORD_ENV);
        if (env != null) {
            b.password(env::toCharArray);
        } else if (System.console() != null) {
            b.password(() -> System.console().readPassword("SFTP password: "));
        }
        String passphrase = System.getenv(SSH_PASSPHRASE_ENV);
        if (passphrase != null) {
            b.keyPassphrase(key -> passphrase.toCharArray());
        } else if (System.console() != null) {
            b.keyPassphrase(key -> System.console().readPassword("Enter passphrase for key '%s': ", key));
        }
        return b.build();
    }

    /**
     * S3 options from the flags; credentials from the AWS SDK's default chain (AWS_ACCESS_KEY_ID
     * and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws, instance roles), never a flag.
     */
    static dev.remotepath.s3.S3Options s3Options(Rpath r) {
        dev.remotepath.s3.S3Options.Builder b = dev.remotepath.s3.S3Options.builder().pathStyle(r.s3PathStyle)
                .flatListings(!r.s3PerDirectoryListing);
        if (r.s3Endpoint != null) {
            b.endpoint(r.s3Endpoint);
        }
        if (r.s3Region != null) {
            b.region(r.s3Region);
        }
        if (r.timeout != null) {
            b.requestTimeout(r.timeout);
        }
        if (r.s3PartSize != null) {
            b.partSize(r.s3PartSize);
        }
        return b.build();
    }

    /** Where Azure's variables are read: the process's environment (the AOT training's own, in the build). */
    static java.util.Map<String, String> azureEnvironment = System.getenv();

    /**
     * Azure options from the environment the Azure CLI reads (AZURE_STORAGE_CONNECTION_STRING,
     * AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN, else the SDK's
     * credential chain) and the flags; never a secret from a flag.
     */
    static dev.remotepath.azure.AzureOptions azureOptions(Rpath r, String arg) throws IOException {
        dev.remotepath.azure.AzureOptions.Builder b;
        try {
            b = dev.remotepath.azure.AzureOptions.fromEnvironment(azureEnvironment);
        } catch (IllegalArgumentException e) {
            throw new java.nio.file.FileSystemException(arg, null, e.getMessage());
        }
        if (r.azEndpoint != null) {
            b.endpoint(r.azEndpoint);
        }
        b.flatListings(!r.azPerDirectoryListing);
        if (r.timeout != null) {
            b.requestTimeout(r.timeout);
        }
        if (r.azBlockSize != null) {
            b.blockSize(r.azBlockSize);
        }
        return b.build();
    }

    /** Unix cp/mv rule: a target that is an existing directory receives the source under its own name. */
    static RemotePath into(RemotePath source, RemotePath target) throws IOException {
        if (!source.name().isEmpty() && target.isDirectory()) {
            return target.child(source.name());
        }
        return target;
    }
}
