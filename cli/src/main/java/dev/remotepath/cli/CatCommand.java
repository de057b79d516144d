package dev.remotepath.cli;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rpath cat}. */
final class CatCommand implements Callable<Integer> {

    final Rpath rpath;
    List<String> uris = new ArrayList<>();

    CatCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    CommandSpec spec() {
        CommandSpec spec = CommandModel.command(this, "cat", "Write a file's content to standard output.");
        spec.addPositional(CommandModel.positionals("0", "1..*", String.class, "URI", () -> uris, v -> uris = v));
        return spec;
    }

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
