package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import dev.remotepath.syncer.Comparison;
import dev.remotepath.syncer.SymlinkPolicy;
import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * {@code rpath sync}'s command line ({@code SRC DST}, sync's options and rpath's global backend
 * flags), parsed exactly as {@code rpath sync} parses it, for other programs that take the same
 * arguments: {@code SparkSyncMain}. rpath takes no secret in a flag (passwords and keys come from
 * the environment, credential chains or files), so the arguments may travel to other machines,
 * where {@link #open} makes paths with the same flags and that machine's own credentials.
 * Immutable; serialisable as its argument list.
 */
public final class SyncCommandLine implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    private final List<String> args;
    private transient Rpath rpath;
    private transient SyncCommand sync;

    private SyncCommandLine(List<String> args) {
        this.args = List.copyOf(args);
    }

    /**
     * Parses {@code SRC DST [options]} as {@code rpath sync} would (global flags may come anywhere).
     *
     * @throws IllegalArgumentException for a usage error, with rpath's message and usage line
     */
    public static SyncCommandLine parse(List<String> args) {
        SyncCommandLine line = new SyncCommandLine(args);
        line.parsed();
        return line;
    }

    private synchronized SyncCommand parsed() {
        if (sync == null) {
            Rpath r = new Rpath(new ByteArrayOutputStream(), new ByteArrayOutputStream());
            List<String> all = new ArrayList<>();
            all.add("sync");
            all.addAll(args);
            try {
                Syntax.Parsed p = Syntax.parse(r.globalSyntax(), name -> name.equals("sync") ? new SyncCommand(r) : null,
                        all.toArray(String[]::new));
                p.validate();
                if (r.help || r.version) {
                    throw new IllegalArgumentException("--help and --version are rpath's own; not a sync");
                }
                sync = (SyncCommand) p.command().orElseThrow();
            } catch (UsageException e) {
                throw new IllegalArgumentException(e.getMessage() + System.lineSeparator() + e.syntax().usageLine(), e);
            }
            rpath = r;
        }
        return sync;
    }

    /** The arguments as given. */
    public List<String> arguments() {
        return args;
    }

    /** The path a URI (or local path) names, made with this command line's backend flags. */
    public RemotePath open(String uri) throws IOException {
        parsed();
        return Paths.make(rpath, Paths.uriOf(uri));
    }

    public String source() {
        return parsed().source;
    }

    public String target() {
        return parsed().target;
    }

    /** {@code --json}. */
    public boolean json() {
        parsed();
        return rpath.json;
    }

    /** {@code --dry-run}. */
    public boolean dryRun() {
        return parsed().dryRun;
    }

    /** {@code --delete}. */
    public boolean delete() {
        return parsed().delete;
    }

    /** {@code --max-delete N}. */
    public OptionalLong maxDelete() {
        Long n = parsed().maxDelete;
        return n == null ? OptionalLong.empty() : OptionalLong.of(n);
    }

    /** {@code --checksum}, {@code --size-only}, else quick-check. */
    public Comparison comparison() {
        SyncCommand s = parsed();
        return s.checksum ? Comparison.CHECKSUM : s.sizeOnly ? Comparison.SIZE_ONLY : Comparison.QUICK_CHECK;
    }

    /** {@code --use-server-modtime}. */
    public boolean useServerModtime() {
        return parsed().useServerModtime;
    }

    /** {@code --include GLOB}, in order. */
    public List<String> includes() {
        return List.copyOf(parsed().includes);
    }

    /** {@code --exclude GLOB}, in order. */
    public List<String> excludes() {
        return List.copyOf(parsed().excludes);
    }

    /** {@code --transfers N} (default 4). */
    public int transfers() {
        return parsed().transfers;
    }

    /** {@code --checkers N} (default 8). */
    public int checkers() {
        return parsed().checkers;
    }

    /** {@code --retries N}. */
    public OptionalInt retries() {
        Integer n = parsed().retries;
        return n == null ? OptionalInt.empty() : OptionalInt.of(n);
    }

    /** {@code --bwlimit RATE}, in bytes per second. */
    public OptionalLong bandwidthLimit() {
        Long n = parsed().bandwidthLimit;
        return n == null ? OptionalLong.empty() : OptionalLong.of(n);
    }

    /** {@code --links} (preserve), {@code --copy-links} (follow), else skipped. */
    public SymlinkPolicy symlinks() {
        SyncCommand s = parsed();
        return s.preserveLinks ? SymlinkPolicy.PRESERVE : s.followLinks ? SymlinkPolicy.FOLLOW : SymlinkPolicy.SKIP;
    }

    /** {@code --allow-empty-source}. */
    public boolean allowEmptySource() {
        return parsed().allowEmptySource;
    }

    /** {@code rpath sync --json}'s line for a report: the same fields, names and hints. */
    public static String reportJson(SyncReport report) {
        return SyncCommand.reportJson(Objects.requireNonNull(report, "report"));
    }

    /** {@code rpath sync --dry-run --json}'s line for a plan. */
    public static String planJson(List<SyncAction> plan) {
        return SyncCommand.planJson(plan);
    }

    /** {@code rpath sync}'s text summary line of a report. */
    public static String reportText(SyncReport r) {
        return SyncCommand.summary(r);
    }

    /** {@code rpath sync}'s exit code for a report: 0, 1 (some operations failed) or 3 (refused for safety). */
    public static int exitCode(SyncReport report) {
        return SyncCommand.exitCode(report);
    }

    /** The exit code of a usage error. */
    public static final int USAGE_ERROR = Failures.USAGE;

    /** The exit code of a run refused for safety. */
    public static final int REFUSED = Failures.REFUSED;

    /** The exit code of a run some of whose operations failed. */
    public static final int SOME_FAILED = Failures.SOME_FAILED;

    @Override
    public boolean equals(Object o) {
        return o instanceof SyncCommandLine other && args.equals(other.args);
    }

    @Override
    public int hashCode() {
        return args.hashCode();
    }

    @Serial
    private Object readResolve() {
        return new SyncCommandLine(args);
    }

    @Override
    public String toString() {
        return "rpath sync " + String.join(" ", args);
    }
}
