package dev.remotepath.spi;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * The open file systems of a provider, one per key (origin, host and user, bucket and
 * options...), written once for every backend:
 * <ul>
 *   <li>a file system is made at most once per key at a time, outside any map operation (a
 *       Jetty client or an SSH session starts in the factory, never inside
 *       {@code ConcurrentHashMap.compute}), and only for its own key: other keys are not held up;</li>
 *   <li>a closed file system leaves the cache by itself, and only itself: closing an old file
 *       system never evicts the open one that replaced it under the same key.</li>
 * </ul>
 *
 * @param <K> the key (a record: equality by value)
 * @param <F> the file system type
 */
public final class FileSystemCache<K, F extends RemoteFileSystem> {

    /** Makes the file system for a key; it must run {@code onClose} once when it is closed. */
    @FunctionalInterface
    public interface Factory<K, F> {
        F open(K key, Runnable onClose) throws IOException;
    }

    private final Map<K, F> open = new ConcurrentHashMap<>();
    private final Map<K, Object> locks = new ConcurrentHashMap<>();

    /** A cache whose file systems are left open until their users close them. */
    public FileSystemCache() {
    }

    /**
     * A cache whose file systems still open when the JVM exits are closed then, in a shutdown
     * hook named {@code hookName}: servers see a clean goodbye rather than a dropped connection,
     * no upload is left half-sent, and no client thread left waiting in the kernel (a selector's
     * epoll) holds the exit up: the JVM waits up to 0.3 s for such threads, which was 0.3 s of
     * every {@code rpath} command on a webdav:// or http:// URI.
     */
    public static <K, F extends RemoteFileSystem> FileSystemCache<K, F> closedAtExit(String hookName) {
        FileSystemCache<K, F> cache = new FileSystemCache<>();
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name(hookName).unstarted(() -> {
            for (F fs : cache.all()) {
                try {
                    fs.close();
                } catch (IOException | RuntimeException ignored) {
                    // exiting anyway
                }
            }
        }));
        return cache;
    }

    /** The open file system for {@code key}, made by {@code factory} when there is none. */
    public F get(K key, Factory<K, F> factory) throws IOException {
        F fs = open.get(key);
        if (fs != null && fs.isOpen()) {
            return fs;
        }
        synchronized (locks.computeIfAbsent(key, k -> new Object())) {
            fs = open.get(key);
            if (fs != null && fs.isOpen()) {
                return fs;
            }
            AtomicReference<F> self = new AtomicReference<>();
            F made = factory.open(key, () -> {
                F f = self.get();
                if (f != null) {
                    open.remove(key, f); // this one only: a replacement under the same key stays
                }
            });
            self.set(made);
            open.put(key, made);
            return made;
        }
    }

    /** An open file system whose key satisfies {@code which}, if any. */
    public Optional<F> find(Predicate<K> which) {
        for (Map.Entry<K, F> e : open.entrySet()) {
            if (which.test(e.getKey()) && e.getValue().isOpen()) {
                return Optional.of(e.getValue());
            }
        }
        return Optional.empty();
    }

    /** A snapshot of the file systems in the cache (for closing them all at JVM exit). */
    public List<F> all() {
        return List.copyOf(open.values());
    }
}
