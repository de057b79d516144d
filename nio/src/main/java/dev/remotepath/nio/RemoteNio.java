package dev.remotepath.nio;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.nio.file.spi.FileSystemProvider;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The way in that never meets another library's provider. The JDK installs one provider per
 * scheme, the first it finds on the class path, and drops the others: where another library
 * claims one of ours (Apache MINA SSHD's {@code sshd-sftp} installs one for {@code sftp}), the
 * class path's order decides what {@code Path.of(uri)} gets. These methods always use RemotePath's
 * provider: the installed one when it won, else one of our own made for the scheme.
 */
public final class RemoteNio {

    private RemoteNio() {
    }

    private static final Map<String, Supplier<RemoteNioProvider>> OURS = Map.of(
            "sftp", RemoteNioProvider.Sftp::new, "s3", RemoteNioProvider.S3::new, "az", RemoteNioProvider.Az::new, "http", RemoteNioProvider.Http::new,
            "https", RemoteNioProvider.Https::new, "mem", RemoteNioProvider.Mem::new,
            "zip", RemoteNioProvider.Zip::new, "tar", RemoteNioProvider.Tar::new);

    /** Providers made here because another library's was installed for the scheme: one per scheme. */
    private static final Map<String, RemoteNioProvider> STANDALONE = new ConcurrentHashMap<>();

    /**
     * What {@link RemotePath#toNioPath()} asks for a scheme with no NIO path behind it: the path
     * on RemotePath's provider, where there is one for the scheme. Found through ServiceLoader.
     */
    public static final class PathFactory implements dev.remotepath.spi.NioPathFactory {
        @Override
        public java.util.Optional<Path> pathOf(RemotePath path) {
            try {
                return java.util.Optional.of(provider(path.toUri().getScheme()).pathOf(path));
            } catch (ProviderNotFoundException none) {
                return java.util.Optional.empty(); // file: (the JDK's own), or a scheme with no provider of ours
            }
        }
    }

    /** RemotePath's provider for {@code scheme}, whatever else is installed for it. */
    public static RemoteNioProvider provider(String scheme) {
        return provider(scheme, FileSystemProvider.installedProviders());
    }

    static RemoteNioProvider provider(String scheme, List<FileSystemProvider> installed) {
        String s = scheme.toLowerCase(Locale.ROOT);
        for (FileSystemProvider p : installed) {
            if (p instanceof RemoteNioProvider r && r.getScheme().equals(s)) {
                return r;
            }
        }
        Supplier<RemoteNioProvider> make = OURS.get(s);
        if (make == null) {
            throw new ProviderNotFoundException("RemotePath has no java.nio.file provider for '" + scheme + "'");
        }
        return STANDALONE.computeIfAbsent(s, k -> make.get());
    }

    /** The path {@code uri} names, on RemotePath's provider (its file system opened with defaults on first use). */
    public static Path path(URI uri) {
        return provider(uri.getScheme()).getPath(uri);
    }

    /** {@code FileSystems.newFileSystem(uri, env)}, on RemotePath's provider. */
    public static FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        return provider(uri.getScheme()).newFileSystem(uri, env);
    }

    /**
     * {@code path} as a {@code java.nio.file.Path}: on RemotePath's provider, over the same
     * backend file system (its options and connection); a {@code file:} path is the JDK's own
     * ({@link RemotePath#toNioPath()}), which the local backend already is.
     */
    public static Path of(RemotePath path) {
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException("a relative RemotePath names no file: " + path);
        }
        String scheme = path.toUri().getScheme();
        if (scheme.equals("file")) {
            return path.toNioPath().orElseThrow(() -> new IllegalArgumentException(path + " has no local path"));
        }
        return provider(scheme).pathOf(path);
    }
}
