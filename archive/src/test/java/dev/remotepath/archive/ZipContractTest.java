package dev.remotepath.archive;

import java.io.IOException;
import java.nio.file.Path;

/** The contract's read cases on zip archives on the local disk (the test's own zip writer). */
class ZipContractTest extends ArchiveContractTest {

    @Override
    protected String scheme() {
        return "zip";
    }

    @Override
    protected void build(Path root, Path archive) throws IOException {
        zipTree(root, archive);
    }
}
