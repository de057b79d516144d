/**
 * The {@code http:}/{@code https:} backend over directory index pages (Jetty client). The index
 * parsers are internal.
 */
module dev.remotepath.http {
    requires transitive dev.remotepath;
    requires org.eclipse.jetty.client;
    requires org.eclipse.jetty.http;
    requires org.eclipse.jetty.io;
    requires org.eclipse.jetty.util;
    requires org.slf4j;

    exports dev.remotepath.http;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.http.HttpFileSystemProvider;
}
