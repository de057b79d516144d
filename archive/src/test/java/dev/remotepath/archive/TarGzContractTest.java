package dev.remotepath.archive;

import java.io.IOException;
import java.nio.file.Path;

/** The same cases on gzip-compressed tars: each read decompresses from the start to its entry. */
class TarGzContractTest extends ArchiveContractTest {

    @Override
    protected String scheme() {
        return "tar";
    }

    @Override
    protected String extension() {
        return "tar.gz";
    }

    @Override
    protected void build(Path root, Path archive) throws IOException {
        gnuTar(root, archive, true);
    }

    /** Entries are read from a decompressed copy: made under the contract's folder, where the open-files check looks. */
    @org.junit.jupiter.api.BeforeAll
    static void copiesUnderWork() throws IOException {
        ReadCache.directory = java.nio.file.Files.createDirectories(work.resolve("copies"));
    }

    @org.junit.jupiter.api.AfterAll
    static void copiesBackInTmp() {
        ReadCache.directory = null;
    }

    @Override
    protected java.util.Optional<Path> diskDirectoryOf(dev.remotepath.RemotePath dir) {
        return java.util.Optional.of(work);
    }
}
