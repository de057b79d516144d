package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rpath mkdir}. */
final class MkdirCommand implements Callable<Integer> {

    final Rpath rpath;
    boolean parents;
    List<String> uris = new ArrayList<>();

    MkdirCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    CommandSpec spec() {
        CommandSpec spec = CommandModel.command(this, "mkdir", "Create directories.");
        spec.addOption(CommandModel.flag(v -> parents = v, "Create missing parents; an existing directory is not an error.",
                "-p").build());
        spec.addPositional(CommandModel.positionals("0", "1..*", String.class, "URI", () -> uris, v -> uris = v));
        return spec;
    }

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
