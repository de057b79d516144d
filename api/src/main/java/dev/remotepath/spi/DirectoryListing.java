package dev.remotepath.spi;

import java.io.Closeable;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;

/**
 * A lazy, closeable iteration over one directory's entries, in any order, without
 * {@code .} and {@code ..}. Paging backends fetch the next page inside {@link #hasNext()}.
 * An entry that vanishes while listing is left out, not reported as an error.
 */
public interface DirectoryListing extends Closeable {

    boolean hasNext() throws IOException;

    /** The next entry; only valid after {@link #hasNext()} returned true. */
    ListedEntry next() throws IOException;

    @Override
    default void close() throws IOException {
    }

    /** How many entries the listing holds when it is already in memory; -1 when unknown (paging). */
    default int size() {
        return -1;
    }

    /** A listing over entries already in memory. */
    static DirectoryListing of(List<ListedEntry> entries) {
        List<ListedEntry> copy = List.copyOf(entries);
        Iterator<ListedEntry> it = copy.iterator();
        return new DirectoryListing() {
            @Override
            public int size() {
                return copy.size();
            }

            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public ListedEntry next() {
                return it.next();
            }
        };
    }
}
