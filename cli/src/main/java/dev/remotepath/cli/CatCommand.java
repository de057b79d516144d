package dev.remotepath.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code rpath cat}: files to standard output, whole or a byte range (a ranged read on every
 * backend). As {@code cat}, a file that cannot be read is reported and the next one is still
 * written; the exit code is then 1.
 */
final class CatCommand implements Command {

    final Rpath rpath;
    List<String> uris = new ArrayList<>();
    long offset;
    long length = -1;

    CatCommand(Rpath rpath) {
        this.rpath = rpath;
    }

    @Override
    public Syntax syntax() {
        return new Syntax("rpath cat", "Write files' content to standard output.")
                .option("N", v -> offset = Syntax.toSize(v), "Start at byte N of each file (default 0; 64K, 8M...).",
                        "--offset")
                .option("N", v -> length = Syntax.toSize(v), "Write at most N bytes of each file (default: to its end).",
                        "--length")
                .positionals("URI", 1, uris::add);
    }

    @Override
    public Integer call() throws Exception {
        rpath.out.flush();
        int exit = Failures.OK;
        byte[] buffer = new byte[64 * 1024];
        for (String uri : uris) {
            try (InputStream in = Paths.of(uri).newInputStream(offset)) {
                long left = length < 0 ? Long.MAX_VALUE : length;
                while (left > 0) {
                    int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                    if (n < 0) {
                        break;
                    }
                    rpath.rawOut.write(buffer, 0, n);
                    left -= n;
                }
            } catch (IOException | RuntimeException e) {
                if (e instanceof RuntimeException && !(e instanceof IllegalArgumentException
                        || e instanceof java.nio.file.InvalidPathException || e instanceof java.nio.file.ProviderNotFoundException
                        || e instanceof UnsupportedOperationException)) {
                    throw e;
                }
                rpath.rawOut.flush();
                int code = Failures.report("cat", e, rpath.verbose, rpath.json, rpath.err);
                exit = Math.max(exit, code);
            }
        }
        rpath.rawOut.flush();
        return exit;
    }
}
