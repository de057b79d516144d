package dev.remotepath.archive;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.CountingFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ResourceHandler;
import org.eclipse.jetty.util.resource.ResourceFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same contract cases with every archive read over HTTP: an in-process Jetty serves the
 * archives (ranges, ETags) and the http backend reads them by ranged GETs; a seed's rebuilt
 * archive is seen through its new ETag and size.
 */
class ZipOverHttpContractTest extends ZipContractTest {

    private static Server server;
    private static int port;

    @BeforeAll
    static void serve() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ResourceHandler files = new ResourceHandler() {
            // No cache of files' content and metadata: each seed rewrites its archive, often
            // within the second, and the cache would serve the old one.
            @Override
            protected org.eclipse.jetty.http.content.HttpContent.Factory newHttpContentFactory(
                    org.eclipse.jetty.io.ByteBufferPool.Sized pool) {
                return new org.eclipse.jetty.http.content.ResourceHttpContentFactory(getBaseResource(), getMimeTypes(), pool);
            }
        };
        files.setBaseResource(ResourceFactory.of(files).newResource(work.resolve("zips")));
        files.setAcceptRanges(true);
        files.setEtags(true);
        files.setUseFileMapping(false);
        server.setHandler(files);
        server.start();
        port = connector.getLocalPort();
    }

    @AfterAll
    static void stopServing() throws Exception {
        server.stop();
    }

    @Override
    protected String archiveUri(Path zip) {
        return "http://127.0.0.1:" + port + "/" + zip.getFileName();
    }

    /** One entry of a 32 MiB archive over HTTP: the directory's bytes and the entry's, a few requests. */
    @Test
    void oneEntryOfALargeArchiveCostsAFewKilobytes() throws Exception {
        byte[] zip = dev.remotepath.testkit.ZipFixtures.bulkThenReadme(new byte[32 << 20], "read me");
        Files.write(work.resolve("zips").resolve("bulk.zip"), zip);
        RemotePath counted = CountingFileSystem.counting(RemotePaths.get(archiveUri(work.resolve("zips/bulk.zip"))));
        ArchiveFileSystem fs = ArchiveFileSystem.zip(counted);
        assertThat(fs.path("/docs/readme.txt").readString()).isEqualTo("read me");
        CountingFileSystem calls = CountingFileSystem.of(counted);
        assertThat(calls.bytesRead()).as("bytes read of a %d-byte archive", zip.length).isLessThan(8_192);
        // the directory at the end; the entry's local header and data in one ranged read
        assertThat(calls.count(CountingFileSystem.Call.OPEN_READ)).as(calls.toString()).isEqualTo(2);
    }
}
