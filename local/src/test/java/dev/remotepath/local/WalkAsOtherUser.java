package dev.remotepath.local;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.WalkOptions;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Run by {@link HostileTreeTest} in a child JVM under an unprivileged user (root ignores
 * permission bits, and tests run as root in CI): lists and walks a tree holding an unreadable
 * directory, printing what happened, one line each.
 */
public final class WalkAsOtherUser {
    public static void main(String[] args) throws Exception {
        RemotePath root = RemotePaths.of(Path.of(args[0]));
        LocalFileSystem.instance().awaitBinding();
        System.out.println("lister " + LocalFileSystem.instance().listerDescription());
        try {
            root.resolve("locked").list();
            System.out.println("list locked: no error");
        } catch (Exception e) {
            System.out.println("list locked: " + e.getClass().getSimpleName() + " " + e.getMessage());
        }
        try (Stream<DirEntry> s = root.walk(WalkOptions.defaults().withErrorHandler(
                (d, e) -> System.out.println("skipped " + root.relativize(d).pathString() + ": " + e.getClass().getSimpleName())))) {
            s.forEach(e -> System.out.println("entry " + root.relativize(e.path()).pathString()));
        }
    }
}
