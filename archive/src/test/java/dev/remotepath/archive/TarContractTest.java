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

    static void gnuTar(Path root, Path archive, boolean gzip) throws IOException {
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
