package dev.remotepath.local.linux;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * The few glibc calls the directory lister needs, bound once through the FFM API. Every call
 * captures {@code errno} into a caller-supplied segment (allocated once per lister buffer), so
 * nothing here allocates per call.
 *
 * <p>Linux on x86-64 and AArch64 only: {@link #load()} refuses anything else, and the caller
 * falls back to NIO.
 */
public final class LinuxSyscalls {

    public static final int AT_FDCWD = -100;
    public static final int O_RDONLY = 0;
    public static final int O_DIRECTORY = 0x10000;
    public static final int O_CLOEXEC = 0x80000;
    public static final int O_NOFOLLOW = 0x20000;
    public static final int AT_SYMLINK_NOFOLLOW = 0x100;
    public static final int AT_NO_AUTOMOUNT = 0x800;
    public static final int STATX_BASIC_STATS = 0x7ff;

    public static final int ENOENT = 2;
    public static final int EPERM = 1;
    public static final int EINTR = 4;
    public static final int EACCES = 13;
    public static final int ENOTDIR = 20;
    public static final int ELOOP = 40;
    public static final int ENOSYS = 38;
    public static final int EMFILE = 24;

    /** Size of the errno capture state. */
    public static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    final MethodHandle openat;
    final MethodHandle close;
    final MethodHandle getdents64;
    final MethodHandle statx;
    final MethodHandle fstatat;
    final boolean aarch64;

    private LinuxSyscalls(boolean aarch64) {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        this.aarch64 = aarch64;
        // openat is variadic (mode follows flags); declaring the mode as the first variadic
        // argument is what the ABI requires even though it is ignored without O_CREAT.
        openat = linker.downcallHandle(libc.find("openat").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
                errno, Linker.Option.firstVariadicArg(3));
        close = linker.downcallHandle(libc.find("close").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno);
        getdents64 = linker.downcallHandle(libc.find("getdents64").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
        statx = linker.downcallHandle(libc.find("statx").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS), errno);
        fstatat = linker.downcallHandle(libc.find("fstatat").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), errno);
    }

    /**
     * Binds the calls, or explains why this platform cannot have them.
     *
     * @throws UnsupportedOperationException off Linux x86-64/AArch64
     * @throws IllegalCallerException        when native access is denied to this module
     */
    public static LinuxSyscalls load() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.equals("linux")) {
            throw new UnsupportedOperationException("not Linux: " + os);
        }
        boolean aarch64 = arch.equals("aarch64") || arch.equals("arm64");
        if (!aarch64 && !arch.equals("amd64") && !arch.equals("x86_64")) {
            throw new UnsupportedOperationException("unsupported architecture: " + arch);
        }
        return new LinuxSyscalls(aarch64);
    }

    /** The errno a call left in {@code capture}. */
    public static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    /** A NUL-terminated copy of {@code bytes} in {@code arena}. */
    static MemorySegment cString(Arena arena, byte[] bytes) {
        MemorySegment s = arena.allocate(bytes.length + 1L);
        MemorySegment.copy(bytes, 0, s, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes.length);
        s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, bytes.length, (byte) 0);
        return s;
    }

    int openat(MemorySegment capture, int dirfd, MemorySegment path, int flags) {
        try {
            return (int) openat.invokeExact(capture, dirfd, path, flags, 0);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    int close(MemorySegment capture, int fd) {
        try {
            return (int) close.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    long getdents64(MemorySegment capture, int fd, MemorySegment buf, long size) {
        try {
            return (long) getdents64.invokeExact(capture, fd, buf, size);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    int statx(MemorySegment capture, int dirfd, MemorySegment name, int flags, int mask, MemorySegment buf) {
        try {
            return (int) statx.invokeExact(capture, dirfd, name, flags, mask, buf);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    int fstatat(MemorySegment capture, int dirfd, MemorySegment name, MemorySegment buf, int flags) {
        try {
            return (int) fstatat.invokeExact(capture, dirfd, name, buf, flags);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The symbolic name of common errno values, for messages. */
    public static String errnoName(int errno) {
        return switch (errno) {
            case EPERM -> "Operation not permitted";
            case ENOENT -> "No such file or directory";
            case EINTR -> "Interrupted system call";
            case EACCES -> "Permission denied";
            case ENOTDIR -> "Not a directory";
            case EMFILE -> "Too many open files";
            case ELOOP -> "Too many levels of symbolic links";
            case ENOSYS -> "Function not implemented";
            case 36 -> "File name too long";
            case 5 -> "Input/output error";
            case 12 -> "Cannot allocate memory";
            case 23 -> "Too many open files in system";
            default -> "errno " + errno;
        };
    }
}
