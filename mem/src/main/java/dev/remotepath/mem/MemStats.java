package dev.remotepath.mem;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.PosixModes;
import dev.remotepath.mem.MemNode.File;
import dev.remotepath.mem.MemNode.Link;
import dev.remotepath.spi.ListDetail;
import java.util.Optional;
import java.util.OptionalLong;

/** A mem node's metadata as {@link FileStat}s. Called under the volume's lock. */
final class MemStats {

    private MemStats() {
    }

    /** A full stat: type, size, time to the nanosecond, permission bits and the node's key. */
    static FileStat full(MemNode node) {
        return FileStat.builder(node.type())
                .size(size(node))
                .lastModified(node.modified(), FileStat.EXACT)
                .permissions(PosixModes.permissions(node.mode))
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
                Optional.of(PosixModes.permissions(node.mode)));
    }

    /** A file's bytes, a link's target length (as {@code lstat} gives it), 0 for a directory. */
    private static long size(MemNode node) {
        return node instanceof File f ? f.size : node instanceof Link l ? l.target.length() : 0;
    }
}
