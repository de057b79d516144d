package dev.remotepath.cli;

import java.io.InputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "cat", description = "Write a file's content to standard output.")
final class CatCommand implements Callable<Integer> {

    @ParentCommand
    Rpath rpath;

    @Parameters(paramLabel = "URI", arity = "1..*")
    String[] uris;

    @Override
    public Integer call() throws Exception {
        rpath.out.flush();
        for (String uri : uris) {
            try (InputStream in = Paths.of(uri).newInputStream()) {
                in.transferTo(rpath.rawOut);
            }
        }
        rpath.rawOut.flush();
        return Failures.OK;
    }
}
