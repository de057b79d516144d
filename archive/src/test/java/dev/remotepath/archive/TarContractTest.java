package dev.remotepath.archive;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The contract's read cases on tar archives made by GNU tar ({@code --format=pax}: exact
 * mtimes, long and non-UTF-8 names, links) on the local disk.
 */
class TarContractTest extends ArchiveContractTest {

    @Override
    protected String scheme() {
        return "tar";
    }

    @Override
    protected void build(Path root, Path archive) throws IOException {
        gnuTar(root, archive, false);
    }
}
