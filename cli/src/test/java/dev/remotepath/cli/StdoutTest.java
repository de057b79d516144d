package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standard output that fails, as users meet it: a reader that goes away ({@code rpath ls -R |
 * head}, {@code rpath cat | head}) ends the command quietly with 141, as coreutils end there; a
 * full disk ({@code > file}, here {@code /dev/full}) is an error, never a silent success with the
 * output lost. Real processes and real pipes.
 */
class StdoutTest {

    @TempDir
    static Path temp;
    static Path tree;
    static Path big;
    static Path script;

    @BeforeAll
    static void files() throws IOException {
        tree = temp.resolve("tree");
        for (int d = 0; d < 40; d++) {
            Path dir = Files.createDirectories(tree.resolve("d" + d));
            for (int f = 0; f < 100; f++) {
                Files.writeString(dir.resolve("file-with-a-longish-name-" + f + ".txt"), "x");
            }
        }
        big = temp.resolve("big.bin");
        Files.write(big, new byte[4 << 20]);
        script = temp.resolve("many.js");
        Files.writeString(script, "for (var i = 0; i < 200000; i++) { out.println('line ' + i); }\n");
    }

    private static ProcessBuilder rpath(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Rpath.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd);
    }

    /** Runs the command, reads a little of its output, closes the pipe: the exit code and stderr. */
    private static Result readALittleThenLeave(String... args) throws Exception {
        Process p = rpath(args).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(r.read(new char[16])).isPositive();
        } // the reader has gone
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the command ends once its reader has gone").isTrue();
        return new Result(p.exitValue(), err);
    }

    private static Result intoDevFull(String... args) throws Exception {
        Process p = rpath(args).redirectOutput(new File("/dev/full")).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), err);
    }

    record Result(int code, String err) {
    }

    @Test
    void aListingWhoseReaderGoesAwayEndsQuietlyWith141() throws Exception {
        for (List<String> args : List.of(List.of("ls", "-R", tree.toString()), List.of("ls", "-lR", tree.toString()),
                List.of("ls", "--json", "-R", tree.toString()), List.of("script", script.toString()))) {
            Result r = readALittleThenLeave(args.toArray(String[]::new));
            assertThat(r.err()).as("%s", args).isEmpty();
            assertThat(r.code()).as("%s", args).isEqualTo(StdoutStream.READER_GONE_EXIT);
        }
    }

    @Test
    void catWhoseReaderGoesAwayEndsQuietlyWith141() throws Exception {
        Result r = readALittleThenLeave("cat", big.toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isEqualTo(StdoutStream.READER_GONE_EXIT);
    }

    @Test
    void aFullDiskUnderStdoutIsAnErrorNotASilentSuccess() throws Exception {
        assumeTrue(Files.exists(Path.of("/dev/full")), "a system with /dev/full");
        for (List<String> args : List.of(List.of("ls", "-R", tree.toString()), List.of("ls", "-lR", tree.toString()),
                List.of("cat", big.toString()), List.of("stat", big.toString()), List.of("script", script.toString()))) {
            Result r = intoDevFull(args.toArray(String[]::new));
            assertThat(r.code()).as("%s", args).isEqualTo(Failures.SOME_FAILED);
            assertThat(r.err().lines()).as("%s", args).singleElement()
                    .satisfies(l -> assertThat(l).startsWith("rpath " + args.getFirst() + ": standard output: "));
        }
    }

    @Test
    void theStreamTellsTheTwoFailuresApartByWhereItWrites() {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("refused");
            }
        };
        StdoutStream pipe = new StdoutStream(broken, () -> true);
        assertThatThrownBy(() -> pipe.write(new byte[3], 0, 3)).isInstanceOf(StdoutStream.ReaderGone.class);
        assertThatThrownBy(() -> pipe.write(1)).as("every later write too").isInstanceOf(StdoutStream.ReaderGone.class);
        assertThatThrownBy(pipe::flush).isInstanceOf(StdoutStream.ReaderGone.class);
        StdoutStream file = new StdoutStream(broken, () -> false);
        assertThatThrownBy(() -> file.write(1)).isInstanceOf(StdoutStream.Failed.class)
                .hasMessage("standard output: refused");
    }
}
