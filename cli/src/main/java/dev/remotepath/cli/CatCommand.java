package dev.remotepath.cli;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/** {@code rpath cat}. */
final class CatCommand implements Command {

    final Rpath rpath;
    List<String> uris = new ArrayList<>();

    CatCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath cat", "Write a file's content to standard output.")
                .positionals("URI", 1, uris::add);
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
