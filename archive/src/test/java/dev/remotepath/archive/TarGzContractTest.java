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
}
