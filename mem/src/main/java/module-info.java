/** The {@code mem:} backend: in-memory file systems with POSIX semantics behind the RemotePath SPI. */
module dev.remotepath.mem {
    requires transitive dev.remotepath;

    exports dev.remotepath.mem;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.mem.MemFileSystemProvider;
}
