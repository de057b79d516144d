/**
 * Archive paths: {@code zip:<uri>!/path} names an entry of a zip archive that lies on any
 * RemotePath backend, read through that backend's ranged reads.
 */
module dev.remotepath.archive {
    requires transitive dev.remotepath;
    requires org.slf4j;

    exports dev.remotepath.archive;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.archive.ArchiveFileSystemProvider;
}
