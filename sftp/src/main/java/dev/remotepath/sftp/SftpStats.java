package dev.remotepath.sftp;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * SFTP version 3 attributes as a {@link FileStat} and back: times in whole seconds (the
 * protocol's precision), permissions from the mode's low nine bits, owners as numbers only.
 */
final class SftpStats {

    private static final Duration PRECISION = Duration.ofSeconds(1);

    private SftpStats() {
    }

    static FileStat toStat(SftpWire.Attributes a) {
        FileType type = switch (a.kind()) {
            case FILE -> FileType.FILE;
            case DIRECTORY -> FileType.DIRECTORY;
            case SYMLINK -> FileType.SYMLINK;
            case OTHER -> FileType.OTHER;
        };
        FileStat.Builder b = FileStat.builder(type);
        if (a.size() >= 0) {
            b.size(a.size());
        }
        if (a.mtimeSeconds() >= 0) {
            b.lastModified(Instant.ofEpochSecond(a.mtimeSeconds()), PRECISION);
        }
        if (a.atimeSeconds() >= 0) {
            b.lastAccess(Instant.ofEpochSecond(a.atimeSeconds()));
        }
        if (a.hasPermissions()) {
            b.permissions(permissions(a.permissions()));
        }
        if (a.hasOwners()) {
            // Version 3 has numbers only (the names in READDIR's longname are display text).
            b.owner(Long.toString(a.uid())).group(Long.toString(a.gid()));
        }
        return b.build();
    }

    static Set<PosixFilePermission> permissions(int mode) {
        EnumSet<PosixFilePermission> s = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ};
        for (int bit = 0; bit < 9; bit++) {
            if ((mode & (1 << bit)) != 0) {
                s.add(order[bit]);
            }
        }
        return s;
    }

    static int mode(Set<PosixFilePermission> perms) {
        int m = 0;
        for (PosixFilePermission p : perms) {
            m |= switch (p) {
                case OWNER_READ -> 0400;
                case OWNER_WRITE -> 0200;
                case OWNER_EXECUTE -> 0100;
                case GROUP_READ -> 040;
                case GROUP_WRITE -> 020;
                case GROUP_EXECUTE -> 010;
                case OTHERS_READ -> 04;
                case OTHERS_WRITE -> 02;
                case OTHERS_EXECUTE -> 01;
            };
        }
        return m;
    }
}
