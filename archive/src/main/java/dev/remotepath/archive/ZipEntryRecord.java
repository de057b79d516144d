package dev.remotepath.archive;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One entry of a zip's central directory, as read: nothing here has been trusted yet (the name
 * may hold {@code ..}, the sizes may lie); {@link ZipTree} and {@link ZipEntryStreams} check.
 *
 * @param name              the entry's name, decoded (UTF-8, bytes that are not kept as
 *                          {@link dev.remotepath.NameBytes} escapes)
 * @param flags             the general-purpose bit flags (bit 0: encrypted)
 * @param method            the compression method (0 stored, 8 deflated)
 * @param crc               the CRC-32 of the content
 * @param compressedSize    bytes of the entry's data in the archive
 * @param size              bytes of the content
 * @param localHeaderOffset where the entry's local header starts in the archive
 * @param modified          the modification time, where the entry has a valid one
 * @param precision         that time's precision: 2 s (MS-DOS), 1 s (Unix extra field), 100 ns (NTFS)
 * @param unixMode          {@code st_mode} from a Unix-made entry's external attributes, or -1
 * @param dosDirectory      the MS-DOS directory attribute is set
 */
record ZipEntryRecord(String name, int flags, int method, long crc, long compressedSize, long size,
        long localHeaderOffset, Optional<Instant> modified, Duration precision, int unixMode, boolean dosDirectory)
        implements ArchiveEntry {

    static final int STORED = 0;
    static final int DEFLATED = 8;
    private static final int S_IFMT = 0170000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFLNK = 0120000;

    /** A directory: its name ends with '/', or its attributes say so. */
    boolean isDirectory() {
        return name.endsWith("/") || dosDirectory || (unixMode >= 0 && (unixMode & S_IFMT) == S_IFDIR);
    }

    /** A symbolic link stored by a Unix zip tool: the content is the link's target. */
    boolean isSymbolicLink() {
        return !name.endsWith("/") && unixMode >= 0 && (unixMode & S_IFMT) == S_IFLNK;
    }

    @Override
    public dev.remotepath.FileType type() {
        return isDirectory() ? dev.remotepath.FileType.DIRECTORY
                : isSymbolicLink() ? dev.remotepath.FileType.SYMLINK : dev.remotepath.FileType.FILE;
    }

    @Override
    public long key() {
        return localHeaderOffset;
    }

    boolean isEncrypted() {
        return (flags & 1) != 0;
    }
}
