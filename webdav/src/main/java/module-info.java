/**
 * The {@code webdav:}/{@code webdavs:} backend (Jetty client): PROPFIND listings with their
 * metadata, ranged reads, writes published by MOVE.
 */
module dev.remotepath.webdav {
    requires transitive dev.remotepath;
    requires java.xml;
    requires org.eclipse.jetty.client;
    requires org.eclipse.jetty.http;
    requires org.eclipse.jetty.io;
    requires org.eclipse.jetty.util;
    requires org.slf4j;

    exports dev.remotepath.webdav;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.webdav.WebDavFileSystemProvider;
}
