package dev.remotepath.mem;

import dev.remotepath.FileType;
import java.time.Instant;

/**
 * One entry of a mem volume: a directory, a regular file or a symbolic link. Kept small on
 * purpose (a few dozen bytes and no objects of its own for an empty file): a mirror of a
 * million files into mem walks all of them, and what it touches per file is what it costs.
 * Every field is guarded by the volume's lock ({@link MemTree}).
 */
abstract sealed class MemNode permits MemNode.Dir, MemNode.File, MemNode.Link {

    /** The file key: unique in the volume for the node's life, so walks can tell a loop. */
    final long id;
    /** Modification time, seconds and nanoseconds (an {@code Instant}'s range, no object). */
    long mtimeSeconds;
    int mtimeNanos;
    /** Permission bits, {@code rwxrwxrwx} as in {@code st_mode}. */
    short mode;

    MemNode(long id, Instant now, int mode) {
        this.id = id;
        setModified(now);
        this.mode = (short) mode;
    }

    abstract FileType type();

    final Instant modified() {
        return Instant.ofEpochSecond(mtimeSeconds, mtimeNanos);
    }

    final void setModified(Instant time) {
        mtimeSeconds = time.getEpochSecond();
        mtimeNanos = time.getNano();
    }

    /** A directory: its entries by name, and where it hangs (for {@code ..} and real paths). */
    static final class Dir extends MemNode {
        final MemEntries children = new MemEntries();
        /** The directory holding this one; the root is its own parent. */
        Dir parent;
        /** This directory's name in its parent; empty for the root. */
        String name;

        Dir(long id, Instant now, Dir parent, String name) {
            super(id, now, 0755);
            this.parent = parent == null ? this : parent;
            this.name = name;
        }

        @Override
        FileType type() {
            return FileType.DIRECTORY;
        }

        boolean isRoot() {
            return parent == this;
        }

        /** Whether this directory is {@code other} or lies below it. */
        boolean isWithin(Dir other) {
            for (Dir d = this; ; d = d.parent) {
                if (d == other) {
                    return true;
                }
                if (d.isRoot()) {
                    return false;
                }
            }
        }
    }

    /**
     * A regular file. Its bytes are in blocks of {@link #BLOCK} bytes, the first grown by
     * doubling until it is a whole block, so a small file holds one array of about its size,
     * an empty one none, and a large one never needs an array over 2 GB or a copy of itself to
     * grow.
     */
    static final class File extends MemNode {
        static final int SHIFT = 16;
        static final int BLOCK = 1 << SHIFT;
        private static final byte[][] NO_BLOCKS = {};

        long size;
        /**
         * Whether the file has a name in the volume: a stream writing on after its file was
         * deleted writes into memory that is no longer the volume's to count.
         */
        boolean linked;
        private byte[][] blocks = NO_BLOCKS;

        File(long id, Instant now) {
            super(id, now, 0644);
        }

        @Override
        FileType type() {
            return FileType.FILE;
        }

        /** Copies up to {@code len} bytes from {@code pos}; -1 at or past the end. */
        int read(long pos, byte[] b, int off, int len) {
            if (pos >= size) {
                return len == 0 ? 0 : -1;
            }
            int total = (int) Math.min(len, size - pos);
            for (int left = total; left > 0; ) {
                int at = (int) (pos & (BLOCK - 1));
                int n = Math.min(left, BLOCK - at);
                System.arraycopy(blocks[(int) (pos >>> SHIFT)], at, b, off, n);
                pos += n;
                off += n;
                left -= n;
            }
            return total;
        }

        /**
         * Writes {@code len} bytes at {@code pos}, growing the file. A {@code pos} past the end
         * (a stream whose file another open truncated) leaves a gap that reads as zeros: blocks
         * past the size are new, or were dropped by {@link #truncate()}.
         */
        void write(long pos, byte[] b, int off, int len) {
            long end = pos + len;
            ensureCapacity(end);
            for (int left = len; left > 0; ) {
                int at = (int) (pos & (BLOCK - 1));
                int n = Math.min(left, BLOCK - at);
                System.arraycopy(b, off, blocks[(int) (pos >>> SHIFT)], at, n);
                pos += n;
                off += n;
                left -= n;
            }
            size = Math.max(size, end);
        }

        private void ensureCapacity(long end) {
            long capacity = blocks.length == 1 ? blocks[0].length : (long) blocks.length << SHIFT;
            if (end <= capacity) {
                return;
            }
            if (end <= BLOCK) {
                int grown = (int) Math.max(end, Math.min(BLOCK, 2L * capacity));
                blocks = new byte[][] {blocks.length == 0 ? new byte[grown] : java.util.Arrays.copyOf(blocks[0], grown)};
                return;
            }
            long needed = (end + BLOCK - 1) >>> SHIFT;
            if (needed > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("a mem file cannot hold " + end + " bytes");
            }
            byte[][] more = java.util.Arrays.copyOf(blocks, (int) needed);
            if (blocks.length == 1 && blocks[0].length < BLOCK) {
                more[0] = java.util.Arrays.copyOf(blocks[0], BLOCK);
            }
            for (int i = blocks.length; i < more.length; i++) {
                more[i] = new byte[BLOCK];
            }
            blocks = more;
        }

        /** Empties the file (a truncating open); returns how many bytes it held. */
        long truncate() {
            long had = size;
            size = 0;
            blocks = NO_BLOCKS;
            return had;
        }

        /** This file's bytes in a new file of id {@code id}, with no block shared. */
        File copy(long id, Instant now) {
            File out = new File(id, now);
            out.size = size;
            if (blocks.length == 0) {
                return out; // shares NO_BLOCKS: an empty file holds no array (16 MB a million files)
            }
            out.blocks = new byte[blocks.length][];
            for (int i = 0; i < blocks.length; i++) {
                // The last block holds only what is in use: a copy is as compact as a fresh write.
                long from = (long) i << SHIFT;
                int used = (int) Math.min(blocks[i].length, size - from);
                out.blocks[i] = i == 0 && blocks.length == 1 ? java.util.Arrays.copyOf(blocks[0], used)
                        : blocks[i].clone();
            }
            return out;
        }
    }

    /** A symbolic link: its target text, verbatim. */
    static final class Link extends MemNode {
        final String target;

        Link(long id, Instant now, String target) {
            super(id, now, 0777);
            this.target = target;
        }

        @Override
        FileType type() {
            return FileType.SYMLINK;
        }
    }
}
