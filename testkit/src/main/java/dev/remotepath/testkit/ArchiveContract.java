package dev.remotepath.testkit;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.RemoteFileSystem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract suite's read cases against archive paths: each case's directory is
 * {@code <scheme>:<archive>!/case}, and each seed rebuilds that archive from a staging tree on
 * the local disk, publishes it where the subclass reads archives from, and has the archive's
 * file system read it again. Write cases are skipped by capability (an archive declares none).
 * Subclasses choose the format, how an archive is built, and where it is read from (the local
 * disk, HTTP, S3).
 */
public abstract class ArchiveContract extends RemoteFileSystemContract {

    /** The staging trees ({@code case-N/}) and the archives built from them ({@code zips/}). */
    protected static Path work;
    private static final AtomicInteger CASES = new AtomicInteger();

    @BeforeAll
    static void makeWork() throws IOException {
        work = Files.createTempDirectory("rp-archive-contract-");
        Files.createDirectories(work.resolve("zips"));
    }

    @AfterAll
    static void deleteWork() throws IOException {
        LocalTrees.delete(work);
    }

    /** {@code zip} or {@code tar}. */
    protected abstract String scheme();

    /** Writes the archive of the staging tree {@code root} (its entries named relative to it) to {@code archive}. */
    protected abstract void build(Path root, Path archive) throws IOException;

    /** The archive file's extension. */
    protected String extension() {
        return scheme();
    }

    /** The URI the archive built at {@code archive} is read by: here, the local file. */
    protected String archiveUri(Path archive) throws IOException {
        return RemotePaths.of(archive).toString();
    }

    /** Makes the archive just built at {@code archive} readable where it is read from (an upload); here, nothing. */
    protected void publish(Path archive) throws IOException {
    }

    /** The path {@code inside} of the archive built at {@code archive}, as a user opens it. */
    protected RemotePath open(Path archive, String inside) throws IOException {
        return RemotePaths.get(scheme() + ":" + archiveUri(archive) + "!" + inside);
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        String name = "case-" + CASES.incrementAndGet();
        Files.createDirectories(work.resolve(name).resolve("case"));
        return open(rebuild(name), "/case");
    }

    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        String name = "closing-" + CASES.incrementAndGet();
        Files.createDirectories(work.resolve(name).resolve("case"));
        Files.writeString(work.resolve(name).resolve("case/f"), "x");
        return open(rebuild(name), "/case");
    }

    /** An archive's file is opened for each ranged read and closed after it: none stays open. */
    @Override
    protected Optional<Path> diskDirectoryOf(RemotePath dir) {
        return Optional.of(work.resolve("zips"));
    }

    /** Archives are built in memory or by tools; large entries are read by the formats' own tests. */
    @Override
    protected boolean runLargeFileCases() {
        return false;
    }

    @Override
    protected void seedFile(RemotePath file, byte[] content) throws IOException {
        Path p = staged(file);
        Files.createDirectories(p.getParent());
        Files.write(p, content);
        rebuild(file);
    }

    @Override
    protected void seedLargeFile(RemotePath file, InputStream content) throws IOException {
        seedFile(file, content.readAllBytes());
    }

    @Override
    protected void seedDirectory(RemotePath directory) throws IOException {
        Files.createDirectories(staged(directory));
        rebuild(directory);
    }

    @Override
    protected void seedSymlink(RemotePath link, String target) throws IOException {
        Path p = staged(link);
        Files.createDirectories(p.getParent());
        Files.createSymbolicLink(p, Path.of(target));
        rebuild(link);
    }

    /** The staging tree of the archive {@code p} lies in: the folder named as the archive, without extension. */
    private Path stagingOf(RemotePath p) {
        RemoteFileSystem fs = NioFacadeFileSystem.backendOf(p.fileSystem());
        String prefix = fs.uriPrefix(); // <scheme>:<the archive's URI>!
        String archive = prefix.substring(prefix.lastIndexOf('/') + 1, prefix.length() - 1);
        return work.resolve(archive.substring(0, archive.indexOf('.')));
    }

    /** Where a path of an archive's tree is staged. */
    private Path staged(RemotePath p) {
        return stagingOf(p).resolve(p.pathString().substring(1));
    }

    /** Rebuilds the archive {@code p} lies in, and opens it again (which reads the new one). */
    private void rebuild(RemotePath p) throws IOException {
        open(rebuild(stagingOf(p).getFileName().toString()), "/");
    }

    /** Writes {@code zips/NAME.<ext>} from the staging folder {@code NAME} and publishes it. */
    private Path rebuild(String name) throws IOException {
        Path root = work.resolve(name);
        Path archive = work.resolve("zips").resolve(name + "." + extension());
        Path tmp = archive.resolveSibling(archive.getFileName() + ".tmp");
        build(root, tmp);
        Files.move(tmp, archive, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        publish(archive);
        return archive;
    }

    /** A tar of the staging tree by GNU tar ({@code --format=pax}: exact mtimes, long and non-UTF-8 names, links). */
    public static void gnuTar(Path root, Path archive, boolean gzip) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("tar", "--format=pax", gzip ? "-czf" : "-cf", archive.toString(),
                "-C", root.toString(), "--sort=name", ".").redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IOException("tar failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("tar");
        }
    }
}
