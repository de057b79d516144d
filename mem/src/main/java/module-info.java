/** The {@code mem:} backend: an in-memory file system (jimfs) behind the RemotePath SPI. */
module dev.remotepath.mem {
    requires transitive dev.remotepath;
    requires com.google.common.jimfs;
    // jimfs is an automatic module, which names no dependencies: Guava (a named module) is
    // resolved only if a module requires it.
    requires com.google.common;

    exports dev.remotepath.mem;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.mem.MemFileSystemProvider;
}
