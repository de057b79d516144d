package dev.remotepath.tree;

import dev.remotepath.DirEntry;
import dev.remotepath.EntryNames;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A whole tree's listings read by one flat listing ({@link Capability#FLAT_LISTING}), served
 * directory by directory as a walk asks for them: on S3 a tree of 10,000 objects in 100
 * directories costs 10 requests instead of 101. Each directory is handed out once and then
 * forgotten, so memory falls as the walk proceeds; and it never holds more than a budget of
 * entries: a tree larger than that is not indexed at all (the flat listing stops there, and
 * the walk lists per directory, as without it: at most budget / 1,000 requests wasted).
 *
 * <p>Every name of every path is validated as a per-directory listing's are (no empty name,
 * {@code .}, {@code ..} or NUL); a directory whose entries break the rules, or that lists a
 * name twice, fails when it is asked for, as its own listing would, and the rest of the tree
 * is served.
 */
public final class FlatIndex {

    /** The entries an index holds at most by default: ~30-60 MB of listings. */
    public static final int DEFAULT_BUDGET = 100_000;

    private final RemotePath root;
    private final Map<String, List<ListedEntry>> byDirectory;
    private final Map<String, String> unsafe;

    private FlatIndex(RemotePath root, Map<String, List<ListedEntry>> byDirectory, Map<String, String> unsafe) {
        this.root = root;
        this.byDirectory = byDirectory;
        this.unsafe = unsafe;
    }

    /**
     * The index of the tree at {@code root}, or empty when its file system has no flat listing,
     * finds it has none for this tree after all ({@code listTree} throws
     * {@link UnsupportedOperationException}: a WebDAV server that refuses {@code Depth: infinity}),
     * or the tree holds more than {@code budget} entries. Fails as listing {@code root} would (no
     * such directory, not a directory).
     */
    public static Optional<FlatIndex> read(RemotePath root, ListDetail detail, int budget) throws IOException {
        if (!root.fileSystem().capabilities().contains(Capability.FLAT_LISTING)) {
            return Optional.empty();
        }
        Map<String, List<ListedEntry>> dirs = new HashMap<>();
        Map<String, String> unsafe = new HashMap<>();
        Map<String, Integer> linked = new HashMap<>(); // a directory's index in its parent's list; -1 - it once listed itself
        dirs.put("", new ArrayList<>());
        int count = 0;
        try (DirectoryListing listing = root.fileSystem().listTree(root, detail)) {
            while (listing.hasNext()) {
                if (++count > budget) {
                    return Optional.empty();
                }
                ListedEntry e = listing.next();
                if (e.name().isEmpty() || e.name().startsWith("/")) {
                    unsafe.putIfAbsent("", ""); // an empty name in the root (add() finds those further down)
                    continue;
                }
                add(dirs, linked, unsafe, e.name(), e.stat());
            }
        } catch (UnsupportedOperationException noFlatListingHere) {
            return Optional.empty(); // the caller walks, as without the capability
        }
        return Optional.of(new FlatIndex(root, dirs, unsafe));
    }

    private static final FileStat DIRECTORY = FileStat.ofType(FileType.DIRECTORY);

    /**
     * Files {@code path} under its parent, and each directory above it under its own parent
     * once ({@code linked}: where in its parent's list each directory's entry is). A directory
     * implied by what is below it has its type only; its own entry, listed before or after,
     * gives it what the listing says of it (WebDAV's times), as its parent's listing would.
     */
    private static void add(Map<String, List<ListedEntry>> dirs, Map<String, Integer> linked, Map<String, String> unsafe,
            String path, FileStat stat) {
        String p = path;
        FileStat s = stat;
        boolean listed = true;
        while (true) {
            int slash = p.lastIndexOf('/');
            String parent = slash < 0 ? "" : p.substring(0, slash);
            String name = p.substring(slash + 1);
            if (!EntryNames.isSafe(name)) {
                unsafe.putIfAbsent(parent, name); // that directory fails when asked for
            }
            List<ListedEntry> siblings = dirs.get(parent);
            // Every list but the root's is made by a step that also links its directory above.
            boolean parentKnown = siblings != null;
            if (!parentKnown) {
                siblings = new ArrayList<>();
                dirs.put(parent, siblings);
            }
            if (s.isDirectory()) {
                dirs.putIfAbsent(p, new ArrayList<>());
                Integer at = linked.get(p);
                if (at == null) {
                    linked.put(p, listed ? -1 - siblings.size() : siblings.size());
                    siblings.add(new ListedEntry(name, listed ? s : DIRECTORY));
                } else if (listed && at >= 0) {
                    linked.put(p, -1 - at); // implied first: its own entry replaces the type-only one, once
                    siblings.set(at, new ListedEntry(name, s));
                }
            } else {
                siblings.add(new ListedEntry(name, s));
            }
            if (parentKnown || parent.isEmpty()) {
                return;
            }
            p = parent;
            s = DIRECTORY;
            listed = false;
        }
    }

    /**
     * The listing of {@code directory}, sorted by name, or empty when it lies outside the
     * indexed tree or was handed out already; it is forgotten once handed out. A directory the
     * index holds no entry for, below the root, does not exist ({@code NoSuchFileException}
     * is for the caller's own listing to say: empty is returned then too).
     */
    public synchronized Optional<List<DirEntry>> take(RemotePath directory) throws IOException {
        if (!directory.sameFileSystemAs(root) || !directory.startsWith(root)) {
            return Optional.empty();
        }
        String rel = root.relativize(directory).pathString();
        List<ListedEntry> entries = byDirectory.remove(rel);
        if (entries == null) {
            return Optional.empty();
        }
        String bad = unsafe.remove(rel);
        if (bad != null) {
            EntryNames.requireSafe(directory.toString(), bad);
        }
        return Optional.of(Listings.drain(DirectoryListing.of(entries), directory, true));
    }

    /** Directories still held, for tests and budgets. */
    public synchronized int directoriesHeld() {
        return byDirectory.size();
    }
}
