package dev.remotepath.tree;

import dev.remotepath.BackendLimits;
import dev.remotepath.DirEntry;
import dev.remotepath.EntryNames;
import dev.remotepath.RemotePath;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Turns a backend's raw listing into {@link DirEntry} values: the single place where names
 * from a server are validated before they become paths, so no algorithm can be led outside
 * the directory it listed. A listing that names one entry twice fails as a whole.
 */
public final class Listings {

    /**
     * Orders entries by name, the order walks, copies and the syncer's merge rely on. (Lambdas
     * of this class rather than {@code Comparator.comparing}: the JDK spins the class of a
     * lambda inside {@code Comparator} at run time, ~4 ms of a short command, while the AOT
     * cache keeps this class's own.)
     */
    public static final Comparator<DirEntry> BY_NAME = (a, b) -> a.name().compareTo(b.name());

    private Listings() {
    }

    /** All entries of {@code directory}, in the backend's order. */
    public static List<DirEntry> read(RemotePath directory, ListDetail detail) throws IOException {
        try (BackendLimits.Permit place = BackendLimits.listing(directory);
                DirectoryListing listing = directory.fileSystem().list(directory, detail)) {
            return drain(listing, directory);
        }
    }

    /**
     * Reads every entry of an open listing of {@code directory}, validating each name, and
     * leaves the listing open (its handle may serve {@code listChild}).
     */
    public static List<DirEntry> drain(DirectoryListing listing, RemotePath directory) throws IOException {
        return drain(listing, directory, false);
    }

    /**
     * As {@link #drain(DirectoryListing, RemotePath)}, sorted by name when asked. Sorting
     * happens on the raw names, before paths exist, so it allocates nothing per comparison.
     */
    public static List<DirEntry> drain(DirectoryListing listing, RemotePath directory, boolean sortByName)
            throws IOException {
        ListedEntry[] raw = validated(listing, directory);
        if (sortByName) {
            NameOrder.sort(raw, name -> listedTwice(directory, name));
        } else if (raw.length > 1) {
            java.util.HashSet<String> seen = java.util.HashSet.newHashSet(raw.length);
            for (ListedEntry e : raw) {
                if (!seen.add(e.name())) {
                    throw listedTwice(directory, e.name());
                }
            }
        }
        List<DirEntry> out = new ArrayList<>(raw.length);
        for (ListedEntry e : raw) {
            out.add(new DirEntry(directory.child(e.name()), e.stat()));
        }
        return out;
    }

    /**
     * The entries of {@code directory}, sorted by name, as an unmodifiable list that makes each
     * {@link DirEntry} when it is asked for: a caller that looks at each entry once and keeps
     * none (most loops) lets the JIT drop the entry and its path, so a listing costs little more
     * than its names. A kept entry costs what an eager list's would.
     */
    public static List<DirEntry> sortedView(RemotePath directory, ListDetail detail) throws IOException {
        try (BackendLimits.Permit place = BackendLimits.listing(directory);
                DirectoryListing listing = directory.fileSystem().list(directory, detail)) {
            ListedEntry[] raw = validated(listing, directory);
            NameOrder.sort(raw, name -> listedTwice(directory, name));
            return new EntryList(directory, raw);
        }
    }

    /** Every entry of an open listing, each name checked before anything else sees it. */
    private static ListedEntry[] validated(DirectoryListing listing, RemotePath directory) throws IOException {
        int size = listing.size();
        // The backend's count sizes the array, within reason: a listing that claims a billion
        // entries gets them only as it hands them over.
        ListedEntry[] raw = new ListedEntry[size >= 0 ? Math.min(size, 1 << 16) : 16];
        int n = 0;
        while (listing.hasNext()) {
            ListedEntry e = listing.next();
            if (!EntryNames.isSafe(e.name())) {
                EntryNames.requireSafe(directory.toString(), e.name());
            }
            if (n == raw.length) {
                raw = java.util.Arrays.copyOf(raw, Math.max(16, n * 2));
            }
            raw[n++] = e;
        }
        return n == raw.length ? raw : java.util.Arrays.copyOf(raw, n);
    }

    /** A sorted listing's entries, each made when asked for (see {@link #sortedView}). */
    private static final class EntryList extends java.util.AbstractList<DirEntry> implements java.util.RandomAccess {
        private final RemotePath directory;
        private final ListedEntry[] entries;

        EntryList(RemotePath directory, ListedEntry[] entries) {
            this.directory = directory;
            this.entries = entries;
        }

        @Override
        public DirEntry get(int index) {
            ListedEntry e = entries[index];
            return new DirEntry(directory.child(e.name()), e.stat());
        }

        @Override
        public int size() {
            return entries.length;
        }
    }

    /**
     * A name listed twice (a link and a directory of the same name, say) makes the listing
     * ambiguous: which of the two a copy would write through cannot be known, so the whole
     * directory fails rather than either being trusted.
     */
    private static UnsafeNameException listedTwice(RemotePath directory, String name) {
        return new UnsafeNameException(directory.toString(), name, "listed twice");
    }

    /** All entries of {@code directory}, sorted by name. */
    public static List<DirEntry> sorted(RemotePath directory, ListDetail detail) throws IOException {
        try (BackendLimits.Permit place = BackendLimits.listing(directory);
                DirectoryListing listing = directory.fileSystem().list(directory, detail)) {
            return drain(listing, directory, true);
        }
    }
}
