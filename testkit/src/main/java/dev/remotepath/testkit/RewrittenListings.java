package dev.remotepath.testkit;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A file system whose every listing passes through a rewrite before the caller sees it: a
 * broken or hostile server's listing (a name twice, an entry that is not there), made from a
 * good file system's. Everything else is forwarded unchanged.
 */
public final class RewrittenListings extends ForwardingFileSystem {

    /** What a listing becomes. */
    @FunctionalInterface
    public interface Rewrite {
        /**
         * @param directory the directory listed, as the caller named it
         * @param listed    what the delegate listed, in its order; the rewrite may change this list
         * @return the entries the caller sees
         */
        List<ListedEntry> apply(RemotePath directory, List<ListedEntry> listed);
    }

    private final Rewrite rewrite;

    public RewrittenListings(RemoteFileSystem delegate, Rewrite rewrite) {
        super(delegate);
        this.rewrite = Objects.requireNonNull(rewrite, "rewrite");
    }

    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        List<ListedEntry> entries = new ArrayList<>();
        try (DirectoryListing l = super.list(directory, detail)) {
            while (l.hasNext()) {
                entries.add(l.next());
            }
        }
        return DirectoryListing.of(rewrite.apply(directory, entries));
    }

    /** Through {@link #list}: a backend's faster child listing must not skip the rewrite. */
    @Override
    public DirectoryListing listChild(DirectoryListing parent, RemotePath directory, ListDetail detail)
            throws IOException {
        return list(directory, detail);
    }
}
