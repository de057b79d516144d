package dev.remotepath.archive;

import dev.remotepath.NameBytes;
import dev.remotepath.testkit.ArchiveContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The archive contract ({@link ArchiveContract}) with this module's zip writer for tests. */
abstract class ArchiveContractTest extends ArchiveContract {

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
