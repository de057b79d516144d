package dev.remotepath.sftp;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import java.time.Duration;
import java.time.Instant;

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
            b.permissions(dev.remotepath.PosixModes.permissions(a.permissions()));
        }
        if (a.hasOwners()) {
            // Version 3 has numbers only (the names in READDIR's longname are display text).
            b.owner(Long.toString(a.uid())).group(Long.toString(a.gid()));
        }
        return b.build();
    }
}
