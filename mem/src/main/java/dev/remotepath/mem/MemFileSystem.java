package dev.remotepath.mem;

import dev.remotepath.FileStat;
import dev.remotepath.IsDirectoryException;
import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import dev.remotepath.mem.MemNode.Dir;
import dev.remotepath.mem.MemNode.File;
import dev.remotepath.mem.MemNode.Link;
import dev.remotepath.mem.MemTree.Found;
import dev.remotepath.spi.Capability;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.spi.RemoteFileSystemProvider;
import dev.remotepath.spi.StoreSpace;
import dev.remotepath.spi.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One {@code mem://} volume: an in-memory file system with POSIX semantics (symbolic links,
 * permission bits, nanosecond times, atomic rename, a fixed capacity that fills like a disk).
 * Closing it frees its memory; the volume name can then be used again for a fresh, empty volume.
 * Its own tree, not a NIO file system underneath: a few dozen bytes per entry, so a volume of
 * millions of files costs what they hold, and mirrors of it scale as local ones do.
 */
public final class MemFileSystem implements RemoteFileSystem {

    /** A volume's capacity: what a write beyond fails as a full disk does. */
    static final long CAPACITY = 64L * 1024 * 1024 * 1024;

    private static final Set<Capability> CAPABILITIES = Set.copyOf(EnumSet.of(Capability.WRITE,
            Capability.ATOMIC_RENAME, Capability.SYMBOLIC_LINKS, Capability.SET_LAST_MODIFIED_TIME,
            Capability.MTIME_ON_WRITE, Capability.POSIX_PERMISSIONS, Capability.SERVER_SIDE_COPY,
            Capability.IN_PROCESS));

    private final String volume;
    private final RemoteFileSystemProvider provider;
    private final MemTree tree;

    MemFileSystem(String volume, RemoteFileSystemProvider provider) {
        this(volume, provider, CAPACITY);
    }

    /** A volume of another capacity: a test's small disk to fill. Not registered under its name. */
    MemFileSystem(String volume, RemoteFileSystemProvider provider, long capacity) {
        this.volume = volume;
        this.provider = provider;
        this.tree = new MemTree(capacity);
    }

    @Override
    public RemoteFileSystemProvider provider() {
        return provider;
    }

    @Override
    public String uriPrefix() {
        return "mem://" + UriPaths.encodePath(volume);
    }

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    @Override
    public FileStat stat(RemotePath path, boolean followLinks) throws IOException {
        tree.readLock.lock();
        try {
            return MemStats.full(tree.locate(path, followLinks).existing(path));
        } finally {
            tree.readLock.unlock();
        }
    }

    /** Lists from memory: every entry carries what {@code detail} asks, at no cost per entry but the values. */
    @Override
    public DirectoryListing list(RemotePath directory, ListDetail detail) throws IOException {
        tree.readLock.lock();
        try {
            if (!(tree.locate(directory, true).existing(directory) instanceof Dir dir)) {
                throw new NotDirectoryException(directory.toString());
            }
            List<ListedEntry> entries = new ArrayList<>(dir.children.size());
            MemEntries children = dir.children;
            for (int slot = 0, slots = children.slots(); slot < slots; slot++) {
                String name = children.nameAt(slot);
                if (name != null) {
                    entries.add(new ListedEntry(name, MemStats.listed(children.nodeAt(slot), detail)));
                }
            }
            return DirectoryListing.of(entries);
        } finally {
            tree.readLock.unlock();
        }
    }

    @Override
    public InputStream openRead(RemotePath file, long offset) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        tree.readLock.lock();
        try {
            MemNode node = tree.locate(file, true).existing(file);
            if (!(node instanceof File f)) {
                throw new IsDirectoryException(file.toString());
            }
            return new MemStreams.Reader(tree, f, file, offset);
        } finally {
            tree.readLock.unlock();
        }
    }

    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode) throws IOException {
        return open(file, mode, null, -1);
    }

    /** Writes and gives the file {@code lastModified} when the stream is closed. */
    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, Instant lastModified) throws IOException {
        return open(file, mode, java.util.Objects.requireNonNull(lastModified, "lastModified"), -1);
    }

    /** Both attributes: the time when the stream is closed, the permissions (less {@link #UMASK}) if the file is new. */
    @Override
    public OutputStream openWrite(RemotePath file, WriteMode mode, dev.remotepath.spi.WriteAttributes attributes)
            throws IOException {
        return open(file, mode, attributes.lastModified().orElse(null),
                attributes.permissions().map(dev.remotepath.PosixModes::mode).orElse(-1));
    }

    /**
     * The bits a volume takes away from the permissions a new file or copy asks for, as a
     * process's umask does: a volume's files are never writable by group or others unless set so.
     */
    static final int UMASK = 022;

    /**
     * Opens as POSIX {@code open} does: through a link at the end unless the file must be new.
     *
     * @param created the permission bits a file this call creates asks for, -1 for the default
     */
    private OutputStream open(RemotePath file, WriteMode mode, Instant lastModified, int created) throws IOException {
        tree.writeLock.lock();
        try {
            Found at = mode == WriteMode.CREATE_NEW ? tree.vacant(file) : tree.locate(file, true);
            Instant now = Instant.now();
            File target;
            if (at.node() == null) {
                if (at.parent() == null) {
                    throw new IsDirectoryException(file.toString());
                }
                target = new File(tree.newId(), now);
                if (created >= 0) {
                    target.mode = (short) (created & ~UMASK);
                }
                MemTree.link(at.parent(), at.name(), target, now);
            } else if (at.node() instanceof File existing) {
                target = existing;
                if (mode == WriteMode.CREATE_OR_TRUNCATE) {
                    tree.release(existing.truncate());
                    existing.setModified(now);
                }
            } else {
                throw new IsDirectoryException(file.toString());
            }
            return new MemStreams.Writer(tree, target, file, mode == WriteMode.CREATE_OR_APPEND, lastModified);
        } finally {
            tree.writeLock.unlock();
        }
    }

    @Override
    public void createDirectory(RemotePath directory) throws IOException {
        createDirectory(directory, -1);
    }

    /** The permissions less {@link #UMASK}, as {@code mkdir(2)} gives them. */
    @Override
    public void createDirectory(RemotePath directory, Set<PosixFilePermission> permissions) throws IOException {
        createDirectory(directory, dev.remotepath.PosixModes.mode(permissions));
    }

    private void createDirectory(RemotePath directory, int asked) throws IOException {
        tree.writeLock.lock();
        try {
            Found at = tree.vacant(directory);
            Instant now = Instant.now();
            Dir made = new Dir(tree.newId(), now, at.parent(), at.name());
            if (asked >= 0) {
                made.mode = (short) (asked & ~UMASK);
            }
            MemTree.link(at.parent(), at.name(), made, now);
        } finally {
            tree.writeLock.unlock();
        }
    }

    @Override
    public void deleteFile(RemotePath file) throws IOException {
        delete(file);
    }

    @Override
    public void deleteDirectory(RemotePath directory) throws IOException {
        delete(directory);
    }

    /** Deletes the entry itself (a link, never what it points to); a directory only when empty. */
    private void delete(RemotePath path) throws IOException {
        tree.writeLock.lock();
        try {
            Found at = tree.locate(path, false);
            MemNode node = at.existing(path);
            if (at.parent() == null) {
                throw new FileSystemException(path.toString(), null, "the root of a volume cannot be deleted");
            }
            if (node instanceof Dir d && !d.children.isEmpty()) {
                throw new java.nio.file.DirectoryNotEmptyException(path.toString());
            }
            tree.unlink(at.parent(), at.name(), Instant.now());
        } finally {
            tree.writeLock.unlock();
        }
    }

    /**
     * POSIX {@code rename}: atomic, the entry itself moved (a link stays a link), a directory
     * never into itself, and a replaced directory must be empty and replaced by a directory.
     */
    @Override
    public void rename(RemotePath source, RemotePath target, boolean replaceExisting) throws IOException {
        tree.writeLock.lock();
        try {
            Found from = tree.locate(source, false);
            MemNode moving = from.existing(source);
            Found to = tree.locate(target, false);
            if (from.parent() == null || to.parent() == null) {
                throw new FileSystemException(source.toString(), target.toString(), "the root of a volume cannot be moved or replaced");
            }
            if (moving == to.node()) {
                return; // the same entry (POSIX: nothing to do)
            }
            if (moving instanceof Dir d && to.parent().isWithin(d)) {
                throw new FileSystemException(source.toString(), target.toString(), "a directory cannot be moved into itself");
            }
            if (to.node() != null) {
                if (!replaceExisting) {
                    throw new FileAlreadyExistsException(target.toString());
                }
                MemTree.checkReplaceable(moving, to.node(), target);
            }
            Instant now = Instant.now();
            // Not unlink: the node stays in the volume under its new name, its bytes still counted.
            from.parent().children.remove(from.name());
            from.parent().setModified(now);
            if (to.node() != null) {
                tree.unlink(to.parent(), to.name(), now);
            }
            MemTree.link(to.parent(), to.name(), moving, now);
        } finally {
            tree.writeLock.unlock();
        }
    }

    /** Sets the entry's own time: a link's, never what it points to. */
    @Override
    public void setLastModifiedTime(RemotePath path, Instant time) throws IOException {
        tree.writeLock.lock();
        try {
            tree.locate(path, false).existing(path).setModified(time);
        } finally {
            tree.writeLock.unlock();
        }
    }

    /** Sets the bits of what {@code path} leads to, as {@code chmod} does. */
    @Override
    public void setPermissions(RemotePath path, Set<PosixFilePermission> permissions) throws IOException {
        tree.writeLock.lock();
        try {
            tree.locate(path, true).existing(path).mode = (short) dev.remotepath.PosixModes.mode(permissions);
        } finally {
            tree.writeLock.unlock();
        }
    }

    @Override
    public void createSymbolicLink(RemotePath link, String target) throws IOException {
        if (target.isEmpty() || target.indexOf('\0') >= 0) {
            throw new FileSystemException(link.toString(), null, "a link's target must be a non-empty path without NUL");
        }
        tree.writeLock.lock();
        try {
            Found at = tree.vacant(link);
            Instant now = Instant.now();
            MemTree.link(at.parent(), at.name(), new Link(tree.newId(), now, target), now);
        } finally {
            tree.writeLock.unlock();
        }
    }

    @Override
    public String readSymbolicLink(RemotePath link) throws IOException {
        tree.readLock.lock();
        try {
            if (tree.locate(link, false).existing(link) instanceof Link l) {
                return l.target;
            }
            throw new NotLinkException(link.toString());
        } finally {
            tree.readLock.unlock();
        }
    }

    /** The path with every link resolved: the directories' own names up to the root. */
    @Override
    public RemotePath realPath(RemotePath path) throws IOException {
        List<String> names = new ArrayList<>();
        tree.readLock.lock();
        try {
            Found at = tree.locate(path, true);
            at.existing(path);
            if (at.parent() != null) {
                names.add(at.name());
                for (Dir d = at.parent(); !d.isRoot(); d = d.parent) {
                    names.add(d.name);
                }
            }
        } finally {
            tree.readLock.unlock();
        }
        RemotePath out = path.root();
        for (int i = names.size() - 1; i >= 0; i--) {
            out = out.child(names.get(i));
        }
        return out;
    }

    /**
     * Copies the bytes within the volume in one step under the lock: the copy appears whole,
     * with the source's listed time, or not at all (no temporary is needed).
     */
    @Override
    public boolean copyFile(RemotePath source, FileStat sourceStat, RemotePath target, boolean replaceExisting)
            throws IOException {
        tree.writeLock.lock();
        try {
            MemNode node = tree.locate(source, true).existing(source);
            if (!(node instanceof File original)) {
                throw new IsDirectoryException(source.toString());
            }
            Found to = tree.locate(target, false);
            if (to.parent() == null) {
                throw new FileAlreadyExistsException(target.toString());
            }
            if (to.node() != null) {
                if (!replaceExisting) {
                    throw new FileAlreadyExistsException(target.toString());
                }
                if (to.node() == original) {
                    throw new FileSystemException(source.toString(), target.toString(), "a file cannot be copied onto itself");
                }
                MemTree.checkReplaceable(original, to.node(), target);
            }
            tree.reserve(target, original.size);
            Instant now = Instant.now();
            File copy = original.copy(tree.newId(), now);
            copy.setModified(sourceStat.lastModified().orElseGet(original::modified));
            copy.mode = (short) (original.mode & ~UMASK); // as cp: the source's bits, less the umask
            if (to.node() != null) {
                tree.unlink(to.parent(), to.name(), now);
            }
            MemTree.link(to.parent(), to.name(), copy, now);
            return true;
        } finally {
            tree.writeLock.unlock();
        }
    }

    /** The volume's fixed capacity and what its files hold. */
    @Override
    public Optional<StoreSpace> storeSpace(RemotePath path) throws IOException {
        tree.readLock.lock();
        try {
            tree.locate(path, false).existing(path);
            long free = tree.capacity - tree.used();
            return Optional.of(new StoreSpace(tree.capacity, free, free));
        } finally {
            tree.readLock.unlock();
        }
    }

    /**
     * Fails when a stream this volume handed out is still open, naming each by its path and
     * whether it reads or writes: a test's check, after the code under test ran, that it closed
     * what it opened (as Okio's fake file system checks). A stream counts until it is closed,
     * whatever else happened to its file.
     *
     * @throws IllegalStateException naming the streams left open
     */
    public void checkNoOpenFiles() {
        java.util.List<String> left = tree.openStreams();
        if (!left.isEmpty()) {
            throw new IllegalStateException(left.size() + " stream(s) left open on " + uriPrefix() + ": "
                    + String.join(", ", left));
        }
    }

    @Override
    public boolean isOpen() {
        return tree.state.isOpen();
    }

    @Override
    public void close() throws IOException {
        if (tree.state.close()) {
            MemFileSystemProvider.forget(volume, this);
            tree.writeLock.lock();
            try {
                tree.clear();
            } finally {
                tree.writeLock.unlock();
            }
        }
    }

    @Override
    public String toString() {
        return "MemFileSystem[" + uriPrefix() + "]";
    }
}
