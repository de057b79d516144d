package dev.remotepath.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Clean-up of the local directories tests and benchmarks create (without following links). */
public final class LocalTrees {

    private LocalTrees() {
    }

    /** Deletes {@code dir} and everything below it; nothing happens when it does not exist. */
    public static void delete(Path dir) throws IOException {
        if (dir == null || !Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
