package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress line as a terminal shows it: rpath runs in a real pseudo-terminal ({@code script}),
 * slowed by {@code --bwlimit} so the line is drawn, and every frame it drew (each {@code \r}
 * starts one) is checked: counts never pass their totals, a {@code +} while the walk goes on,
 * an ETA once it is over, the large file in flight named.
 */
class ProgressTerminalTest {

    private static final Pattern FRAME = Pattern.compile(
            "([\\d,]+)/([\\d,]+)(\\+?) files  ([\\d.]+ [KMGT]?i?B)/([\\d.]+ [KMGT]?i?B)(\\+?)  ([\\d.]+ [KMGT]?i?B)/s  ETA (\\S+)(.*)");

    @TempDir
    Path temp;

    private Path src;

    @BeforeEach
    void tree() throws Exception {
        src = Files.createDirectories(temp.resolve("src"));
        for (int i = 0; i < 20; i++) {
            Files.writeString(Files.createDirectories(src.resolve("d" + i % 4)).resolve("f" + i + ".txt"), "file " + i);
        }
        byte[] big = new byte[3 << 20];
        new java.util.Random(7).nextBytes(big);
        Files.write(src.resolve("big.bin"), big);
    }

    /** What the terminal received while {@code rpath args...} ran in a pseudo-terminal. */
    private String inTerminal(String... args) throws Exception {
        StringBuilder cmd = new StringBuilder();
        for (String a : List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Rpath.class.getName())) {
            cmd.append(quote(a)).append(' ');
        }
        for (String a : args) {
            cmd.append(quote(a)).append(' ');
        }
        Path screen = temp.resolve("screen");
        Process p = new ProcessBuilder("script", "-qfec", cmd.toString(), "/dev/null")
                .redirectInput(ProcessBuilder.Redirect.PIPE).redirectOutput(screen.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(screen, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static List<Matcher> frames(String screen) {
        List<Matcher> frames = new ArrayList<>();
        for (String part : screen.split("[\r\n]")) {
            Matcher m = FRAME.matcher(part.stripTrailing());
            if (m.matches()) {
                frames.add(m);
            }
        }
        return frames;
    }

    private static long n(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    @Test
    void syncShowsFilesOutOfThoseFoundAndNeverPastTheTotal() throws Exception {
        // Into mem: local to local copies in the kernel (copy_file_range), past --bwlimit.
        String screen = inTerminal("sync", src.toString(), "mem://progress-test/dst", "--bwlimit", "1M");
        List<Matcher> frames = frames(screen);
        assertThat(frames).as(screen).hasSizeGreaterThan(3);
        for (Matcher f : frames) {
            assertThat(n(f.group(1))).as(f.group()).isLessThanOrEqualTo(n(f.group(2)));
            assertThat(f.group(3)).isEqualTo(f.group(6));
            if (!f.group(3).isEmpty()) {
                assertThat(f.group(8)).as("no ETA while the walk goes on").isEqualTo("-");
            }
        }
        Matcher last = frames.getLast();
        assertThat(last.group(1) + "/" + last.group(2) + last.group(3)).isEqualTo("21/21");
        assertThat(last.group(4)).isEqualTo("3.0 MiB");
        assertThat(last.group(5)).isEqualTo("3.0 MiB");
        // Once the walk is over, an ETA; and the 3 MiB file is named while it is copied.
        assertThat(frames).anySatisfy(f -> assertThat(f.group(8)).matches("\\d+:\\d\\d"));
        assertThat(frames).anySatisfy(f -> assertThat(f.group(9)).matches("  big\\.bin \\d+%"));
        assertThat(screen).contains("copied 21 file(s)");
    }

    @Test
    void cpOfOneFileCountsItAndGivesAnEta() throws Exception {
        String screen = inTerminal("cp", src.resolve("big.bin").toString(), temp.resolve("copy.bin").toString(),
                "--json"); // --json: no line at all
        assertThat(frames(screen)).isEmpty();
        assertThat(Files.size(temp.resolve("copy.bin"))).isEqualTo(3 << 20);
    }

    @Test
    void cpOfATreeCountsFiles() throws Exception {
        // No --bwlimit for cp: a tree of 300 files on a slowed... the local copy is quick, so the
        // test copies to mem with enough data to pass the first second only when the disk is slow;
        // what it asserts holds for any frame drawn, and the final frame must be drawn when any was.
        String screen = inTerminal("cp", "-r", src.toString(), "mem://progress-test/dst");
        for (Matcher f : frames(screen)) {
            assertThat(n(f.group(1))).isLessThanOrEqualTo(n(f.group(2)));
        }
        List<Matcher> frames = frames(screen);
        if (!frames.isEmpty()) {
            assertThat(frames.getLast().group(1) + "/" + frames.getLast().group(2)).isEqualTo("21/21");
        }
    }
}
