package dev.remotepath.archive;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a new archive holds so far, and what is being written into it: the tree its stats and
 * listings answer from, and where the rule "written once" is kept (a name is reserved when its
 * writing starts, and freed again if that writing fails). Thread-safe; every method holds the
 * index's lock for as long as it looks.
 */
final class NewArchiveIndex {

    /** A directory; its entry is added to the archive at the end, with its time as set by then. */
    static final class Dir {
        final Map<String, Object> children = new LinkedHashMap<>(); // Dir or Leaf
        Instant modified;
        /** The entry's {@code st_mode}. */
        final int mode;

        Dir(Instant modified, int mode) {
            this.modified = modified;
            this.mode = mode;
        }
    }

    /** A directory's entry as it is written at the end: name without trailing slash, time, {@code st_mode}. */
    record NewDirectory(String name, Instant modified, int mode) {
    }

    /** A file or link; {@code size} -1 while the file is being written. */
    record Leaf(FileType type, long size, Instant modified, String target) {
    }

    private final RemotePath archive;
    private final Duration precision;
    private final Dir root = new Dir(null, ArchiveWriter.DIRECTORY_MODE);
    /** Whether anything was made: the archive exists (to stats) once it was. */
    private boolean created;
    /** Files and links reserved and not yet added or released. */
    private int writing;

    NewArchiveIndex(RemotePath archive, Duration precision) {
        this.archive = archive;
        this.precision = precision;
    }

    synchronized boolean created() {
        return created;
    }

    synchronized int writing() {
        return writing;
    }

    /** Reserves {@code path} for a file or link being written; its parent must exist and the name be free. */
    synchronized void reserve(RemotePath path, Leaf leaf) throws IOException {
        directoryForNew(path).children.put(path.name(), leaf);
        created = true;
        writing++;
    }

    /** Ends the writing of a reserved {@code path}: {@code added} is what it now is, or null to free the name. */
    synchronized void finish(RemotePath path, Leaf added) {
        writing--;
        Dir dir = directoryOf(path);
        if (added == null) {
            dir.children.remove(path.name());
        } else {
            dir.children.put(path.name(), added);
        }
    }

    /** Makes the directory {@code path} (the root: makes the archive), its entry of {@code st_mode} {@code mode}. */
    synchronized void createDirectory(RemotePath path, int mode) throws IOException {
        if (path.parts().isEmpty()) {
            if (created) {
                throw new FileAlreadyExistsException(path.toString());
            }
            root.modified = Instant.now();
        } else {
            directoryForNew(path).children.put(path.name(), new Dir(Instant.now(), mode));
        }
        created = true;
    }

    /** Sets a directory's time; false if {@code path} is not a directory. */
    synchronized boolean setDirectoryTime(RemotePath path, Instant time) throws IOException {
        if (find(path) instanceof Dir d) {
            d.modified = time;
            return true;
        }
        return false;
    }

    synchronized FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        return statOf(followLinks ? resolve(path) : find(path));
    }

    synchronized List<ListedEntry> list(RemotePath directory) throws IOException {
        if (!(resolve(directory) instanceof Dir d)) {
            throw new NotDirectoryException(directory.toString());
        }
        List<ListedEntry> out = new ArrayList<>(d.children.size());
        for (Map.Entry<String, Object> c : d.children.entrySet()) {
            out.add(new ListedEntry(c.getKey(), statOf(c.getValue())));
        }
        return out;
    }

    synchronized String readSymbolicLink(RemotePath link) throws IOException {
        if (!(find(link) instanceof Leaf l) || l.type() != FileType.SYMLINK) {
            throw new NotLinkException(link.toString());
        }
        return l.target();
    }

    /** Fails unless {@code path} names something. */
    synchronized void requireExists(RemotePath path) throws NoSuchFileException {
        find(path);
    }

    /** Every directory but the root, as entry names (no trailing slash), parents before children. */
    synchronized List<NewDirectory> directories() {
        List<NewDirectory> out = new ArrayList<>();
        directories("", root, out);
        return out;
    }

    private static void directories(String prefix, Dir dir, List<NewDirectory> out) {
        for (Map.Entry<String, Object> c : dir.children.entrySet()) {
            if (c.getValue() instanceof Dir d) {
                String name = prefix + c.getKey();
                out.add(new NewDirectory(name, d.modified, d.mode));
                directories(name + "/", d, out);
            }
        }
    }

    private FileStat statOf(Object node) {
        if (node instanceof Dir d) {
            return FileStat.listed(FileType.DIRECTORY, OptionalLong.empty(), true, Optional.ofNullable(d.modified),
                    precision, Optional.empty());
        }
        Leaf l = (Leaf) node;
        FileStat.Builder b = FileStat.builder(l.type()).lastModified(l.modified(), precision);
        if (l.size() >= 0) {
            b.size(l.size());
        }
        return b.build();
    }

    private Object find(RemotePath path) throws NoSuchFileException {
        Object node = root;
        for (String part : path.parts()) {
            if (!(node instanceof Dir d) || (node = d.children.get(part)) == null) {
                throw new NoSuchFileException(path.toString());
            }
        }
        if (node == root && !created) {
            throw noArchive(path);
        }
        return node;
    }

    private NoSuchFileException noArchive(RemotePath path) {
        return new NoSuchFileException(path.toString(), null,
                "no archive at " + archive + " (a new one is made by writing into it)");
    }

    /** The node {@code path} leads to, links followed within the new archive. */
    private Object resolve(RemotePath path) throws IOException {
        if (!created) {
            throw noArchive(path);
        }
        List<String> todo = new ArrayList<>(path.parts());
        List<String> at = new ArrayList<>();
        Object node = root;
        int links = 0;
        while (!todo.isEmpty()) {
            String part = todo.remove(0);
            Object child = node instanceof Dir d ? d.children.get(part) : null;
            if (child == null) {
                throw new NoSuchFileException(path.toString());
            }
            if (child instanceof Leaf l && l.type() == FileType.SYMLINK) {
                if (++links > ArchiveFileSystem.MAX_LINKS) {
                    throw new FileSystemLoopException(path.toString());
                }
                todo.addAll(0, ArchiveFileSystem.resolveLink(at, l.target(), path));
                at.clear();
                node = root;
                continue;
            }
            at.add(part);
            node = child;
        }
        return node;
    }

    /** The directory a new entry goes in; the root counts as there, since writing into it makes the archive. */
    private Dir directoryForNew(RemotePath path) throws IOException {
        if (path.parts().isEmpty()) {
            throw new FileAlreadyExistsException(path.toString());
        }
        Object node = root;
        List<String> parts = path.parts();
        for (String part : parts.subList(0, parts.size() - 1)) {
            if (!(node instanceof Dir d) || (node = d.children.get(part)) == null) {
                throw new NoSuchFileException(path.toString(), null, "its parent directory does not exist");
            }
        }
        if (!(node instanceof Dir d)) {
            throw new NoSuchFileException(path.toString(), null, "its parent is not a directory");
        }
        if (d.children.containsKey(path.name())) {
            throw new FileAlreadyExistsException(path.toString(), null,
                    "an entry of a new archive is written once and cannot be replaced");
        }
        return d;
    }

    /** The directory a reserved entry lies in (it exists: nothing is removed but reservations). */
    private Dir directoryOf(RemotePath entry) {
        Object node = root;
        for (String part : entry.parent().parts()) {
            node = ((Dir) node).children.get(part);
        }
        return (Dir) node;
    }
}
