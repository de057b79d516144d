package dev.remotepath.spi;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Keeps a paged listing (S3's continuation tokens, Azure's markers, SFTP's READDIR answers) from
 * running forever on a server that lies: a token handed back a second time, or page after page
 * with nothing on it, fails the listing with an {@code IOException} naming the directory instead
 * of asking again.
 * One per listing; not thread-safe (a listing is read by one caller).
 */
public final class ContinuationGuard {

    /** Empty pages in a row accepted before the listing is taken for one that never ends. */
    public static final int MAX_EMPTY_PAGES = 100;

    private final String directory;
    private final Set<String> seen = new HashSet<>();
    private int emptyInARow;

    /** @param directory what the listing lists, for the error */
    public ContinuationGuard(String directory) {
        this.directory = directory;
    }

    /**
     * A page arrived with {@code entries} entries and {@code next} as the token of the page after
     * it (null or empty at the end).
     */
    public void page(int entries, String next) throws IOException {
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
        empty(entries, "none the end of the listing");
    }

    private void empty(int entries, String how) throws IOException {
        emptyInARow = entries == 0 ? emptyInARow + 1 : 0;
        if (emptyInARow > MAX_EMPTY_PAGES) {
            throw new IOException(directory + ": the server sent " + emptyInARow
                    + " empty pages in a row, " + how + "; the listing would never end");
        }
    }
}
