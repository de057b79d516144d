package dev.remotepath;

import dev.remotepath.spi.RemoteFileSystemProvider;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Iterator;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where paths come from: a URI is routed by its scheme to the backend found on the class
 * path with {@link ServiceLoader}. Adding a backend jar is all it takes to use its scheme.
 */
public final class RemotePaths {

    /** The artifact that serves each known scheme, for the "add this jar" error. */
    private static final Map<String, String> ARTIFACTS = Map.ofEntries(
            Map.entry("file", "remotepath-local"), Map.entry("mem", "remotepath-mem"),
            Map.entry("http", "remotepath-http"), Map.entry("https", "remotepath-http"),
            Map.entry("sftp", "remotepath-sftp"), Map.entry("s3", "remotepath-s3"), Map.entry("az", "remotepath-azure"),
            Map.entry("webdav", "remotepath-webdav"), Map.entry("webdavs", "remotepath-webdav"),
            Map.entry("ftp", "remotepath-ftp"), Map.entry("ftps", "remotepath-ftp"),
            Map.entry("zip", "remotepath-archive"), Map.entry("tar", "remotepath-archive"));


    private RemotePaths() {
    }

    /**
     * The path a URI string names ({@code sftp://host/dir}, {@code mem://vol/a}). A string
     * without a scheme is a local path, relative to the working directory, as on a command line.
     *
     * @throws InvalidPathException if the URI is malformed
     * @throws ProviderNotFoundException if no backend on the class path serves the scheme
     */
    public static RemotePath get(String uri) throws IOException {
        if (!startsWithScheme(uri)) {
            Path local;
            try {
                local = Path.of(uri);
            } catch (InvalidPathException e) {
                if (uri.indexOf('\0') >= 0) {
                    throw new InvalidPathException(uri, "not a URI and not a local path: " + e.getReason());
                }
                // NIO encodes names in the locale's charset (ASCII under LANG=C): a name it cannot
                // encode is resolved as the local backend names it, by its UTF-8 bytes.
                URI base = uri.startsWith("/") ? URI.create("file:///") : workingDirectory().toUri();
                return provider("file").getPath(base, FileSystemOptions.DEFAULTS).resolve(uri);
            }
            return of(local);
        }
        try {
            return get(new URI(uri));
        } catch (URISyntaxException e) {
            throw new InvalidPathException(uri, "malformed URI: " + e.getReason()
                    + " (percent-encode spaces and reserved characters)");
        }
    }

    /**
     * Whether {@link #get(String)} reads {@code s} as a URI rather than a local path: it starts
     * with a scheme of two characters or more and its colon (a letter, then letters, digits,
     * {@code +}, {@code .} or {@code -}); {@code C:\x} is a path. By hand rather than by a
     * pattern: every command line asks, and the regex engine's classes and compilation were the
     * only ones a local command needed it for.
     */
    public static boolean startsWithScheme(String s) {
        int n = s.length();
        if (n < 3 || !isAsciiLetter(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            char c = s.charAt(i);
            if (c == ':') {
                return i >= 2;
            }
            if (!isAsciiLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '.' && c != '-') {
                return false;
            }
        }
        return false;
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    /** The path a URI names, with the backend's default options. */
    public static RemotePath get(URI uri) throws IOException {
        return get(uri, FileSystemOptions.DEFAULTS);
    }

    /** The path a URI names, with a backend's typed options. */
    public static RemotePath get(URI uri, FileSystemOptions options) throws IOException {
        if (!uri.isAbsolute()) {
            throw new InvalidPathException(uri.toString(), "needs an absolute, hierarchical URI such as mem://volume/dir");
        }
        if (uri.isOpaque()) { // only an archive's zip:<uri>!/path may be; the provider parses it
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            RemoteFileSystemProvider wrapping = find(scheme);
            if (wrapping == null && ARTIFACTS.containsKey(scheme)) {
                provider(scheme); // a known scheme whose jar is missing: say which to add
            }
            if (wrapping == null || !wrapping.wrapsUris()) {
                throw new InvalidPathException(uri.toString(), "needs an absolute, hierarchical URI such as mem://volume/dir");
            }
        }
        String raw = uri.isOpaque() ? uri.getRawSchemeSpecificPart() : uri.getRawPath();
        if (raw != null && raw.contains("%00")) {
            throw new InvalidPathException(uri.toString(), "path contains NUL");
        }
        return provider(uri.getScheme()).getPath(uri, options);
    }

    /** The {@code file:} path of a local NIO path (needs {@code remotepath-local}). */
    public static RemotePath of(Path path) throws IOException {
        if (path.getFileSystem() != FileSystems.getDefault()) {
            throw new IllegalArgumentException(path + " is not on the default file system");
        }
        Path absolute = path.isAbsolute() ? path : workingDirectory().resolve(path);
        return provider("file").getPath(absolute.normalize().toUri(), FileSystemOptions.DEFAULTS);
    }

    /**
     * The process's working directory, by its bytes. The JVM keeps it as {@code user.dir}, a
     * string decoded in the locale's charset, so under {@code LANG=C} a non-ASCII directory (and
     * under any locale one whose name is not UTF-8) reads back as another path ({@code caf??}),
     * where relative paths would have been read and written. The kernel's
     * {@code /proc/self/cwd} still has the bytes; without it such a directory is refused, not
     * guessed.
     *
     * @throws java.nio.file.FileSystemException when the name was lost and cannot be read again
     */
    public static Path workingDirectory() throws IOException {
        String dir = System.getProperty("user.dir", "");
        if (dir.indexOf('\uFFFD') < 0) {
            return Path.of("").toAbsolutePath();
        }
        try {
            return java.nio.file.Files.readSymbolicLink(Path.of("/proc/self/cwd"));
        } catch (IOException | UnsupportedOperationException notLinux) {
            throw new java.nio.file.FileSystemException(dir, null, "the working directory's name cannot be decoded in "
                    + "this locale's charset (" + System.getProperty("sun.jnu.encoding", "?") + "): give an absolute path");
        }
    }

    /** The schemes served by the backends on the class path. */
    public static Set<String> schemes() {
        synchronized (RemotePaths.class) {
            Iterator<ServiceLoader.Provider<RemoteFileSystemProvider>> it = unread();
            while (it.hasNext()) {
                addNext(it);
            }
            return new TreeSet<>(FOUND.keySet());
        }
    }

    /** The provider for a scheme. */
    public static RemoteFileSystemProvider provider(String scheme) {
        String key = scheme.toLowerCase(Locale.ROOT);
        RemoteFileSystemProvider p = find(key);
        if (p == null) {
            String artifact = ARTIFACTS.getOrDefault(key, "a backend for '" + key + "'");
            throw new ProviderNotFoundException("no RemotePath backend for scheme '" + key + "': add "
                    + artifact + " to the class path (available: " + schemes() + ")");
        }
        return p;
    }

    /** Providers found so far, by scheme; the first on the class path wins a scheme. */
    private static final Map<String, RemoteFileSystemProvider> FOUND = new ConcurrentHashMap<>();
    /** The provider classes instantiated so far (guarded by the class). */
    private static final Set<Class<?>> LOADED = new HashSet<>();
    /** Whether the first services file has been read (guarded by the class). */
    private static boolean firstFileRead;
    /** The providers not read yet, in class path order (guarded by the class). */
    private static Iterator<ServiceLoader.Provider<RemoteFileSystemProvider>> unread;

    /**
     * The provider of a scheme, reading the class path's providers only as far as needed. The
     * first services file on the class path is read on its own first: {@link ServiceLoader}'s
     * iterator looks ahead for the next file as soon as it reads one, opening every jar on the
     * class path (a 20,000-entry jar costs ~11 ms), and a program whose first jar serves its
     * schemes (the CLI's lists the local and mem backends) never needs the others.
     */
    private static RemoteFileSystemProvider find(String key) {
        RemoteFileSystemProvider p = FOUND.get(key);
        if (p != null) {
            return p;
        }
        synchronized (RemotePaths.class) {
            if (!firstFileRead) {
                firstFileRead = true;
                readFirstServicesFile();
                if ((p = FOUND.get(key)) != null) {
                    return p;
                }
            }
            Iterator<ServiceLoader.Provider<RemoteFileSystemProvider>> it = unread();
            while ((p = FOUND.get(key)) == null && it.hasNext()) {
                addNext(it);
            }
            return p;
        }
    }

    /**
     * Instantiates the providers the first {@code META-INF/services} file names, as
     * {@link ServiceLoader} would; anything unexpected is left to the full {@link ServiceLoader}
     * pass, which reports it properly.
     */
    private static void readFirstServicesFile() {
        ClassLoader loader = RemotePaths.class.getClassLoader();
        URL file = loader == null ? null
                : loader.getResource("META-INF/services/" + RemoteFileSystemProvider.class.getName());
        if (file == null) {
            return;
        }
        try (InputStream in = file.openStream()) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                int hash = line.indexOf('#');
                String name = (hash < 0 ? line : line.substring(0, hash)).strip();
                if (!name.isEmpty()) {
                    Class<? extends RemoteFileSystemProvider> type =
                            Class.forName(name, true, loader).asSubclass(RemoteFileSystemProvider.class);
                    if (!LOADED.contains(type)) {
                        add(type.getConstructor().newInstance());
                    }
                }
            }
        } catch (IOException | ReflectiveOperationException | RuntimeException | LinkageError e) {
            // The ServiceLoader pass reads this file again and says what is wrong with it.
        }
    }

    /** Makes the next provider {@link ServiceLoader} finds, unless the first file's pass made it already. */
    private static void addNext(Iterator<ServiceLoader.Provider<RemoteFileSystemProvider>> it) {
        ServiceLoader.Provider<RemoteFileSystemProvider> next = it.next();
        if (!LOADED.contains(next.type())) {
            add(next.get());
        }
    }

    private static Iterator<ServiceLoader.Provider<RemoteFileSystemProvider>> unread() {
        if (unread == null) {
            unread = ServiceLoader.load(RemoteFileSystemProvider.class, RemotePaths.class.getClassLoader()).stream()
                    .iterator();
        }
        return unread;
    }

    private static void add(RemoteFileSystemProvider p) {
        LOADED.add(p.getClass());
        for (String s : p.schemes()) {
            FOUND.putIfAbsent(s.toLowerCase(Locale.ROOT), p);
        }
    }
}
