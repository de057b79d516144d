package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import java.nio.file.StandardCopyOption;

/** {@code rpath mv}. */
final class MvCommand implements Command {

    final Rpath rpath;
    String source;
    String target;

    MvCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath mv", "Move a file or tree: a rename on one backend, copy then delete across backends.",
                "Into an existing directory, the source keeps its name; an existing file is replaced.")
                .positional("SRC", v -> source = v)
                .positional("DST", v -> target = v);
    }

    @Override
    public Integer call() throws Exception {
        RemotePath src = Paths.of(source);
        RemotePath dst = Paths.into(src, Paths.of(target));
        src.moveTo(dst, StandardCopyOption.REPLACE_EXISTING);
        if (rpath.json) {
            rpath.out.println(Json.obj().put("source", Paths.asTyped(src.toString())).put("target", Paths.asTyped(dst.toString()))
                    .put("sourceUri", src.toString()).put("targetUri", dst.toString()));
        }
        return Failures.OK;
    }
}
