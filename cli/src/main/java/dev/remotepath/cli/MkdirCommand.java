package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "mkdir", description = "Create directories.")
final class MkdirCommand implements Callable<Integer> {

    @ParentCommand
    Rpath rpath;

    @Option(names = "-p", description = "Create missing parents; an existing directory is not an error.")
    boolean parents;

    @Parameters(paramLabel = "URI", arity = "1..*")
    String[] uris;

    @Override
    public Integer call() throws Exception {
        for (String uri : uris) {
            RemotePath p = Paths.of(uri);
            if (parents) {
                p.createDirectories();
            } else {
                p.createDirectory();
            }
        }
        return Failures.OK;
    }
}
