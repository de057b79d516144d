/** The {@code az:} backend, on the Azure SDK for Java (none of whose types is in its API). */
module dev.remotepath.azure {
    requires transitive dev.remotepath;
    requires com.azure.core;
    requires com.azure.storage.blob;
    requires com.azure.storage.blob.batch;
    requires com.azure.storage.common;
    requires static com.azure.identity;
    requires reactor.core;
    requires org.slf4j;

    exports dev.remotepath.azure;

    provides dev.remotepath.spi.RemoteFileSystemProvider with dev.remotepath.azure.AzureFileSystemProvider;
}
