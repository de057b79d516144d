package dev.remotepath.mem;

import dev.remotepath.IsDirectoryException;
import dev.remotepath.RemotePath;
import dev.remotepath.mem.MemNode.Dir;
import dev.remotepath.mem.MemNode.File;
import dev.remotepath.mem.MemNode.Link;
import dev.remotepath.spi.OpenState;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The tree of one mem volume and the POSIX rules over it: names are looked up component by
 * component, symbolic links followed as the kernel does ({@code ..} from where a link led, at
 * most {@value #MAX_LINKS} of them per lookup), and every change made under one write lock, so
 * a rename or a replacing copy is atomic and a listing never sees half of one. Reads share the
 * lock. Errors are {@code java.nio.file} exceptions naming the RemotePath URI asked for.
 */
final class MemTree {

    /** As Linux's {@code MAXSYMLINKS}: more links than this in one lookup is a loop. */
    static final int MAX_LINKS = 40;

    final ReentrantReadWriteLock.ReadLock readLock;
    final ReentrantReadWriteLock.WriteLock writeLock;
    final OpenState state = new OpenState();
    final long capacity;
    private final Dir root;
    /** The streams handed out and not closed yet, for {@link MemFileSystem#checkNoOpenFiles()}. */
    private final java.util.Set<java.io.Closeable> open = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private long nextId = 1;
    private long used;

    MemTree(long capacity) {
        ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        this.readLock = lock.readLock();
        this.writeLock = lock.writeLock();
        this.capacity = capacity;
        this.root = new Dir(nextId++, Instant.now(), null, "");
    }

    /**
     * Where a path leads: the directory that holds its last name, that name, and the node there
     * (null when there is none). The root is the only path with no parent.
     */
    record Found(Dir parent, String name, MemNode node) {
        static Found of(Dir dir) {
            return dir.isRoot() ? new Found(null, "", dir) : new Found(dir.parent, dir.name, dir);
        }

        MemNode existing(RemotePath p) throws NoSuchFileException {
            if (node == null) {
                throw new NoSuchFileException(p.toString());
            }
            return node;
        }
    }

    /**
     * Looks {@code p} up. Links on the way are always followed; a link at the end only when
     * {@code followLast}. A missing last name is not an error here (a create needs its parent);
     * a missing or non-directory parent is a {@link NoSuchFileException}, as POSIX's
     * {@code ENOENT}/{@code ENOTDIR} read on every backend.
     */
    Found locate(RemotePath p, boolean followLast) throws IOException {
        state.requireOpen();
        ArrayDeque<String> todo = new ArrayDeque<>();
        pushFront(todo, p.pathString());
        Dir dir = root;
        int links = 0;
        for (String name; (name = todo.pollFirst()) != null; ) {
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                dir = dir.parent;
                continue;
            }
            MemNode child = dir.children.get(name);
            boolean last = todo.isEmpty();
            if (child instanceof Link link && (!last || followLast)) {
                if (++links > MAX_LINKS) {
                    throw new FileSystemLoopException(p.toString());
                }
                pushFront(todo, link.target);
                if (link.target.startsWith("/")) {
                    dir = root;
                }
                continue;
            }
            if (last) {
                return new Found(dir, name, child);
            }
            if (child == null) {
                throw new NoSuchFileException(p.toString());
            }
            if (!(child instanceof Dir sub)) {
                throw new NoSuchFileException(p.toString(), null, "a parent is not a directory");
            }
            dir = sub;
        }
        return Found.of(dir);
    }

    private static void pushFront(ArrayDeque<String> todo, String path) {
        int end = path.length();
        for (int i = end - 1; i >= -1; i--) {
            if (i < 0 || path.charAt(i) == '/') {
                if (end > i + 1) {
                    todo.addFirst(path.substring(i + 1, end));
                }
                end = i;
            }
        }
    }

    /** A new id for a node: never reused while the volume lives. */
    long newId() {
        return nextId++;
    }

    /** Adds {@code node} under {@code name}, the directory's time moving as POSIX moves it. */
    static void link(Dir parent, String name, MemNode node, Instant now) {
        parent.children.put(name, node);
        if (node instanceof Dir d) {
            d.parent = parent;
            d.name = name;
        } else if (node instanceof File f) {
            f.linked = true;
        }
        parent.setModified(now);
    }

    /** Removes the entry {@code name} of {@code parent}; its bytes leave the volume's count. */
    void unlink(Dir parent, String name, Instant now) {
        MemNode gone = parent.children.remove(name);
        if (gone instanceof File f) {
            used -= f.size;
            f.linked = false;
        }
        parent.setModified(now);
    }

    /**
     * Counts {@code bytes} more in use, or fails naming {@code p} when the volume's capacity
     * cannot take them (a full disk's error; nothing is written). Under the write lock.
     */
    void reserve(RemotePath p, long bytes) throws FileSystemException {
        if (bytes > capacity - used) {
            throw new FileSystemException(p.toString(), null, "no space left on the volume ("
                    + capacity + " bytes, " + used + " in use)");
        }
        used += bytes;
    }

    void release(long bytes) {
        used -= bytes;
    }

    long used() {
        return used;
    }

    /** Refuses what would replace a directory with a file or a directory with a non-empty one. */
    static void checkReplaceable(MemNode replacing, MemNode replaced, RemotePath target)
            throws IOException {
        if (replaced instanceof Dir d) {
            if (!(replacing instanceof Dir)) {
                throw new IsDirectoryException(target.toString());
            }
            if (!d.children.isEmpty()) {
                throw new DirectoryNotEmptyException(target.toString());
            }
        } else if (replacing instanceof Dir) {
            throw new NotDirectoryException(target.toString());
        }
    }

    /** Creates an entry at {@code p}, which must not exist, not even as a dangling link. */
    Found vacant(RemotePath p) throws IOException {
        Found f = locate(p, false);
        if (f.parent() == null || f.node() != null) {
            throw new FileAlreadyExistsException(p.toString());
        }
        return f;
    }

    void opened(java.io.Closeable stream) {
        open.add(stream);
    }

    void closed(java.io.Closeable stream) {
        open.remove(stream);
    }

    /** The streams still open, named by path and direction, in no order. */
    java.util.List<String> openStreams() {
        return open.stream().map(Object::toString).sorted().toList();
    }

    /** Drops every node: a closed volume's memory is free at once, whoever still holds it. */
    void clear() {
        root.children.clear();
        used = 0;
    }
}
