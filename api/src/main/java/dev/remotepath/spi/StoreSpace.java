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

    /**
     * A NIO file store's space, read once per figure; {@link UnsupportedOperationException} where
     * the store has none (as RemotePath's own NIO stores on object stores and web servers).
     */
    public static StoreSpace of(java.nio.file.FileStore store) throws java.io.IOException {
        return new StoreSpace(store.getTotalSpace(), store.getUsableSpace(), store.getUnallocatedSpace());
    }
}
