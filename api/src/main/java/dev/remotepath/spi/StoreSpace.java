package dev.remotepath.spi;

/**
 * The space of the storage that holds a path, in bytes, as the server reports it (POSIX
 * {@code statvfs}: blocks times fragment size): {@code total} its size, {@code usable} what an
 * unprivileged user may still write, {@code unallocated} what is free at all.
 */
public record StoreSpace(long total, long usable, long unallocated) {

    public StoreSpace {
        if (total < 0 || usable < 0 || unallocated < 0) {
            throw new IllegalArgumentException("negative space: total " + total + ", usable " + usable
                    + ", unallocated " + unallocated);
        }
    }
}
