package dev.remotepath.syncer.scripting;

import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.syncer.Comparison;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.syncer.SymlinkPolicy;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What scripts see as {@code paths}: a small, dynamic-language-friendly entry point to
 * RemotePath and PathSyncer, taking strings and maps where Java would take types. The
 * {@code rpath script} command binds it; a Java admin tool can put the same object into its
 * own {@link javax.script.ScriptEngine}'s bindings:
 *
 * <pre>{@code
 * engine.put("paths", new ScriptingFacade());
 * engine.eval("paths.sync('file:///srv/www', 'mem://backup/www', {delete: true})");
 * }</pre>
 *
 * <p>Every URI string a script passes is turned into a path by one {@link Resolver}: by default
 * {@link RemotePaths#get(String)}; {@code rpath script} gives its own, which applies the command
 * line's backend flags ({@code --s3-endpoint}, {@code --identity}, {@code --sftp-client}...), and
 * an admin tool can give one with its options.
 */
public final class ScriptingFacade {

    /** Turns a URI (or a local path) a script names into a path, with whatever options apply. */
    @FunctionalInterface
    public interface Resolver {
        RemotePath resolve(String uri) throws IOException;
    }

    private final Resolver resolver;

    /** Paths from {@link RemotePaths#get(String)}, with each backend's default options. */
    public ScriptingFacade() {
        this(RemotePaths::get);
    }

    /** Paths from {@code resolver}, for every URI string a script passes. */
    public ScriptingFacade(Resolver resolver) {
        this.resolver = java.util.Objects.requireNonNull(resolver, "resolver");
    }

    private static final Set<String> SYNC_KEYS = Set.of("delete", "maxDelete", "checksum", "sizeOnly",
            "include", "exclude", "transfers", "checkers", "links", "copyLinks", "allowEmptySource", "retries", "bwlimit",
            "useServerModtime");

    /** The path a URI (or a local path without scheme) names. */
    public RemotePath get(String uri) throws IOException {
        return resolver.resolve(uri);
    }

    /** Syncs {@code source} into {@code target} with no options: quick-check, no deletion. */
    public SyncReport sync(Object source, Object target) throws IOException {
        return sync(source, target, Map.of());
    }

    /**
     * Syncs {@code source} into {@code target} (each a {@link RemotePath} or a URI string).
     * Options, all optional: {@code delete} (boolean), {@code maxDelete} (number),
     * {@code checksum} / {@code sizeOnly} (boolean), {@code include} / {@code exclude} (a glob or
     * a list of globs), {@code transfers} / {@code checkers} (number), {@code links} / {@code copyLinks} (boolean),
     * {@code allowEmptySource} (boolean).
     *
     * @throws IllegalArgumentException naming an unknown option, so a typo is not silently ignored
     */
    public SyncReport sync(Object source, Object target, Map<String, ?> options) throws IOException {
        return builder(source, target, options).build().run();
    }

    /** What {@link #sync(Object, Object, Map)} would do, without doing it. */
    public List<SyncAction> plan(Object source, Object target, Map<String, ?> options) throws IOException {
        return builder(source, target, options).build().plan();
    }

    private PathSyncer.Builder builder(Object source, Object target, Map<String, ?> options) throws IOException {
        for (String key : options.keySet()) {
            if (!SYNC_KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown sync option '" + key + "'; known: " + SYNC_KEYS);
            }
        }
        PathSyncer.Builder b = PathSyncer.builder(path(source), path(target));
        if (flag(options, "delete")) {
            b.deleteExtraneous(true);
        }
        if (options.get("maxDelete") instanceof Number n) {
            b.maxDelete(n.longValue());
        }
        if (flag(options, "checksum")) {
            b.comparison(Comparison.CHECKSUM);
        }
        if (flag(options, "sizeOnly")) {
            b.comparison(Comparison.SIZE_ONLY);
        }
        b.include(globs(options.get("include")));
        b.exclude(globs(options.get("exclude")));
        if (options.get("transfers") instanceof Number n) {
            b.transfers(n.intValue());
        }
        if (options.get("checkers") instanceof Number n) {
            b.checkers(n.intValue());
        }
        if (flag(options, "links")) {
            b.symlinks(SymlinkPolicy.PRESERVE);
        }
        if (flag(options, "copyLinks")) {
            b.symlinks(SymlinkPolicy.FOLLOW);
        }
        if (flag(options, "allowEmptySource")) {
            b.allowEmptySource(true);
        }
        if (options.get("retries") instanceof Number n) {
            b.retries(n.intValue());
        }
        if (options.get("bwlimit") instanceof Number n) {
            b.bandwidthLimit(n.longValue()); // bytes per second
        }
        if (flag(options, "useServerModtime")) {
            b.useServerModtime(true);
        }
        return b;
    }

    /** The checksum of a file, as {@code algorithm:hex} ({@code sha256} when not named). */
    public String checksum(Object file, String algorithm) throws IOException {
        return path(file).checksum(ChecksumAlgorithm.parse(algorithm == null ? "sha256" : algorithm)).toString();
    }

    private RemotePath path(Object o) throws IOException {
        if (o instanceof RemotePath p) {
            return p;
        }
        if (o instanceof CharSequence s) {
            return resolver.resolve(s.toString());
        }
        throw new IllegalArgumentException("expected a RemotePath or a URI string, got " + (o == null ? "null" : o.getClass().getName()));
    }

    private static boolean flag(Map<String, ?> options, String key) {
        Object v = options.get(key);
        return v instanceof Boolean b ? b : v != null && Boolean.parseBoolean(v.toString().toLowerCase(Locale.ROOT));
    }

    private static String[] globs(Object v) {
        if (v == null) {
            return new String[0];
        }
        if (v instanceof Collection<?> c) {
            return c.stream().map(Object::toString).toArray(String[]::new);
        }
        if (v instanceof Map<?, ?> m) { // JavaScript arrays reach Java as maps of index to value
            return m.values().stream().map(Object::toString).toArray(String[]::new);
        }
        return new String[] {v.toString()};
    }
}
