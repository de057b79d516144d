package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;

/** {@code rpath rm}. */
final class RmCommand implements Callable<Integer> {

    final Rpath rpath;
    boolean recursive;
    List<String> uris = new ArrayList<>();

    RmCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    CommandSpec spec() {
        CommandSpec spec = CommandModel.command(this, "rm",
                "Remove files, or with -r directories and everything in them (links are not followed).");
        spec.addOption(CommandModel.flag(v -> recursive = v, "Remove directories and their contents.", "-r", "-R").build());
        spec.addPositional(CommandModel.positionals("0", "1..*", String.class, "URI", () -> uris, v -> uris = v));
        return spec;
    }

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
