package dev.remotepath.cli;

import dev.remotepath.syncer.Comparison;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SymlinkPolicy;
import dev.remotepath.syncer.SyncAction;
import dev.remotepath.syncer.SyncError;
import dev.remotepath.syncer.SyncReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** {@code rpath sync}. */
final class SyncCommand implements Command {

    final Rpath rpath;
    String source;
    String target;
    boolean dryRun;
    boolean delete;
    Long maxDelete;
    boolean checksum;
    boolean sizeOnly;
    boolean useServerModtime;
    Integer retries;
    Long bandwidthLimit;
    List<String> includes = new ArrayList<>();
    List<String> excludes = new ArrayList<>();
    int transfers = 4;
    int checkers = 8;
    boolean preserveLinks;
    boolean followLinks;
    boolean allowEmptySource;

    SyncCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath sync",
                "Make DST a mirror of SRC (one way): copy what is new or changed.",
                "With --delete, also remove what SRC lacks, once every copy succeeded.")
                .flag(() -> dryRun = true, "Show what would be done; change nothing.", "--dry-run")
                .flag(() -> delete = true, "Delete files in DST that SRC lacks (after all copies succeeded).", "--delete")
                .option("N", v -> maxDelete = Syntax.toLong(v), "Delete nothing (exit 3) if more than N deletions are needed.",
                        "--max-delete")
                .flag(() -> checksum = true, "Compare checksums, not size and modification time.", "--checksum")
                .flag(() -> sizeOnly = true, "Compare sizes only.", "--size-only")
                .exclusive("--checksum", "--size-only")
                .flag(() -> useServerModtime = true, "Into S3: a same-size object stored after the source's mtime is "
                        + "unchanged, with no request per file (misses an mtime set back to before the upload).",
                        "--use-server-modtime")
                .repeatable("GLOB", includes::add, "Sync only matching files (repeatable).", "--include")
                .repeatable("GLOB", excludes::add, "Leave matching entries alone on both sides (repeatable).", "--exclude")
                .option("N", v -> transfers = Syntax.toInt(v), "Files transferred at once (default 4).", "--transfers")
                .option("N", v -> checkers = Syntax.toInt(v), "Directories listed at once (default 8).", "--checkers")
                .option("N", v -> retries = Syntax.toInt(v), "Try a failed copy or listing N more times before "
                        + "reporting it (default 3; only failures that may pass, such as a dropped connection).", "--retries")
                .option("RATE", v -> bandwidthLimit = Syntax.toByteRate(v), "At most RATE bytes per second across all "
                        + "transfers (512K, 10M, 1.5G).", "--bwlimit")
                .flag(() -> preserveLinks = true, "Recreate symbolic links as links.", "--links")
                .flag(() -> followLinks = true, "Copy what symbolic links point to.", "--copy-links")
                .exclusive("--links", "--copy-links")
                .flag(() -> allowEmptySource = true, "With --delete, let an empty source (or one whose files the "
                        + "filters all exclude) empty DST; refused otherwise.", "--allow-empty-source")
                .positional("SRC", v -> source = v)
                .positional("DST", v -> target = v);
    }

    @Override
    public Integer call() throws Exception {
        try (Progress.SyncListenerHandle progress = Progress.open(rpath.json, dryRun, rpath.err)) {
            PathSyncer.Builder b = PathSyncer.builder(Paths.of(source), Paths.of(target))
                    .deleteExtraneous(delete)
                    .allowEmptySource(allowEmptySource)
                    .transfers(transfers)
                    .checkers(checkers)
                    .include(includes.toArray(String[]::new))
                    .exclude(excludes.toArray(String[]::new))
                    .useServerModtime(useServerModtime)
                    .listener(progress.listener());
            if (maxDelete != null) {
                b.maxDelete(maxDelete);
            }
            if (retries != null) {
                b.retries(retries);
            }
            if (bandwidthLimit != null) {
                b.bandwidthLimit(bandwidthLimit);
            }
            if (checksum || sizeOnly) {
                b.comparison(checksum ? Comparison.CHECKSUM : Comparison.SIZE_ONLY);
            }
            if (preserveLinks || followLinks) {
                b.symlinks(preserveLinks ? SymlinkPolicy.PRESERVE : SymlinkPolicy.FOLLOW);
            }
            PathSyncer syncer = b.build();
            if (dryRun) {
                return printPlan(syncer.plan());
            }
            SyncReport report = syncer.run();
            progress.close();
            return printReport(report);
        }
    }

    private int printPlan(List<SyncAction> plan) {
        if (rpath.json) {
            rpath.out.println(planJson(plan));
        } else {
            for (SyncAction a : plan) {
                rpath.out.printf("%-16s %s  (%s)%n", a.kind().name().toLowerCase(Locale.ROOT),
                        Text.escape(a.relativePath().isEmpty() ? "." : a.relativePath()), a.reason());
            }
            rpath.out.println(plan.size() + " action(s); nothing changed (dry run)");
        }
        return Failures.OK;
    }

    /** {@code 1234} ms as {@code 1.23}. */
    static String seconds(long millis) {
        long hundredths = (millis + 5) / 10;
        long fraction = hundredths % 100;
        return hundredths / 100 + (fraction < 10 ? ".0" : ".") + fraction;
    }

    private int printReport(SyncReport r) {
        if (rpath.json) {
            rpath.out.println(reportJson(r));
        } else {
            rpath.out.println(summary(r));
            if (r.linksSkipped() > 0) {
                rpath.out.println("skipped " + r.linksSkipped() + " symbolic link(s) (--links or --copy-links to sync them)");
            }
            // The errors themselves reached stderr as they happened (Progress).
            r.refusal().ifPresent(m -> rpath.err.println("rpath sync: " + Hints.forCli(m)));
        }
        return exitCode(r);
    }

    /** The text summary line of a report. */
    static String summary(SyncReport r) {
        // Concatenated rather than formatted: Formatter's first use costs a fresh JVM ~8 ms.
        return "copied " + r.filesCopied() + " file(s) (" + Progress.size(r.bytesCopied()) + "), skipped "
                + r.filesSkipped() + " unchanged, deleted " + r.filesDeleted()
                + (r.directoriesDeleted() > 0 ? " (and " + r.directoriesDeleted() + " director"
                        + (r.directoriesDeleted() == 1 ? "y" : "ies") + ")" : "") + ", created " + r.directoriesCreated()
                + " director" + (r.directoriesCreated() == 1 ? "y" : "ies") + ", fixed " + r.mtimesFixed()
                + " mtime(s); read " + Progress.size(r.contentBytesRead()) + " of content in "
                + seconds(r.duration().toMillis()) + " s";
    }

    /** The exit code of a run that ended with {@code r}: 0, 1 (some failed) or 3 (refused for safety). */
    static int exitCode(SyncReport r) {
        if (r.refusedForSafety()) {
            return Failures.REFUSED;
        }
        return r.succeeded() ? Failures.OK : Failures.SOME_FAILED;
    }

    /** {@code --dry-run --json}'s one line. */
    static String planJson(List<SyncAction> plan) {
        List<Object> actions = new ArrayList<>();
        for (SyncAction a : plan) {
            actions.add(Json.obj().put("action", a.kind().name().toLowerCase(Locale.ROOT)).put("path", a.relativePath())
                    .put("size", a.size().isPresent() ? a.size().getAsLong() : null).put("reason", a.reason()));
        }
        return Json.obj().put("dryRun", true).put("actions", actions).toString();
    }

    /** {@code --json}'s one line for a run's report. */
    static String reportJson(SyncReport r) {
        List<Object> errors = new ArrayList<>();
        for (SyncError e : r.errors()) {
            errors.add(Json.obj().put("path", e.relativePath()).put("operation", e.operation())
                    .put("message", Hints.forCli(e.message()))
                    .put("kind", e.exceptionType().map(Failures::kind).orElse("sync")));
        }
        return Json.obj().put("filesCopied", r.filesCopied()).put("bytesCopied", r.bytesCopied())
                .put("filesSkipped", r.filesSkipped()).put("filesDeleted", r.filesDeleted())
                .put("directoriesCreated", r.directoriesCreated()).put("mtimesFixed", r.mtimesFixed())
                .put("errors", errors).put("contentBytesRead", r.contentBytesRead())
                .put("linksCreated", r.linksCreated()).put("linksSkipped", r.linksSkipped())
                .put("checksumsNative", r.checksumsNative()).put("checksumsStreamed", r.checksumsStreamed())
                .put("directoriesDeleted", r.directoriesDeleted())
                .put("refusal", r.refusal().map(Hints::forCli).orElse(null)).put("durationMs", r.duration().toMillis())
                .toString();
    }
}
