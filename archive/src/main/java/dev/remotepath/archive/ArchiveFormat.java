package dev.remotepath.archive;

import dev.remotepath.FileStat;
import dev.remotepath.RemotePath;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What differs between archive formats: reading the index, and opening an entry's content. */
interface ArchiveFormat {

    /** The URI scheme: {@code zip}, {@code tar}. */
    String scheme();

    /** Every entry of {@code archive}, read through its backend; what is learnt on the way goes in {@code cache}. */
    List<? extends ArchiveEntry> index(RemotePath archive, FileStat archiveStat, ZoneId zone, ReadCache cache)
            throws IOException;

    /**
     * The content of {@code e} from {@code offset}, at most {@code length} bytes; {@code cache}
     * is the snapshot's own, for what a format learns on a first read (zip: where data starts;
     * a compressed tar: its decompressed copy).
     */
    InputStream open(RemotePath archive, long archiveSize, ArchiveEntry e, RemotePath entry, long offset, long length,
            ReadCache cache) throws IOException;

    /** A link's target where the index holds it (tar's header); empty where it is the content (zip). */
    default Optional<String> linkTarget(ArchiveEntry e) {
        return Optional.empty();
    }

    /** The zip format: central directory, local headers, stored and deflated entries. */
    ArchiveFormat ZIP = new ArchiveFormat() {
        @Override
        public String scheme() {
            return "zip";
        }

        @Override
        public List<ZipEntryRecord> index(RemotePath archive, FileStat archiveStat, ZoneId zone, ReadCache cache)
                throws IOException {
            return ZipCentralDirectory.read(archive, archiveStat.size().getAsLong(), zone);
        }

        @Override
        public InputStream open(RemotePath archive, long archiveSize, ArchiveEntry e, RemotePath entry, long offset,
                long length, ReadCache cache) throws IOException {
            ZipEntryRecord r = (ZipEntryRecord) e;
            ZipEntryStreams.Ranges ranges = cache.ranges(archive, archiveSize);
            Long start = cache.dataStarts.get(r.localHeaderOffset());
            if (start == null) {
                return ZipEntryStreams.openFirst(ranges, archiveSize, r, entry, offset, length, cache.dataStarts);
            }
            return ZipEntryStreams.open(ranges, start, r, entry, offset, length);
        }
    };

    /** The formats, by scheme. */
    static Optional<ArchiveFormat> of(String scheme) {
        return switch (scheme.toLowerCase(java.util.Locale.ROOT)) {
            case "zip" -> Optional.of(ZIP);
            case "tar" -> Optional.of(TarFormat.TAR);
            default -> Optional.empty();
        };
    }
}
