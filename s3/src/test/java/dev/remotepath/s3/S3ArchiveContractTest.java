package dev.remotepath.s3;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.archive.ArchiveFileSystem;
import dev.remotepath.archive.NewArchiveFileSystem;
import dev.remotepath.syncer.PathSyncer;
import dev.remotepath.syncer.SymlinkPolicy;
import dev.remotepath.syncer.SyncReport;
import dev.remotepath.testkit.ArchiveContract;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;

/**
 * The contract suite's read cases against archives on S3 (s3proxy): each seed's rebuilt archive
 * is uploaded, and the archive is read through the S3 backend's ranged GETs. The zips are
 * written by the archive module's own writer ({@link NewArchiveFileSystem}, through a sync of the
 * staging tree), so these cases also read back what it writes; the tars by GNU tar.
 */
class S3ArchiveContractTest {

    private static TestS3Server server;
    private static RemotePath bucket;

    @BeforeAll
    static void start() throws Exception {
        server = new TestS3Server();
        server.createBucket("archive-contract");
        bucket = RemotePaths.get(URI.create("s3://archive-contract/"), server.options());
    }

    @AfterAll
    static void stop() throws Exception {
        bucket.fileSystem().close();
        server.close();
    }

    /** What both formats share: the upload, and opening the archive from the bucket. */
    abstract static class OnS3 extends ArchiveContract {
        @Override
        protected void publish(Path archive) throws IOException {
            bucket.resolve(archive.getFileName().toString()).write(Files.readAllBytes(archive));
        }

        @Override
        protected RemotePath open(Path archive, String inside) throws IOException {
            RemotePath onS3 = bucket.resolve(archive.getFileName().toString());
            ArchiveFileSystem fs = scheme().equals("zip") ? ArchiveFileSystem.zip(onS3) : ArchiveFileSystem.tar(onS3);
            return fs.path(inside);
        }

        /** Nothing of the archive is on the local disk to stay open. */
        @Override
        protected Optional<Path> diskDirectoryOf(RemotePath dir) {
            return Optional.empty();
        }
    }

    @Nested
    class Zip extends OnS3 {
        @Override
        protected String scheme() {
            return "zip";
        }

        @Override
        protected void build(Path root, Path archive) throws IOException {
            try (NewArchiveFileSystem zip = NewArchiveFileSystem.zip(RemotePaths.of(archive))) {
                SyncReport r = PathSyncer.builder(RemotePaths.of(root), zip.path("/"))
                        .symlinks(SymlinkPolicy.PRESERVE).allowEmptySource(true).build().run();
                if (!r.succeeded()) {
                    throw new IOException("the zip of " + root + " was not written: " + r);
                }
            }
        }
    }

    @Nested
    class Tar extends OnS3 {
        @Override
        protected String scheme() {
            return "tar";
        }

        @Override
        protected void build(Path root, Path archive) throws IOException {
            gnuTar(root, archive, false);
        }
    }
}
