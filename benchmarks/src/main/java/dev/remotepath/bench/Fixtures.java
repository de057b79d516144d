package dev.remotepath.bench;

import dev.remotepath.testkit.LocalTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds benchmark trees once and reuses them across runs (a marker file says a tree is complete). */
final class Fixtures {

    private Fixtures() {
    }

    private static final byte[] CONTENT = new byte[100];

    /**
     * A flat directory of {@code n} entries: half directories, 45% files of 100 bytes, 5%
     * symbolic links to files.
     */
    static Path flat(Path base, int n) throws IOException {
        Path dir = base.resolve("flat-" + n);
        Path done = base.resolve("flat-" + n + ".complete");
        if (Files.exists(done)) {
            return dir;
        }
        LocalTrees.delete(dir);
        Files.createDirectories(dir);
        int dirs = n / 2;
        int links = n / 20;
        int files = n - dirs - links;
        for (int i = 0; i < dirs; i++) {
            Files.createDirectory(dir.resolve(String.format("d%07d", i)));
        }
        for (int i = 0; i < files; i++) {
            Files.write(dir.resolve(String.format("f%07d.dat", i)), CONTENT);
        }
        for (int i = 0; i < links; i++) {
            Files.createSymbolicLink(dir.resolve(String.format("l%07d", i)), Path.of(String.format("f%07d.dat", i)));
        }
        Files.writeString(done, "ok");
        return dir;
    }

    /** A tree of {@code top} x {@code mid} directories holding {@code files} files each. */
    static Path tree(Path base, int top, int mid, int files) throws IOException {
        String name = "tree-" + top + "x" + mid + "x" + files;
        Path dir = base.resolve(name);
        Path done = base.resolve(name + ".complete");
        if (Files.exists(done)) {
            return dir;
        }
        LocalTrees.delete(dir);
        for (int t = 0; t < top; t++) {
            for (int m = 0; m < mid; m++) {
                Path d = Files.createDirectories(dir.resolve("t" + t).resolve("m" + m));
                for (int f = 0; f < files; f++) {
                    Files.write(d.resolve("file" + f + ".txt"), CONTENT);
                }
            }
        }
        Files.writeString(done, "ok");
        return dir;
    }

    /** A file of {@code mib} MiB of seeded random bytes (made once, reused while its size is right). */
    static Path randomFile(Path file, int mib) throws IOException {
        if (Files.exists(file) && Files.size(file) == (long) mib << 20) {
            return file;
        }
        byte[] block = new byte[1 << 20];
        java.util.Random random = new java.util.Random(mib);
        try (java.io.OutputStream out = Files.newOutputStream(file)) {
            for (int i = 0; i < mib; i++) {
                random.nextBytes(block);
                out.write(block);
            }
        }
        return file;
    }

    /** A directory of {@code n} files {@code f0.bin...} of {@code size} seeded random bytes (made once). */
    static Path smallFiles(Path dir, int n, int size) throws IOException {
        if (Files.exists(dir.resolve("f" + (n - 1) + ".bin"))) {
            return dir;
        }
        Files.createDirectories(dir);
        java.util.Random random = new java.util.Random(size);
        byte[] content = new byte[size];
        for (int i = 0; i < n; i++) {
            random.nextBytes(content);
            Files.write(dir.resolve("f" + i + ".bin"), content);
        }
        return dir;
    }

    /** Runs a command, discarding its output; fails if it exits non-zero. */
    static void exec(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int rc = p.waitFor();
        if (rc != 0) {
            throw new IOException(String.join(" ", command) + " exited " + rc);
        }
    }

    /** True when the command runs and exits 0 (a tool is installed). */
    static boolean succeeds(String... command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** The first line a command prints (a tool's version), or "?". */
    static String firstLineOf(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        return new String(p.getInputStream().readAllBytes()).lines().findFirst().orElse("?");
    }
}
