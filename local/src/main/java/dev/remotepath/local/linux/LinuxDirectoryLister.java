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
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Lists a directory the way {@code os.scandir} does: {@code getdents64} into a reused
 * off-heap buffer, types from {@code d_type}, and {@code statx} relative to the directory's
 * descriptor only for the entries the caller needs metadata of (and for {@code DT_UNKNOWN}).
 * Falls back from {@code statx} to {@code fstatat} once for good when a sandbox refuses it.
 * Subdirectories are opened with {@code openat} on the parent's descriptor.
 */
public final class LinuxDirectoryLister {

    private static final int DENTS_BUFFER = 64 * 1024;
    private static final int STAT_BUFFER = 256;
    private static final int OPEN_FLAGS = LinuxSyscalls.O_RDONLY | LinuxSyscalls.O_DIRECTORY | LinuxSyscalls.O_CLOEXEC;
    private static final int STAT_FLAGS = LinuxSyscalls.AT_SYMLINK_NOFOLLOW | LinuxSyscalls.AT_NO_AUTOMOUNT;
    private static final int MAX_POOLED = 16;

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
    private static final List<Set<PosixFilePermission>> PERMISSIONS = buildPermissionSets();

    private final LinuxSyscalls sys;
    private final ConcurrentLinkedDeque<Scratch> pool = new ConcurrentLinkedDeque<>();
    private volatile boolean useFstatat;

    /** Per-call native memory: the dirent buffer, a stat buffer and the errno capture. */
    private static final class Scratch {
        final MemorySegment dents;
        final MemorySegment stat;
        final MemorySegment capture;

        Scratch() {
            Arena arena = Arena.ofAuto();
            dents = arena.allocate(DENTS_BUFFER, 8);
            stat = arena.allocate(STAT_BUFFER, 8);
            capture = arena.allocate(LinuxSyscalls.CAPTURE_LAYOUT);
        }
    }

    public LinuxDirectoryLister(LinuxSyscalls sys) {
        this.sys = sys;
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

    private DirectoryListing open(RemotePath dir, int dirfd, byte[] pathBytes, ListDetail detail) throws IOException {
        Scratch s = pool.pollFirst();
        if (s == null) {
            s = new Scratch();
        }
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
            if (pool.size() < MAX_POOLED) {
                pool.offerFirst(s);
            }
        }
    }

    private List<ListedEntry> readAll(Scratch s, int fd, RemotePath dir, ListDetail detail) throws IOException {
        List<ListedEntry> out = new ArrayList<>();
        MemorySegment buf = s.dents;
        while (true) {
            long n = sys.getdents64(s.capture, fd, buf, DENTS_BUFFER);
            if (n == 0) {
                return out;
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
                byte type = buf.get(JAVA_BYTE, off + 18);
                long nameOff = off + 19;
                int len = 0;
                while (buf.get(JAVA_BYTE, nameOff + len) != 0) {
                    len++;
                }
                if (!isDotOrDotDot(buf, nameOff, len)) {
                    ListedEntry e = entry(s, fd, buf, nameOff, len, type, detail);
                    if (e != null) {
                        out.add(e);
                    }
                }
                off += reclen;
            }
        }
    }

    private static boolean isDotOrDotDot(MemorySegment buf, long off, int len) {
        return (len == 1 && buf.get(JAVA_BYTE, off) == '.')
                || (len == 2 && buf.get(JAVA_BYTE, off) == '.' && buf.get(JAVA_BYTE, off + 1) == '.');
    }

    /** The entry, or null when it vanished between getdents64 and statx. */
    private ListedEntry entry(Scratch s, int fd, MemorySegment buf, long nameOff, int len, byte dtype, ListDetail detail)
            throws IOException {
        byte[] raw = new byte[len];
        MemorySegment.copy(buf, JAVA_BYTE, nameOff, raw, 0, len);
        String name = NameBytes.decode(raw, 0, len);
        FileType type = switch (dtype) {
            case DT_REG -> FileType.FILE;
            case DT_DIR -> FileType.DIRECTORY;
            case DT_LNK -> FileType.SYMLINK;
            case DT_UNKNOWN -> null;
            default -> FileType.OTHER;
        };
        if (type != null && !detail.wantsStat(type)) {
            return new ListedEntry(name, typeOnly(type));
        }
        FileStat stat = statAt(s, fd, buf.asSlice(nameOff, len + 1L), name);
        return stat == null ? null : new ListedEntry(name, stat);
    }

    private static FileStat typeOnly(FileType t) {
        return switch (t) {
            case FILE -> FILE;
            case DIRECTORY -> DIRECTORY;
            case SYMLINK -> SYMLINK;
            case OTHER -> OTHER;
        };
    }

    private FileStat statAt(Scratch s, int fd, MemorySegment cName, String name) throws IOException {
        if (!useFstatat) {
            int r = sys.statx(s.capture, fd, cName, STAT_FLAGS, LinuxSyscalls.STATX_BASIC_STATS, s.stat);
            if (r == 0) {
                return fromStatx(s.stat);
            }
            int errno = LinuxSyscalls.errno(s.capture);
            if (errno == LinuxSyscalls.ENOENT) {
                return null;
            }
            if (errno != LinuxSyscalls.ENOSYS && errno != LinuxSyscalls.EPERM) {
                throw new FileSystemException(name, null, "statx: " + LinuxSyscalls.errnoName(errno));
            }
            useFstatat = true; // seccomp sandboxes refuse statx: use the older call from now on
        }
        int r = sys.fstatat(s.capture, fd, cName, s.stat, LinuxSyscalls.AT_SYMLINK_NOFOLLOW);
        if (r == 0) {
            return fromStat(s.stat);
        }
        int errno = LinuxSyscalls.errno(s.capture);
        if (errno == LinuxSyscalls.ENOENT) {
            return null;
        }
        throw new FileSystemException(name, null, "fstatat: " + LinuxSyscalls.errnoName(errno));
    }

    private FileStat fromStatx(MemorySegment b) {
        int mode = b.get(JAVA_SHORT_UNALIGNED, 28) & 0xffff;
        long ino = b.get(JAVA_LONG_UNALIGNED, 32);
        long size = b.get(JAVA_LONG_UNALIGNED, 40);
        Instant atime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 64), b.get(JAVA_INT_UNALIGNED, 72) & 0xffffffffL);
        Instant ctime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 96), b.get(JAVA_INT_UNALIGNED, 104) & 0xffffffffL);
        Instant mtime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 112), b.get(JAVA_INT_UNALIGNED, 120) & 0xffffffffL);
        long major = b.get(JAVA_INT_UNALIGNED, 136) & 0xffffffffL;
        long minor = b.get(JAVA_INT_UNALIGNED, 140) & 0xffffffffL;
        long dev = ((major & 0xfffL) << 8) | ((major & 0xfffff000L) << 32) | (minor & 0xffL) | ((minor & 0xffffff00L) << 12);
        return build(mode, dev, ino, size, atime, mtime, ctime);
    }

    private FileStat fromStat(MemorySegment b) {
        int mode = b.get(JAVA_INT_UNALIGNED, sys.aarch64 ? 16 : 24);
        long dev = b.get(JAVA_LONG_UNALIGNED, 0);
        long ino = b.get(JAVA_LONG_UNALIGNED, 8);
        long size = b.get(JAVA_LONG_UNALIGNED, 48);
        Instant atime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 72), b.get(JAVA_LONG_UNALIGNED, 80));
        Instant mtime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 88), b.get(JAVA_LONG_UNALIGNED, 96));
        Instant ctime = Instant.ofEpochSecond(b.get(JAVA_LONG_UNALIGNED, 104), b.get(JAVA_LONG_UNALIGNED, 112));
        return build(mode, dev, ino, size, atime, mtime, ctime);
    }

    private static FileStat build(int mode, long dev, long ino, long size, Instant atime, Instant mtime, Instant ctime) {
        int fmt = mode & S_IFMT;
        FileType type = fmt == S_IFREG ? FileType.FILE : fmt == S_IFDIR ? FileType.DIRECTORY
                : fmt == S_IFLNK ? FileType.SYMLINK : FileType.OTHER;
        return FileStat.builder(type)
                .size(size)
                .lastModified(mtime, FileStat.EXACT)
                .lastAccess(atime)
                .changeTime(ctime)
                .permissions(PERMISSIONS.get(mode & 0777))
                .fileKey(fileKey(dev, ino))
                .build();
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

    private static List<Set<PosixFilePermission>> buildPermissionSets() {
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ};
        List<Set<PosixFilePermission>> sets = new ArrayList<>(512);
        for (int m = 0; m < 512; m++) {
            EnumSet<PosixFilePermission> s = EnumSet.noneOf(PosixFilePermission.class);
            for (int bit = 0; bit < 9; bit++) {
                if ((m & (1 << bit)) != 0) {
                    s.add(order[bit]);
                }
            }
            sets.add(Set.copyOf(s));
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
        public void close() {
            if (fd >= 0) {
                try (Arena a = Arena.ofConfined()) {
                    sys.close(a.allocate(LinuxSyscalls.CAPTURE_LAYOUT), fd);
                }
                fd = -1;
            }
        }
    }
}
