/**
 * Every RemotePath scheme as a {@code java.nio.file} provider, installed through the JDK's
 * provider lookup (one class per scheme, as that lookup needs).
 */
module dev.remotepath.nio {
    requires transitive dev.remotepath;

    exports dev.remotepath.nio;

    provides java.nio.file.spi.FileSystemProvider with
            dev.remotepath.nio.RemoteNioProvider.Sftp,
            dev.remotepath.nio.RemoteNioProvider.S3,
            dev.remotepath.nio.RemoteNioProvider.Az,
            dev.remotepath.nio.RemoteNioProvider.WebDav,
            dev.remotepath.nio.RemoteNioProvider.WebDavs,
            dev.remotepath.nio.RemoteNioProvider.Ftp,
            dev.remotepath.nio.RemoteNioProvider.Ftps,
            dev.remotepath.nio.RemoteNioProvider.Http,
            dev.remotepath.nio.RemoteNioProvider.Https,
            dev.remotepath.nio.RemoteNioProvider.Mem,
            dev.remotepath.nio.RemoteNioProvider.Zip,
            dev.remotepath.nio.RemoteNioProvider.Tar;
    provides dev.remotepath.spi.NioPathFactory with dev.remotepath.nio.RemoteNio.PathFactory;
}
