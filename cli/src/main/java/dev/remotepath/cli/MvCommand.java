package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "mv", description = {"Move a file or tree: a rename on one backend, copy then delete across backends.",
    "Into an existing directory, the source keeps its name; an existing file is replaced."})
final class MvCommand implements Callable<Integer> {

    @ParentCommand
    Rpath rpath;

    @Parameters(index = "0", paramLabel = "SRC")
    String source;

    @Parameters(index = "1", paramLabel = "DST")
    String target;

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
