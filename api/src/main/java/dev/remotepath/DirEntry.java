package dev.remotepath;

import java.util.Objects;

/**
 * One entry of a directory listing: its path, its type (links not followed) and whatever
 * metadata the listing itself carried. Algorithms use {@code stat} instead of asking the
 * backend again; fields the listing did not carry are unknown in it, never guessed.
 */
public record DirEntry(RemotePath path, FileType type, FileStat stat) {

    public DirEntry {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(stat, "stat");
        if (type != stat.type()) {
            throw new IllegalArgumentException("type " + type + " disagrees with stat type " + stat.type());
        }
    }

    public DirEntry(RemotePath path, FileStat stat) {
        this(path, stat.type(), stat);
    }

    /** The entry's file name: the last segment of its path. */
    public String name() {
        return path.name();
    }

    public boolean isDirectory() {
        return type == FileType.DIRECTORY;
    }

    public boolean isRegularFile() {
        return type == FileType.FILE;
    }

    public boolean isSymbolicLink() {
        return type == FileType.SYMLINK;
    }
}
