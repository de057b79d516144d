package dev.remotepath.mem;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.mem.MemNode.File;
import dev.remotepath.mem.MemNode.Link;
import dev.remotepath.spi.ListDetail;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/** A mem node's metadata as {@link FileStat}s. Called under the volume's lock. */
final class MemStats {

    private static final PosixFilePermission[] BITS = PosixFilePermission.values(); // OWNER_READ first: bit 8
    /** One immutable set per mode, made once: a listing of every entry's bits allocates none. */
    private static final Set<PosixFilePermission>[] SETS = permissionSets();

    private MemStats() {
    }

    /** A full stat: type, size, time to the nanosecond, permission bits and the node's key. */
    static FileStat full(MemNode node) {
        return FileStat.builder(node.type())
                .size(size(node))
                .lastModified(node.modified(), FileStat.EXACT)
                .permissions(SETS[node.mode & 0777])
                .fileKey(Long.toString(node.id))
                .build();
    }

    /** What a listing at {@code detail} carries for {@code node}. */
    static FileStat listed(MemNode node, ListDetail detail) {
        if (detail == ListDetail.ALL_STATS) {
            return full(node);
        }
        FileType type = node.type();
        if (!detail.wantsStat(type)) {
            return FileStat.ofType(type);
        }
        return FileStat.listed(type, OptionalLong.of(size(node)), true, Optional.of(node.modified()), FileStat.EXACT,
                Optional.of(SETS[node.mode & 0777]));
    }

    /** A file's bytes, a link's target length (as {@code lstat} gives it), 0 for a directory. */
    private static long size(MemNode node) {
        return node instanceof File f ? f.size : node instanceof Link l ? l.target.length() : 0;
    }

    /** The {@code rwxrwxrwx} bits of a set of permissions. */
    static int mode(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (PosixFilePermission p : permissions) {
            mode |= 1 << (8 - p.ordinal());
        }
        return mode;
    }

    @SuppressWarnings("unchecked")
    private static Set<PosixFilePermission>[] permissionSets() {
        Set<PosixFilePermission>[] sets = new Set[512];
        for (int mode = 0; mode < sets.length; mode++) {
            EnumSet<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
            for (PosixFilePermission p : BITS) {
                if ((mode & (1 << (8 - p.ordinal()))) != 0) {
                    set.add(p);
                }
            }
            sets[mode] = Set.copyOf(set);
        }
        return sets;
    }
}
