package dev.remotepath.spi;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Keeps a paged listing (S3's continuation tokens, Azure's markers, SFTP's READDIR answers) from
 * running forever on a server that lies: a token handed back a second time, page after page
 * with nothing on it, more entries than {@link #maxEntries()} (a server inventing new names
 * without end, which no repeat check sees: read on, its names fill the heap), or pages that
 * trickle (each within the read timeout, a name or two apiece: a million entries would take
 * months) fail the listing with an {@code IOException} naming the directory instead of asking
 * again. The pace is judged only once a listing has run {@link #rateWindow()}, and asks for
 * {@link #minimumRate()} entries a second on average: a real listing brings hundreds a second.
 * One per listing; not thread-safe (a listing is read by one caller).
 */
public final class ContinuationGuard {

    /** Empty pages in a row accepted before the listing is taken for one that never ends. */
    public static final int MAX_EMPTY_PAGES = 100;

    /**
     * Entries one listing may hold unless {@code -Dremotepath.maxListingEntries} says otherwise:
     * a million is more than any other backend's byte bound lets through (FTP's and WebDAV's
     * 64 MiB answers hold some 100,000 to 500,000), and some 200-300 MB of heap once listed.
     */
    public static final int DEFAULT_MAX_ENTRIES = 1_000_000;

    /** Entries a second a listing must average once it has run its window: 1 unless set. */
    public static final long DEFAULT_MINIMUM_RATE = 1;

    /** How long a listing runs before its pace is judged: five minutes unless set. */
    public static final java.time.Duration DEFAULT_RATE_WINDOW = java.time.Duration.ofMinutes(5);

    private final String directory;
    private final int maxEntries;
    private final long minimumRate;
    private final long windowNanos;
    private final java.util.function.LongSupplier clock;
    private final long started;
    /** When the page being waited for was asked for; {@code NOT_ASKING} between pages. */
    private long askedAt = NOT_ASKING;
    /** Time spent waiting for pages, for listings that say when they ask ({@link #asking}). */
    private long waited;
    private boolean saysWhenItAsks;
    private static final long NOT_ASKING = Long.MIN_VALUE;
    private final Set<String> seen = new HashSet<>();
    private int emptyInARow;
    private long entries;

    /** @param directory what the listing lists, for the error */
    public ContinuationGuard(String directory) {
        this(directory, System::nanoTime);
    }

    /** With {@code clock} for {@link System#nanoTime()}: the tests' way to let time pass. */
    ContinuationGuard(String directory, java.util.function.LongSupplier clock) {
        this.directory = directory;
        this.maxEntries = maxEntries();
        this.minimumRate = minimumRate();
        this.windowNanos = rateWindow().toNanos();
        this.clock = clock;
        this.started = clock.getAsLong();
    }

    /**
     * Entries a second a paged listing must average once it has run {@link #rateWindow()}:
     * {@code -Dremotepath.minimumListingRate}, read when a listing starts (0 turns the check off),
     * else {@link #DEFAULT_MINIMUM_RATE}.
     */
    public static long minimumRate() {
        long rate = Long.getLong("remotepath.minimumListingRate", DEFAULT_MINIMUM_RATE);
        return rate >= 0 ? rate : DEFAULT_MINIMUM_RATE;
    }

    /**
     * How long a paged listing runs before its pace is judged: {@code -Dremotepath.listingRateWindow}
     * in seconds, read when a listing starts, else {@link #DEFAULT_RATE_WINDOW}.
     */
    public static java.time.Duration rateWindow() {
        long seconds = Long.getLong("remotepath.listingRateWindow", DEFAULT_RATE_WINDOW.toSeconds());
        return seconds > 0 ? java.time.Duration.ofSeconds(seconds) : DEFAULT_RATE_WINDOW;
    }

    /**
     * The most entries a paged listing may hold: {@code -Dremotepath.maxListingEntries}, read when
     * a listing starts, else {@link #DEFAULT_MAX_ENTRIES}.
     */
    public static int maxEntries() {
        int max = Integer.getInteger("remotepath.maxListingEntries", DEFAULT_MAX_ENTRIES);
        return max > 0 ? max : DEFAULT_MAX_ENTRIES;
    }

    /**
     * The next page is being asked for now. A listing read lazily calls this before each request:
     * its pace is then judged on the time spent waiting for pages, not on the time its reader
     * took between them. One that does not call it is judged on the time since it started.
     */
    public void asking() {
        saysWhenItAsks = true;
        askedAt = clock.getAsLong();
    }

    /**
     * A page arrived with {@code entries} entries and {@code next} as the token of the page after
     * it (null or empty at the end).
     */
    public void page(int entries, String next) throws IOException {
        count(entries);
        if (next == null || next.isEmpty()) {
            return;
        }
        pace();
        if (!seen.add(next)) {
            throw new IOException(directory + ": the server handed back a continuation token it gave before; "
                    + "the listing would never end");
        }
        empty(entries, "each pointing to another");
    }

    /**
     * A page arrived with {@code entries} entries from a listing whose pages carry no token and
     * that has not ended (SFTP's READDIR answers, each the next batch until the end of file):
     * only a run of empty pages can show that it never will.
     */
    public void pageWithoutToken(int entries) throws IOException {
        count(entries);
        pace();
        empty(entries, "none the end of the listing");
    }

    private void count(int onPage) throws IOException {
        entries += Math.max(0, onPage);
        if (entries > maxEntries) {
            throw new IOException(directory + ": the server listed more than " + String.format(java.util.Locale.ROOT, "%,d", maxEntries)
                    + " entries and had not ended; refused as a listing that may never end"
                    + " (-Dremotepath.maxListingEntries raises the limit)");
        }
    }

    /** A page arrived and the listing goes on: it must keep the pace once its window has passed. */
    private void pace() throws IOException {
        long now = clock.getAsLong();
        if (askedAt != NOT_ASKING) {
            waited += now - askedAt;
            askedAt = NOT_ASKING;
        }
        long elapsed = saysWhenItAsks ? waited : now - started;
        if (minimumRate > 0 && elapsed > windowNanos && entries < minimumRate * (elapsed / 1_000_000_000L)) {
            throw new IOException(directory + ": the server listed " + entries + " entries in " + elapsed / 1_000_000_000L
                    + " s of waiting for them and had not ended, fewer than " + minimumRate + " a second; refused as a listing that trickles"
                    + " (-Dremotepath.minimumListingRate lowers the pace, -Dremotepath.listingRateWindow lengthens the"
                    + " time before it is judged)");
        }
    }

    private void empty(int entries, String how) throws IOException {
        emptyInARow = entries == 0 ? emptyInARow + 1 : 0;
        if (emptyInARow > MAX_EMPTY_PAGES) {
            throw new IOException(directory + ": the server sent " + emptyInARow
                    + " empty pages in a row, " + how + "; the listing would never end");
        }
    }
}
