package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import dev.remotepath.tree.TreeCopier;
import java.nio.file.CopyOption;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "cp", description = {"Copy a file, or with -r a tree, between any backends.",
    "Into an existing directory, the source keeps its name; existing files are replaced."})
final class CpCommand implements Callable<Integer> {

    @ParentCommand
    Rpath rpath;

    @Option(names = {"-r", "-R"}, description = "Copy directories recursively.")
    boolean recursive;

    @Parameters(index = "0", paramLabel = "SRC")
    String source;

    @Parameters(index = "1", paramLabel = "DST")
    String target;

    @Override
    public Integer call() throws Exception {
        RemotePath src = Paths.of(source);
        RemotePath dst = Paths.into(src, Paths.of(target));
        if (!recursive && src.isDirectory()) {
            throw new FileSystemException(src.toString(), null, "is a directory (use cp -r)");
        }
        try (Progress.SyncListenerHandle progress = Progress.open(rpath.json, rpath.err)) {
            TreeCopier.copy(src, dst, progress.bytes(), new CopyOption[] {
                StandardCopyOption.REPLACE_EXISTING, LinkOption.NOFOLLOW_LINKS});
        }
        if (rpath.json) {
            rpath.out.println(Json.obj().put("source", src.toString()).put("target", dst.toString()));
        }
        return Failures.OK;
    }
}
