package dev.remotepath.archive;

import dev.remotepath.NameBytes;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.testkit.LocalTrees;
import dev.remotepath.testkit.NioFacadeFileSystem;
import dev.remotepath.testkit.RemoteFileSystemContract;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract suite's read cases against archives: each case's directory is
 * {@code <scheme>:<archive's URI>!/case}, and each seed rebuilds that archive from a staging
 * tree and has the file system read it again. Write cases are skipped by capability (the
 * backend declares none). Subclasses choose the format and where the archive is read from.
 */
abstract class ArchiveContractTest extends RemoteFileSystemContract {

    static Path work;
    private static final AtomicInteger CASES = new AtomicInteger();

    @BeforeAll
    static void start() throws IOException {
        work = Files.createTempDirectory("rp-zip-");
        Files.createDirectories(work.resolve("zips"));
    }

    @AfterAll
    static void stop() throws IOException {
        LocalTrees.delete(work);
    }

    @Override
    protected RemotePath newTestDirectory() throws Exception {
        String name = "case-" + CASES.incrementAndGet();
        Files.createDirectories(work.resolve(name).resolve("case"));
        Path zip = rezip(name);
        return RemotePaths.get(scheme() + ":" + archiveUri(zip) + "!/case");
    }

    /** {@code zip} or {@code tar}. */
    protected abstract String scheme();

    /** Writes the archive of the staging tree {@code root} (its entries named relative to it) to {@code archive}. */
    protected abstract void build(Path root, Path archive) throws IOException;

    /** The URI the archive at {@code zip} is read by: here, the local file. */
    protected String archiveUri(Path zip) throws IOException {
        return RemotePaths.of(zip).toString();
    }

    @Override
    protected RemotePath newDirectoryOnAFileSystemToClose() throws Exception {
        String name = "closing-" + CASES.incrementAndGet();
        Files.createDirectories(work.resolve(name).resolve("case"));
        Files.writeString(work.resolve(name).resolve("case/f"), "x");
        return ((ArchiveFileSystem) RemotePaths.get(scheme() + ":" + archiveUri(rezip(name)) + "!/").fileSystem()).path("/case");
    }

    /** The archive's file is opened for each ranged read and closed after it: none stays open. */
    @Override
    protected Optional<Path> diskDirectoryOf(RemotePath dir) {
        return Optional.of(work.resolve("zips"));
    }

    /** The test writer holds an archive in memory; large entries are read by ZipArchiveTest's ranged-read case. */
    @Override
    protected boolean runLargeFileCases() {
        return false;
    }

    @Override
    protected void seedFile(RemotePath file, byte[] content) throws IOException {
        Path p = staged(file);
        Files.createDirectories(p.getParent());
        Files.write(p, content);
        rezip(file);
    }

    @Override
    protected void seedLargeFile(RemotePath file, InputStream content) throws IOException {
        seedFile(file, content.readAllBytes());
    }

    @Override
    protected void seedDirectory(RemotePath directory) throws IOException {
        Files.createDirectories(staged(directory));
        rezip(directory);
    }

    @Override
    protected void seedSymlink(RemotePath link, String target) throws IOException {
        Path p = staged(link);
        Files.createDirectories(p.getParent());
        Files.createSymbolicLink(p, Path.of(target));
        rezip(link);
    }

    private static ArchiveFileSystem archiveOf(RemotePath p) {
        return (ArchiveFileSystem) NioFacadeFileSystem.backendOf(p.fileSystem());
    }

    /** Where a path of an archive's tree is staged: the staging folder named as the archive. */
    private Path staged(RemotePath p) {
        return stagingOf(archiveOf(p)).resolve(p.pathString().substring(1));
    }

    private Path stagingOf(ArchiveFileSystem fs) {
        String zip = fs.archive().name();
        return work.resolve(zip.substring(0, zip.indexOf('.')));
    }

    private void rezip(RemotePath p) throws IOException {
        ArchiveFileSystem fs = archiveOf(p);
        rezip(stagingOf(fs).getFileName().toString());
        fs.refresh();
    }

    /** Writes {@code zips/NAME.<ext>} from the staging folder {@code NAME}. */
    private Path rezip(String name) throws IOException {
        Path root = work.resolve(name);
        Path archive = work.resolve("zips").resolve(name + "." + extension());
        Path tmp = archive.resolveSibling(archive.getFileName() + ".tmp");
        build(root, tmp);
        Files.move(tmp, archive, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return archive;
    }

    /** The archive file's extension. */
    protected String extension() {
        return scheme();
    }

    /** A zip of the staging tree: files deflated with their mtimes, directories and links as a Unix zip tool stores them. */
    static void zipTree(Path root, Path out) throws IOException {
        ZipWriter w = new ZipWriter();
        List<Path> all;
        try (Stream<Path> walk = Files.walk(root)) {
            all = walk.filter(q -> !q.equals(root)).sorted().toList();
        }
        for (Path q : all) {
            String rel = root.relativize(q).toString();
            ZipWriter.Entry e;
            if (Files.isSymbolicLink(q)) {
                e = w.link(rel, Files.readSymbolicLink(q).toString());
            } else if (Files.isDirectory(q)) {
                e = w.dir(rel + "/");
            } else {
                e = w.add(rel).content(Files.readAllBytes(q)).deflated();
            }
            e.name = NameBytes.encode(rel + (Files.isDirectory(q, LinkOption.NOFOLLOW_LINKS) ? "/" : ""));
            if (!NameBytes.isValidUtf8(e.name)) {
                e.flags &= ~0x0800;
            }
            e.mtime(Files.getLastModifiedTime(q, LinkOption.NOFOLLOW_LINKS).toInstant().getEpochSecond());
        }
        Files.write(out, w.bytes());
    }
}
