/**
 * The {@code ftp:}/{@code ftps:} backend (Apache Commons Net): MLSD or LIST listings with their
 * metadata, REST reads, uploads renamed into place, explicit and implicit TLS.
 */
module dev.remotepath.ftp {
    requires transitive dev.remotepath;
    requires org.apache.commons.net;
    requires org.slf4j;

    exports dev.remotepath.ftp;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.ftp.FtpFileSystemProvider;
}
