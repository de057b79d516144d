package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import dev.remotepath.tree.TreeCopier;
import java.nio.file.CopyOption;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.StandardCopyOption;

/** {@code rpath cp}. */
final class CpCommand implements Command {

    final Rpath rpath;
    boolean recursive;
    String source;
    String target;

    CpCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath cp", "Copy a file, or with -r a tree, between any backends.",
                "Into an existing directory, the source keeps its name; existing files are replaced.")
                .flag(() -> recursive = true, "Copy directories recursively.", "-r", "-R")
                .positional("SRC", v -> source = v)
                .positional("DST", v -> target = v);
    }

    @Override
    public Integer call() throws Exception {
        RemotePath src = Paths.of(source);
        RemotePath dst = Paths.into(src, Paths.of(target));
        if (!recursive && src.isDirectory()) {
            throw new dev.remotepath.IsDirectoryException(src.toString(), "use cp -r");
        }
        try (Progress.SyncListenerHandle progress = Progress.open(rpath.json, rpath.err)) {
            TreeCopier.copy(src, dst, progress.copyListener(), new CopyOption[] {
                StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS});
        }
        if (rpath.json) {
            rpath.out.println(Json.obj().put("source", Paths.asTyped(src.toString())).put("target", Paths.asTyped(dst.toString()))
                    .put("sourceUri", src.toString()).put("targetUri", dst.toString()));
        }
        return Failures.OK;
    }
}
