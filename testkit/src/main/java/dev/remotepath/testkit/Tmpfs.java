package dev.remotepath.testkit;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A small tmpfs the test mounts on a directory of its own, for full-disk cases; unmounted on
 * close. Needs root (CI runs as root): elsewhere {@link #mount} gives nothing and the case is
 * skipped.
 */
public final class Tmpfs implements AutoCloseable {

    private final Path where;

    private Tmpfs(Path where) {
        this.where = where;
    }

    /** Mounts a tmpfs of {@code size} ({@code 256k}, {@code 1m}) on the existing directory {@code where}. */
    public static Optional<Tmpfs> mount(Path where, String size) throws Exception {
        return run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", where.toString()) == 0
                ? Optional.of(new Tmpfs(where)) : Optional.empty();
    }

    /** {@link #mount} on a fresh directory {@code where}, or the calling case skipped, saying why. */
    public static Tmpfs mountOrSkip(Path where, String size) throws Exception {
        java.nio.file.Files.createDirectories(where);
        Optional<Tmpfs> disk = mount(where, size);
        org.junit.jupiter.api.Assumptions.assumeTrue(disk.isPresent(), "cannot mount a tmpfs here (not root?): skipped");
        return disk.get();
    }

    public Path path() {
        return where;
    }

    @Override
    public void close() throws Exception {
        run("umount", where.toString());
    }

    private static int run(String... cmd) throws Exception {
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start().waitFor();
    }
}
