package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "rm", description = "Remove files, or with -r directories and everything in them (links are not followed).")
final class RmCommand implements Callable<Integer> {

    @ParentCommand
    Rpath rpath;

    @Option(names = {"-r", "-R"}, description = "Remove directories and their contents.")
    boolean recursive;

    @Parameters(paramLabel = "URI", arity = "1..*")
    String[] uris;

    @Override
    public Integer call() throws Exception {
        for (String uri : uris) {
            RemotePath p = Paths.of(uri);
            if (recursive) {
                p.deleteRecursively();
            } else if (p.stat(LinkOption.NOFOLLOW_LINKS).isDirectory()) {
                throw new FileSystemException(p.toString(), null, "is a directory (use rm -r)");
            } else {
                p.delete();
            }
        }
        return Failures.OK;
    }
}
