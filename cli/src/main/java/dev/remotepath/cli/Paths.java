package dev.remotepath.cli;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;

/** Command-line arguments to paths: URIs, or local paths without a scheme. */
final class Paths {

    private Paths() {
    }

    static RemotePath of(String arg) throws IOException {
        return RemotePaths.get(arg);
    }

    /** Unix cp/mv rule: a target that is an existing directory receives the source under its own name. */
    static RemotePath into(RemotePath source, RemotePath target) throws IOException {
        if (!source.name().isEmpty() && target.isDirectory()) {
            return target.child(source.name());
        }
        return target;
    }
}
