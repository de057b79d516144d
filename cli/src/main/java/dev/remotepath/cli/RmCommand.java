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
            refuseDotNames(uri);
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

    /**
     * As GNU rm: an argument ending in {@code .} or {@code ..} names a directory by where one
     * stands, not by its name (the directory a shell is in, its parent), and is refused before
     * anything is removed.
     */
    private static void refuseDotNames(String uri) throws FileSystemException {
        String path = uri;
        while (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String last = path.substring(path.lastIndexOf('/') + 1);
        if (last.equals(".") || last.equals("..")) {
            throw new FileSystemException(uri, null, "refusing to remove '.' or '..' directory");
        }
    }
}
