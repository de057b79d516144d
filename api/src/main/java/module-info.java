/**
 * RemotePath's API: {@link dev.remotepath.RemotePath} and its values, and the SPI backends
 * implement. The tree algorithms, the NIO-backed base class and the wire-format helpers are
 * internal: exported only to the project's modules that build on them.
 */
module dev.remotepath {
    exports dev.remotepath;
    exports dev.remotepath.spi;
    exports dev.remotepath.tree to dev.remotepath.syncer, dev.remotepath.sftp, dev.remotepath.cli, dev.remotepath.archive,
            dev.remotepath.testkit;
    exports dev.remotepath.spi.nio to dev.remotepath.local;
    exports dev.remotepath.wire to dev.remotepath.webdav, dev.remotepath.azure;

    uses dev.remotepath.spi.RemoteFileSystemProvider;
    uses dev.remotepath.spi.NioPathFactory;
}
