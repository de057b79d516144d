package dev.remotepath;

import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * The {@code rwxrwxrwx} bits of a POSIX {@code st_mode} as {@link PosixFilePermission} sets and
 * back, for backends whose wire or disk gives a mode (local {@code statx}, SFTP attributes, zip
 * and tar headers, mem). A set is made once per mode: a listing of many entries allocates none.
 */
public final class PosixModes {

    /** The permission of each bit, bit 0 ({@code 0001}, others' execute) first. */
    private static final PosixFilePermission[] BY_BIT = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};

    @SuppressWarnings("unchecked")
    private static final Set<PosixFilePermission>[] SETS = new Set[512];

    static {
        for (int mode = 0; mode < SETS.length; mode++) {
            EnumSet<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
            for (int bit = 0; bit < 9; bit++) {
                if ((mode & (1 << bit)) != 0) {
                    set.add(BY_BIT[bit]);
                }
            }
            SETS[mode] = Set.copyOf(set);
        }
    }

    private PosixModes() {
    }

    /** The permissions of {@code mode}'s low nine bits (file type, setuid and sticky bits are ignored), immutable. */
    public static Set<PosixFilePermission> permissions(int mode) {
        return SETS[mode & 0777];
    }

    /** The {@code rwxrwxrwx} bits of {@code permissions}. */
    public static int mode(Set<PosixFilePermission> permissions) {
        int mode = 0;
        for (PosixFilePermission p : permissions) {
            for (int bit = 0; bit < 9; bit++) {
                if (BY_BIT[bit] == p) {
                    mode |= 1 << bit;
                }
            }
        }
        return mode;
    }
}
