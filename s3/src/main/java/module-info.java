/** The {@code s3:} backend, on the AWS SDK for Java v2 (none of whose types is in its API). */
module dev.remotepath.s3 {
    requires transitive dev.remotepath;
    requires software.amazon.awssdk.auth;
    requires software.amazon.awssdk.awscore;
    requires software.amazon.awssdk.core;
    requires software.amazon.awssdk.http;
    requires software.amazon.awssdk.http.apache5;
    requires software.amazon.awssdk.regions;
    requires software.amazon.awssdk.retries.api;
    requires software.amazon.awssdk.services.s3;
    requires org.slf4j;
    // httpclient5 (an automatic module, which names no dependencies) sets its socket options
    // through jdk.net, which the module path resolves only if a module requires it.
    requires jdk.net;

    exports dev.remotepath.s3;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.s3.S3FileSystemProvider;
}
