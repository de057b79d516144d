package dev.remotepath.spi;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Keeps a paged listing (S3's continuation tokens, Azure's markers, SFTP's READDIR answers) from
 * running forever on a server that lies: a token handed back a second time, page after page
 * with nothing on it, or more entries than {@link #maxEntries()} (a server inventing new names
 * without end, which no repeat check sees: read on, its names fill the heap) fail the listing
 * with an {@code IOException} naming the directory instead of asking again.
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

    private final String directory;
    private final int maxEntries;
    private final Set<String> seen = new HashSet<>();
    private int emptyInARow;
    private long entries;

    /** @param directory what the listing lists, for the error */
    public ContinuationGuard(String directory) {
        this.directory = directory;
        this.maxEntries = maxEntries();
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
     * A page arrived with {@code entries} entries and {@code next} as the token of the page after
     * it (null or empty at the end).
     */
    public void page(int entries, String next) throws IOException {
        count(entries);
        if (next == null || next.isEmpty()) {
            return;
        }
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

    private void empty(int entries, String how) throws IOException {
        emptyInARow = entries == 0 ? emptyInARow + 1 : 0;
        if (emptyInARow > MAX_EMPTY_PAGES) {
            throw new IOException(directory + ": the server sent " + emptyInARow
                    + " empty pages in a row, " + how + "; the listing would never end");
        }
    }
}
