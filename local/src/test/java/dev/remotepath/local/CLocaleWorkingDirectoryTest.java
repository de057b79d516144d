package dev.remotepath.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePaths;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Relative paths in a JVM whose working directory's name its locale cannot decode (a
 * non-ASCII directory under {@code LANG=C}: cron, containers, services). The JVM reads it back
 * as {@code caf??}; relative paths went there (and a sync's {@code createDirectories} would
 * have made it), instead of into the directory the process is in.
 */
class CLocaleWorkingDirectoryTest {

    @TempDir
    Path work;

    /** Run in the child JVM: writes three files by relative names. */
    public static void main(String[] args) throws Exception {
        RemotePaths.of(Path.of("by-of.txt")).writeString("of");
        RemotePaths.get("by-get.txt").writeString("get");
        RemotePaths.get("sub/caf\u00e9-inside.txt").parent().createDirectories();
        RemotePaths.get("sub/caf\u00e9-inside.txt").writeString("non-ascii name");
        System.out.println(RemotePaths.of(Path.of("by-of.txt")).readString());
        // An absolute path NIO cannot encode here: reached by its bytes, whatever the working directory.
        System.out.println(RemotePaths.get(System.getenv("WORK") + "/caf\u00e9/sub/caf\u00e9-inside.txt").readString());
    }

    @Test
    void relativePathsLandInTheRealWorkingDirectory() throws Exception {
        Path cafe = Path.of(URI.create("file://" + work.toAbsolutePath() + "/caf%C3%A9"));
        Files.createDirectory(cafe);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(List.of("/bin/sh", "-c",
                "cd \"$WORK/$(printf 'caf\\303\\251')\" && \"$JAVA\" -cp \"$CP\" " + getClass().getName()))
                .redirectErrorStream(true);
        pb.environment().put("LANG", "C");
        pb.environment().put("LC_ALL", "C");
        pb.environment().put("JAVA", java);
        // Everything this JVM runs on, on the child's class path: the module-path pass has the
        // module under test and its modules on jdk.module.path, not on java.class.path.
        String modules = System.getProperty("jdk.module.path", "");
        pb.environment().put("CP", System.getProperty("java.class.path")
                + (modules.isEmpty() ? "" : File.pathSeparator + modules));
        pb.environment().put("WORK", work.toAbsolutePath().toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.lines().toList()).containsExactly("of", "non-ascii name");
        assertThat(Files.readString(cafe.resolve("by-of.txt"))).isEqualTo("of");
        assertThat(Files.readString(cafe.resolve("by-get.txt"))).isEqualTo("get");
        assertThat(Files.readString(cafe.resolve("sub/caf\u00e9-inside.txt"))).isEqualTo("non-ascii name");
        List<String> top = new ArrayList<>();
        try (var s = Files.newDirectoryStream(work)) {
            s.forEach(f -> top.add(f.toUri().getRawPath()));
        }
        assertThat(top).singleElement().asString().endsWith("/caf%C3%A9/"); // no "caf??" beside it
    }
}
