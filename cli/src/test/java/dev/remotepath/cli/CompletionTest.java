package dev.remotepath.cli;

import static dev.remotepath.cli.RpathTest.rpath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The completion scripts, run by the real shells: bash calls the function as its completion
 * machinery would (COMP_WORDS, COMP_CWORD); zsh with its completion builtins replaced by
 * functions that print what they were given (they cannot run outside a completion widget).
 */
class CompletionTest {

    @TempDir
    Path temp;

    private List<String> bash(String... words) throws Exception {
        Path script = Files.writeString(temp.resolve("rpath.bash"), rpath("completion", "bash").out());
        StringBuilder array = new StringBuilder();
        for (String w : words) {
            array.append("'").append(w.replace("'", "'\\''")).append("' ");
        }
        String program = "source " + script + "; COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1)
                + "; _rpath; printf '%s\\n' \"${COMPREPLY[@]}\"";
        return run(List.of("bash", "-c", program));
    }

    private List<String> zsh(String... words) throws Exception {
        boolean installed = Files.isExecutable(Path.of("/usr/bin/zsh"));
        if (!installed && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("zsh is not installed; .ci/run installs it");
        }
        assumeTrue(installed, "zsh is not installed");
        Path script = Files.writeString(temp.resolve("_rpath"), rpath("completion", "zsh").out());
        StringBuilder array = new StringBuilder();
        for (String w : words) {
            array.append("'").append(w.replace("'", "'\\''")).append("' ");
        }
        String last = words[words.length - 1];
        String program = "compadd() { [[ $1 == -- ]] && shift; print -rl -- \"$@\" }; _files() { print -r -- '<files>' }; "
                + "_describe() { local -a list; list=(\"${(@P)2}\"); print -rl -- \"${list[@]%%:*}\" }; "
                + "words=(" + array + "); CURRENT=" + words.length + "; PREFIX='" + last.replace("'", "'\\''") + "'; "
                + "source " + script;
        List<String> out = run(List.of("zsh", "-f", "-c", program));
        // zsh's compadd filters by PREFIX itself; the stub does not.
        return out.stream().filter(w -> w.equals("<files>") || w.startsWith(last)).toList();
    }

    private static List<String> run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out.lines().filter(l -> !l.isEmpty()).toList();
    }

    @Test
    void bashCompletesCommandsOptionsValuesAndPaths() throws Exception {
        assertThat(bash("rpath", "sy")).containsExactly("sync");
        assertThat(bash("rpath", "c")).containsExactlyInAnyOrder("cat", "cp", "checksum", "completion");
        assertThat(bash("rpath", "sync", "--del")).containsExactly("--delete");
        assertThat(bash("rpath", "sync", "a", "b", "--max")).containsExactly("--max-delete");
        assertThat(bash("rpath", "ls", "--js")).containsExactly("--json");
        assertThat(bash("rpath", "--sftp-client", "")).containsExactly("mina", "sshj");
        assertThat(bash("rpath", "checksum", "-a", "sha")).containsExactly("sha1", "sha256", "sha512");
        assertThat(bash("rpath", "completion", "")).containsExactly("bash", "zsh");
        Files.writeString(temp.resolve("notes.txt"), "x");
        Files.createDirectories(temp.resolve("nested"));
        assertThat(bash("rpath", "cat", temp + "/no")).containsExactly(temp + "/notes.txt");
        assertThat(bash("rpath", "--identity", temp + "/ne")).containsExactly(temp + "/nested");
        // Every option a command's help lists is offered.
        assertThat(bash("rpath", "sync", "--")).contains("--dry-run", "--checksum", "--bwlimit", "--use-server-modtime",
                "--json", "--proxy-jump");
    }

    @Test
    void zshCompletesCommandsOptionsValuesAndPaths() throws Exception {
        assertThat(zsh("rpath", "sy")).containsExactly("sync");
        assertThat(zsh("rpath", "sync", "--del")).containsExactly("--delete");
        assertThat(zsh("rpath", "--sftp-client", "")).containsExactly("mina", "sshj");
        assertThat(zsh("rpath", "cat", "x")).containsExactly("<files>");
        assertThat(zsh("rpath", "ls", "--m")).containsExactly("--mtime");
    }

    @Test
    void anUnknownShellIsAUsageError() {
        RpathTest.Result r = rpath("completion", "fish");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("no completion for the shell 'fish' (bash or zsh)");
    }
}
