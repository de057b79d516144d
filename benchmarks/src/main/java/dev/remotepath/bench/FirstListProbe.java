package dev.remotepath.bench;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.nio.file.Path;

/**
 * What a one-shot process pays before its first listing: run in a fresh JVM by the
 * {@code local} suite's start-up group, once with each lister.
 */
public final class FirstListProbe {
    public static void main(String[] args) throws Exception {
        RemotePath dir = RemotePaths.of(Path.of(args[0]));
        System.out.println(dir.list().size());
    }
}
