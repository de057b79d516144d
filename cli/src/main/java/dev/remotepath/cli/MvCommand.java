package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rpath mv}. */
final class MvCommand implements Callable<Integer> {

    final Rpath rpath;
    String source;
    String target;

    MvCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    CommandSpec spec() {
        CommandSpec spec = CommandModel.command(this, "mv",
                "Move a file or tree: a rename on one backend, copy then delete across backends.",
                "Into an existing directory, the source keeps its name; an existing file is replaced.");
        spec.addPositional(CommandModel.positional("0", String.class, "SRC", v -> source = v));
        spec.addPositional(CommandModel.positional("1", String.class, "DST", v -> target = v));
        return spec;
    }

    @Override
    public Integer call() throws Exception {
        RemotePath src = Paths.of(source);
        RemotePath dst = Paths.into(src, Paths.of(target));
        src.moveTo(dst, StandardCopyOption.REPLACE_EXISTING);
        if (rpath.json) {
            rpath.out.println(Json.obj().put("source", src.toString()).put("target", dst.toString()));
        }
        return Failures.OK;
    }
}
