package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import java.util.ArrayList;
import java.util.List;

/** {@code rpath mkdir}. */
final class MkdirCommand implements Command {

    final Rpath rpath;
    boolean parents;
    List<String> uris = new ArrayList<>();

    MkdirCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath mkdir", "Create directories.")
                .flag(() -> parents = true, "Create missing parents; an existing directory is not an error.", "-p")
                .positionals("URI", 1, uris::add);
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
