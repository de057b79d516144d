package dev.remotepath.sftp;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.RemotePath;
import java.nio.file.FileSystemException;
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

    /**
     * SFTP version 3 carries times as unsigned 32-bit seconds (draft-ietf-secsh-filexfer-02,
     * 5): 1970-01-01 to 2106-02-07. Outside that a time cannot be stored, and saying so beats
     * storing another one.
     */
    static void requireStorableTime(RemotePath path, Instant time) throws FileSystemException {
        long seconds = time.getEpochSecond();
        if (seconds < 0 || seconds > SftpWire.MAX_V3_SECONDS) {
            throw new FileSystemException(path.toString(), null, "SFTP (version 3) keeps modification times from "
                    + "1970 to 2106 only; " + time + " cannot be stored");
        }
    }
}
