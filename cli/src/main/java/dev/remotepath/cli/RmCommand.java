package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.util.ArrayList;
import java.util.List;

/** {@code rpath rm}. */
final class RmCommand implements Command {

    final Rpath rpath;
    boolean recursive;
    List<String> uris = new ArrayList<>();

    RmCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath rm",
                "Remove files, or with -r directories and everything in them (links are not followed).")
                .flag(() -> recursive = true, "Remove directories and their contents.", "-r", "-R")
                .positionals("URI", 1, uris::add);
    }

    @Override
    public Integer call() throws Exception {
        for (String uri : uris) {
            RemotePath p = Paths.of(uri);
            if (recursive) {
                p.deleteRecursively();
            } else if (p.stat(LinkOption.NOFOLLOW_LINKS).isDirectory()) {
                throw new dev.remotepath.IsDirectoryException(p.toString(), "use rm -r");
            } else {
                p.delete();
            }
        }
        return Failures.OK;
    }
}
