package dev.remotepath.syncer;

import dev.remotepath.DirEntry;
import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Temporaries of this library's naming ({@code .<name>.<hex>.rptmp}) found in the target
 * directories a run visits. A killed copy leaves one behind; so, for a moment, does a copy
 * another process has under way (a second sync, an {@code rpath cp} into a directory a cron job
 * mirrors), and deleting that one fails its rename. The two are told apart by their size, as
 * the server reports it: one still being written grows. So they are removed at the end of the
 * run, once each has been seen to stand still for {@link #QUIET} (the run's own traversal and
 * copies usually take longer than that, and then nothing is waited for); one that moved is
 * left, and said.
 *
 * <p>Size rather than time: listings and stats report times at different precisions on some
 * servers (an FTP {@code LIST} against {@code MDTM}), sizes alike. A copy whose source stalls
 * for longer than {@code QUIET} before its next write looks like a leftover; its temporary goes
 * and that copy fails at its rename, with nothing lost.
 */
final class Leftovers {

    /** How long a temporary's size must stand still before it is taken for a dead copy's. */
    static final Duration QUIET = Duration.ofSeconds(5);

    /** A temporary as first seen: its size then (empty when the listing did not say) and when. */
    private record Seen(String rel, RemotePath path, OptionalLong size, long seenAtNanos) {
    }

    private final List<Seen> seen = new ArrayList<>();

    /** A temporary in a target listing (only in a run that carries its actions out). */
    synchronized void found(String rel, DirEntry temporary) {
        seen.add(new Seen(rel, temporary.path(), temporary.stat().size(), System.nanoTime()));
    }

    /**
     * Removes the temporaries whose size stood still for {@link #QUIET} since they were first
     * seen, waiting out what is left of that time; one stat each (two for those whose listing
     * gave no size).
     */
    void remove(SyncRun run) {
        List<Seen> toCheck;
        synchronized (this) {
            toCheck = new ArrayList<>(seen);
            seen.clear();
        }
        if (toCheck.isEmpty()) {
            return;
        }
        List<Seen> baselined = new ArrayList<>(toCheck.size());
        for (Seen s : toCheck) {
            if (s.size().isPresent()) {
                baselined.add(s);
            } else {
                sizeNow(run, s).ifPresent(size -> baselined.add(new Seen(s.rel(), s.path(), OptionalLong.of(size),
                        System.nanoTime())));
            }
        }
        baselined.sort((a, b) -> Long.compare(a.seenAtNanos(), b.seenAtNanos()));
        long quiet = QUIET.toNanos();
        long wait = baselined.isEmpty() ? 0 : baselined.getLast().seenAtNanos() + quiet - System.nanoTime();
        if (wait > 0) {
            // Looked up here, not in a static field: the lookup scans the class path (~10 ms of every run).
            int count = baselined.size();
            System.getLogger(Leftovers.class.getName()).log(System.Logger.Level.INFO, () -> count
                    + " temporaries (.rptmp) in the target: waiting up to " + wait / 1_000_000
                    + " ms to tell a dead copy's from one under way");
        }
        for (Seen s : baselined) {
            long left = s.seenAtNanos() + quiet - System.nanoTime();
            if (left > 0) {
                try {
                    Thread.sleep(Duration.ofNanos(left));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // the run is being stopped: leave them for the next
                    return;
                }
            }
            OptionalLong now = sizeNow(run, s);
            if (now.isEmpty()) {
                continue; // gone meanwhile (renamed by its copy, or removed), or not to be read
            }
            if (now.getAsLong() != s.size().getAsLong()) {
                run.listener.skipped(s.rel(), "a temporary (.rptmp) another copy is writing: its size moved from "
                        + s.size().getAsLong() + " to " + now.getAsLong() + " bytes within " + QUIET.toSeconds()
                        + " s; left");
                continue;
            }
            try {
                s.path().fileSystem().deleteFile(s.path());
            } catch (NoSuchFileException gone) {
                // renamed or removed since the stat
            } catch (IOException e) {
                run.fail(s.rel(), "remove stale temporary", e);
            }
        }
    }

    /** The temporary's size now; empty when it is gone (or unreadable: then a failure of the run). */
    private static OptionalLong sizeNow(SyncRun run, Seen s) {
        try {
            FileStat stat = s.path().fileSystem().stat(s.path(), false);
            return stat.isRegularFile() ? stat.size() : OptionalLong.empty();
        } catch (NoSuchFileException gone) {
            return OptionalLong.empty();
        } catch (IOException e) {
            run.fail(s.rel(), "check stale temporary", e);
            return OptionalLong.empty();
        }
    }
}
