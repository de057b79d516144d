package dev.remotepath.local.linux;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.NameBytes;
import dev.remotepath.RemotePath;
import dev.remotepath.spi.DirectoryListing;
import dev.remotepath.spi.ListDetail;
import dev.remotepath.spi.ListedEntry;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Lists a directory the way {@code os.scandir} does: {@code getdents64} into a reused
 * off-heap buffer, types from {@code d_type}, and {@code statx} relative to the directory's
 * descriptor only for the entries the caller needs metadata of (and for {@code DT_UNKNOWN}).
 * Falls back from {@code statx} to {@code fstatat} once for good when a sandbox refuses it.
 * In a large directory the stats (about a microsecond each) are spread over up to
 * {@code remotepath.local.statThreads} virtual threads once the names are read.
 * Subdirectories are opened with {@code openat} on the parent's descriptor.
 */
public final class LinuxDirectoryLister {

    private static final int DENTS_BUFFER = 64 * 1024;
    private static final int STAT_BUFFER = 256;
    private static final int OPEN_FLAGS = LinuxSyscalls.O_RDONLY | LinuxSyscalls.O_DIRECTORY | LinuxSyscalls.O_CLOEXEC;
    private static final int STAT_FLAGS = LinuxSyscalls.AT_SYMLINK_NOFOLLOW | LinuxSyscalls.AT_NO_AUTOMOUNT;
    private static final int MAX_POOLED = 16;

    /** How many threads may stat one large directory: {@code remotepath.local.statThreads}, default min(4, cores). */
    public static final int DEFAULT_STAT_THREADS = Integer.getInteger("remotepath.local.statThreads",
            Math.min(4, Runtime.getRuntime().availableProcessors()));
    /** Below this many stats per thread, parallelism costs more than it saves. */
    private static final int PARALLEL_STAT_MIN = 256;

    private static final byte DT_UNKNOWN = 0;
    private static final byte DT_DIR = 4;
    private static final byte DT_REG = 8;
    private static final byte DT_LNK = 10;

    private static final int S_IFMT = 0170000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFLNK = 0120000;

    private static final FileStat FILE = FileStat.ofType(FileType.FILE);
    private static final FileStat DIRECTORY = FileStat.ofType(FileType.DIRECTORY);
    private static final FileStat SYMLINK = FileStat.ofType(FileType.SYMLINK);
    private static final FileStat OTHER = FileStat.ofType(FileType.OTHER);

    /** The permission set of each of the 512 mode values, built once. */
    /** One shared value per permission bit pattern, so a listed entry allocates none. */
    private static final List<Optional<Set<PosixFilePermission>>> PERMISSIONS = buildPermissionSets();

    private final LinuxSyscalls sys;
    private final ConcurrentLinkedDeque<Scratch> pool = new ConcurrentLinkedDeque<>();
    private volatile boolean useFstatat;

    /** Per-call native memory: the dirent buffer, a stat buffer and the errno capture. */
    private static final class Scratch {
        final MemorySegment dents;
        final MemorySegment stat;
        final MemorySegment capture;
        /** Names are at most 255 bytes (NAME_MAX); copied here before becoming a String. */
        final byte[] name = new byte[256];
        /** NUL-terminated names awaiting a stat; shared with stat workers, so not confined. */
        MemorySegment names = Arena.ofAuto().allocate(64 * 1024, 8);

        void ensureNames(long size) {
            if (size > names.byteSize()) {
                MemorySegment bigger = Arena.ofAuto().allocate(Math.max(size, names.byteSize() * 2), 8);
                MemorySegment.copy(names, 0, bigger, 0, names.byteSize());
                names = bigger;
            }
        }

        Scratch() {
            Arena arena = Arena.ofAuto();
            dents = arena.allocate(DENTS_BUFFER, 8);
            stat = arena.allocate(STAT_BUFFER, 8);
            capture = arena.allocate(LinuxSyscalls.CAPTURE_LAYOUT);
        }
    }

    private final int statThreads;

    public LinuxDirectoryLister(LinuxSyscalls sys) {
        this(sys, DEFAULT_STAT_THREADS);
    }

    /** A lister that spreads the stats of a large directory over at most {@code statThreads} threads. */
    public LinuxDirectoryLister(LinuxSyscalls sys, int statThreads) {
        if (statThreads < 1) {
            throw new IllegalArgumentException("statThreads must be at least 1: " + statThreads);
        }
        this.sys = sys;
        this.statThreads = statThreads;
    }

    /** Lists {@code dir} by its path bytes. */
    public DirectoryListing list(RemotePath dir, byte[] pathBytes, ListDetail detail) throws IOException {
        return open(dir, LinuxSyscalls.AT_FDCWD, pathBytes, detail);
    }

    /** Lists {@code dir}, a child named {@code nameBytes} of the directory {@code parent} has open. */
    public DirectoryListing listChild(DirectoryListing parent, RemotePath dir, byte[] nameBytes, ListDetail detail)
            throws IOException {
        if (parent instanceof Listing l && l.fd >= 0) {
            return open(dir, l.fd, nameBytes, detail);
        }
        return null;
    }

    private Scratch borrow() {
        Scratch s = pool.pollFirst();
        return s == null ? new Scratch() : s;
    }

    private void giveBack(Scratch s) {
        if (pool.size() < MAX_POOLED) {
            pool.offerFirst(s);
        }
    }

    private DirectoryListing open(RemotePath dir, int dirfd, byte[] pathBytes, ListDetail detail) throws IOException {
        Scratch s = borrow();
        try (Arena call = Arena.ofConfined()) {
            int fd;
            do {
                fd = sys.openat(s.capture, dirfd, LinuxSyscalls.cString(call, pathBytes), OPEN_FLAGS);
            } while (fd < 0 && LinuxSyscalls.errno(s.capture) == LinuxSyscalls.EINTR);
            if (fd < 0) {
                throw error(LinuxSyscalls.errno(s.capture), dir);
            }
            try {
                return new Listing(fd, readAll(s, fd, dir, detail));
            } catch (IOException | RuntimeException e) {
                sys.close(s.capture, fd);
                throw e;
            }
        } finally {
            giveBack(s);
        }
    }

    private List<ListedEntry> readAll(Scratch s, int fd, RemotePath dir, ListDetail detail) throws IOException {
        List<String> names = new ArrayList<>();
        List<FileStat> stats = new ArrayList<>(); // null: stat pending
        Pending pending = new Pending(s);
        MemorySegment buf = s.dents;
        while (true) {
            long n = sys.getdents64(s.capture, fd, buf, DENTS_BUFFER);
            if (n == 0) {
                break;
            }
            if (n < 0) {
                int errno = LinuxSyscalls.errno(s.capture);
                if (errno == LinuxSyscalls.EINTR) {
                    continue;
                }
                throw error(errno, dir);
            }
            long off = 0;
            while (off < n) {
                int reclen = buf.get(JAVA_SHORT_UNALIGNED, off + 16) & 0xffff;
                byte dtype = buf.get(JAVA_BYTE, off + 18);
                long nameOff = off + 19;
                int len = 0;
                while (buf.get(JAVA_BYTE, nameOff + len) != 0) {
                    len++;
                }
                if (!isDotOrDotDot(buf, nameOff, len)) {
                    byte[] raw = len <= s.name.length ? s.name : new byte[len];
                    MemorySegment.copy(buf, JAVA_BYTE, nameOff, raw, 0, len);
                    names.add(NameBytes.decode(raw, 0, len));
                    FileType type = typeOf(dtype);
                    if (type != null && !detail.wantsStat(type)) {
                        stats.add(typeOnly(type));
                    } else {
                        stats.add(null);
                        pending.add(stats.size() - 1, buf, nameOff, len);
                    }
                }
                off += reclen;
            }
        }
        statPending(s, fd, pending, stats, names, detail == ListDetail.ALL_STATS);
        List<ListedEntry> out = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            FileStat st = stats.get(i);
            if (st != VANISHED) {
                out.add(new ListedEntry(names.get(i), st));
            }
        }
        return out;
    }

    /** Marks an entry deleted between getdents64 and its stat: left out of the listing. */
    private static final FileStat VANISHED = FileStat.builder(FileType.OTHER).size(0).build();

    /** Names awaiting a stat, copied NUL-terminated out of the dirent buffer (which the next read reuses). */
    private static final class Pending {
        final Scratch s;
        int count;
        int[] index = new int[64];
        long[] offset = new long[64];
        long used;

        Pending(Scratch s) {
            this.s = s;
        }

        void add(int entryIndex, MemorySegment buf, long nameOff, int len) {
            if (count == index.length) {
                index = java.util.Arrays.copyOf(index, count * 2);
                offset = java.util.Arrays.copyOf(offset, count * 2);
            }
            s.ensureNames(used + len + 1);
            MemorySegment.copy(buf, nameOff, s.names, used, len);
            s.names.set(JAVA_BYTE, used + len, (byte) 0);
            index[count] = entryIndex;
            offset[count] = used;
            count++;
            used += len + 1;
        }
    }

    private void statPending(Scratch s, int fd, Pending p, List<FileStat> stats, List<String> names, boolean full)
            throws IOException {
        int chunks = Math.min(statThreads, p.count / PARALLEL_STAT_MIN);
        if (chunks <= 1) {
            statRange(s.stat, s.capture, fd, p, 0, p.count, stats, names, full);
            return;
        }
        // statx dominates a full listing (about a microsecond each here): spread it over cores.
        int per = (p.count + chunks - 1) / chunks;
        List<Thread> workers = new ArrayList<>();
        IOException[] failures = new IOException[chunks];
        for (int c = 1; c < chunks; c++) {
            int from = c * per;
            int to = Math.min(p.count, from + per);
            int slot = c;
            workers.add(Thread.ofVirtual().start(() -> {
                Arena arena = Arena.ofAuto();
                try {
                    statRange(arena.allocate(STAT_BUFFER, 8), arena.allocate(LinuxSyscalls.CAPTURE_LAYOUT), fd, p,
                            from, to, stats, names, full);
                } catch (IOException e) {
                    failures[slot] = e;
                }
            }));
        }
        statRange(s.stat, s.capture, fd, p, 0, Math.min(per, p.count), stats, names, full);
        for (Thread t : workers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while listing");
            }
        }
        for (IOException f : failures) {
            if (f != null) {
                throw f;
            }
        }
    }

    /** Stats pending entries [from, to); each writes only its own slots of {@code stats}. */
    private void statRange(MemorySegment statBuf, MemorySegment capture, int fd, Pending p, int from, int to,
            List<FileStat> stats, List<String> names, boolean full) throws IOException {
        for (int i = from; i < to; i++) {
            int idx = p.index[i];
            FileStat st = statAt(statBuf, capture, fd, p.s.names.asSlice(p.offset[i]), names.get(idx), full);
            stats.set(idx, st == null ? VANISHED : st);
        }
    }

    private static boolean isDotOrDotDot(MemorySegment buf, long off, int len) {
        return (len == 1 && buf.get(JAVA_BYTE, off) == '.')
                || (len == 2 && buf.get(JAVA_BYTE, off) == '.' && buf.get(JAVA_BYTE, off + 1) == '.');
    }

    private static FileType typeOf(byte dtype) {
        return switch (dtype) {
            case DT_REG -> FileType.FILE;
            case DT_DIR -> FileType.DIRECTORY;
            case DT_LNK -> FileType.SYMLINK;
            case DT_UNKNOWN -> null;
            default -> FileType.OTHER;
        };
    }

    private static FileStat typeOnly(FileType t) {
        return switch (t) {
            case FILE -> FILE;
            case DIRECTORY -> DIRECTORY;
            case SYMLINK -> SYMLINK;
            case OTHER -> OTHER;
        };
    }

    private FileStat statAt(MemorySegment statBuf, MemorySegment capture, int fd, MemorySegment cName, String name,
            boolean full) throws IOException {
        if (!useFstatat) {
            int r = sys.statx(capture, fd, cName, STAT_FLAGS, LinuxSyscalls.STATX_BASIC_STATS, statBuf);
            if (r == 0) {
                return fromStatx(statBuf, full);
            }
            int errno = LinuxSyscalls.errno(capture);
            if (errno == LinuxSyscalls.ENOENT) {
                return null;
            }
            if (errno != LinuxSyscalls.ENOSYS && errno != LinuxSyscalls.EPERM) {
                throw new FileSystemException(name, null, "statx: " + LinuxSyscalls.errnoName(errno));
            }
            useFstatat = true; // seccomp sandboxes refuse statx: use the older call from now on
        }
        int r = sys.fstatat(capture, fd, cName, statBuf, LinuxSyscalls.AT_SYMLINK_NOFOLLOW);
        if (r == 0) {
            return fromStat(statBuf, full);
        }
        int errno = LinuxSyscalls.errno(capture);
        if (errno == LinuxSyscalls.ENOENT) {
            return null;
        }
        throw new FileSystemException(name, null, "fstatat: " + LinuxSyscalls.errnoName(errno));
    }

    private FileStat fromStatx(MemorySegment b, boolean full) {
        int mode = b.get(JAVA_SHORT_UNALIGNED, 28) & 0xffff;
        long size = b.get(JAVA_LONG_UNALIGNED, 40);
        Instant mtime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 112), b.get(JAVA_INT_UNALIGNED, 120) & 0xffffffffL);
        Instant ctime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 96), b.get(JAVA_INT_UNALIGNED, 104) & 0xffffffffL);
        if (!full) {
            return lean(mode, size, mtime, ctime);
        }
        long ino = b.get(JAVA_LONG_UNALIGNED, 32);
        Instant atime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 64), b.get(JAVA_INT_UNALIGNED, 72) & 0xffffffffL);
        long major = b.get(JAVA_INT_UNALIGNED, 136) & 0xffffffffL;
        long minor = b.get(JAVA_INT_UNALIGNED, 140) & 0xffffffffL;
        long dev = ((major & 0xfffL) << 8) | ((major & 0xfffff000L) << 32) | (minor & 0xffL) | ((minor & 0xffffff00L) << 12);
        return build(mode, dev, ino, size, atime, mtime, ctime);
    }

    private FileStat fromStat(MemorySegment b, boolean full) {
        int mode = b.get(JAVA_INT_UNALIGNED, sys.aarch64 ? 16 : 24);
        long size = b.get(JAVA_LONG_UNALIGNED, 48);
        Instant mtime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 88), b.get(JAVA_LONG_UNALIGNED, 96));
        Instant ctime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 104), b.get(JAVA_LONG_UNALIGNED, 112));
        if (!full) {
            return lean(mode, size, mtime, ctime);
        }
        long dev = b.get(JAVA_LONG_UNALIGNED, 0);
        long ino = b.get(JAVA_LONG_UNALIGNED, 8);
        Instant atime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 72), b.get(JAVA_LONG_UNALIGNED, 80));
        return build(mode, dev, ino, size, atime, mtime, ctime);
    }

    /**
     * What FILE_STATS promises (type, size, mtime) plus what costs nothing more: the permissions,
     * and the ctime, which lets a sync into S3 tell a file unchanged since its upload without a
     * HEAD (docs/sync.md).
     */
    private static FileStat lean(int mode, long size, Instant mtime, Instant ctime) {
        return FileStat.listed(typeOf(mode), OptionalLong.of(size), true, Optional.of(mtime), FileStat.EXACT,
                PERMISSIONS.get(mode & 0777), Optional.of(ctime));
    }

    private static FileType typeOf(int mode) {
        int fmt = mode & S_IFMT;
        return fmt == S_IFREG ? FileType.FILE : fmt == S_IFDIR ? FileType.DIRECTORY
                : fmt == S_IFLNK ? FileType.SYMLINK : FileType.OTHER;
    }

    private static FileStat build(int mode, long dev, long ino, long size, Instant atime, Instant mtime, Instant ctime) {
        return FileStat.builder(typeOf(mode)).size(size).lastModified(mtime, FileStat.EXACT).lastAccess(atime)
                .changeTime(ctime).permissions(PERMISSIONS.get(mode & 0777).orElseThrow()).fileKey(fileKey(dev, ino)).build();
    }

    /** The same text NIO's {@code UnixFileKey.toString()} gives, so both listers agree. */
    public static String fileKey(long dev, long ino) {
        return "(dev=" + Long.toHexString(dev) + ",ino=" + ino + ")";
    }

    private static IOException error(int errno, RemotePath dir) {
        String p = dir.toString();
        return switch (errno) {
            case LinuxSyscalls.ENOENT -> new NoSuchFileException(p);
            case LinuxSyscalls.ENOTDIR -> new NotDirectoryException(p);
            case LinuxSyscalls.EACCES, LinuxSyscalls.EPERM -> new AccessDeniedException(p);
            default -> new FileSystemException(p, null, LinuxSyscalls.errnoName(errno));
        };
    }

    private static List<Optional<Set<PosixFilePermission>>> buildPermissionSets() {
        // The Optionals made once too: a listing's entries share them.
        List<Optional<Set<PosixFilePermission>>> sets = new ArrayList<>(512);
        for (int m = 0; m < 512; m++) {
            sets.add(Optional.of(dev.remotepath.PosixModes.permissions(m)));
        }
        return List.copyOf(sets);
    }

    /** A listing read in full, still holding its descriptor for {@code openat} of children. */
    private final class Listing implements DirectoryListing {
        private int fd;
        private final List<ListedEntry> entries;
        private int next;

        Listing(int fd, List<ListedEntry> entries) {
            this.fd = fd;
            this.entries = entries;
        }

        @Override
        public boolean hasNext() {
            return next < entries.size();
        }

        @Override
        public ListedEntry next() {
            return entries.get(next++);
        }

        @Override
        public int size() {
            return entries.size();
        }

        @Override
        public void close() {
            if (fd >= 0) {
                Scratch s = borrow();
                sys.close(s.capture, fd);
                giveBack(s);
                fd = -1;
            }
        }
    }
}
