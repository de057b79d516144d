package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File names the JVM cannot decode from the command line: bytes that are not UTF-8, and any
 * non-ASCII name under {@code LANG=C} (cron, containers, services), where the JVM decodes
 * arguments (and its working directory) as ASCII. Both reached the commands as other names
 * ("no such file").
 */
class RawArgumentsTest {

    @TempDir
    Path work;

    private static byte[] cmdline(byte[]... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] a : args) {
            out.writeBytes(a);
            out.write(0);
        }
        return out.toByteArray();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void undecodedArgumentsAreReadAgainLosslessly() {
        byte[] bad = {'/', 'x', '/', 'b', (byte) 0xFF, (byte) 0xFE};
        byte[] uri = {'s', 'f', 't', 'p', ':', '/', '/', 'h', '/', (byte) 0xFF, 'a'};
        byte[] cafe = "caf\u00e9".getBytes(StandardCharsets.UTF_8);
        byte[] line = cmdline(ascii("java"), ascii("-cp"), ascii("rpath.jar"), ascii("Main"), ascii("cp"), bad, uri, cafe);
        Charset utf8 = StandardCharsets.UTF_8;
        String[] asJvm = {"cp", new String(bad, utf8), new String(uri, utf8), new String(cafe, utf8)};
        assertThat(RawArguments.recover(asJvm, line, utf8))
                .containsExactly("cp", "/x/b\udcff\udcfe", "sftp://h/%FFa", "caf\u00e9");
        // Under LANG=C the JVM decodes as ASCII: "café" arrived as "caf\uFFFD\uFFFD"
        Charset ascii = StandardCharsets.US_ASCII;
        String[] asCLocale = {"cp", new String(bad, ascii), new String(uri, ascii), new String(cafe, ascii)};
        assertThat(asCLocale[3]).isEqualTo("caf\uFFFD\uFFFD");
        assertThat(RawArguments.recover(asCLocale, line, ascii))
                .containsExactly("cp", "/x/b\udcff\udcfe", "sftp://h/%FFa", "caf\u00e9");
    }

    @Test
    void aCommandLineThatDoesNotEndWithTheArgumentsChangesNothing() {
        String[] args = {"cat", "a\uFFFDb"};
        byte[] other = cmdline(ascii("java"), ascii("Main"), ascii("cat"), ascii("something-else"));
        assertThat(RawArguments.recover(args, other, StandardCharsets.UTF_8)).containsExactly(args);
        assertThat(RawArguments.recover(args, cmdline(ascii("x")), StandardCharsets.UTF_8)).containsExactly(args);
        assertThat(RawArguments.recover(args, new byte[0], StandardCharsets.UTF_8)).containsExactly(args);
    }

    /** The real thing: a JVM in the C locale, given names by a shell as bytes. */
    @Test
    void aProcessInTheCLocaleReadsNonAsciiAndNonUtf8NamesItIsGiven() throws Exception {
        Path bad = Path.of(URI.create("file://" + work.toAbsolutePath() + "/bad%FF%FEname.txt"));
        Files.writeString(bad, "raw bytes");
        Path cafe = Path.of(URI.create("file://" + work.toAbsolutePath() + "/caf%C3%A9"));
        Files.createDirectory(cafe);
        Files.writeString(cafe.resolve("inner.txt"), "in a caf\u00e9");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String run = "\"$JAVA\" -cp \"$CP\" " + Rpath.class.getName();
        String script = "cd \"$WORK\" && " + run + " cat \"$(printf 'bad\\377\\376name.txt')\" && echo"
                + " && " + run + " cat \"$(printf 'caf\\303\\251')/inner.txt\" && echo"
                + " && " + run + " cp \"$(printf 'bad\\377\\376name.txt')\" \"$(printf 'caf\\303\\251')/\""
                // a relative path inside a working directory the JVM itself decoded as "caf??"
                + " && cd \"$(printf 'caf\\303\\251')\" && " + run + " cat inner.txt && echo";
        ProcessBuilder pb = new ProcessBuilder(List.of("/bin/sh", "-c", script)).redirectErrorStream(true);
        pb.environment().put("LANG", "C");
        pb.environment().put("LC_ALL", "C");
        pb.environment().put("JAVA", java);
        pb.environment().put("CP", System.getProperty("java.class.path"));
        pb.environment().put("WORK", work.toAbsolutePath().toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out.lines().toList()).containsExactly("raw bytes", "in a caf\u00e9", "in a caf\u00e9");
        List<String> copied = new ArrayList<>();
        try (var s = Files.newDirectoryStream(cafe)) {
            s.forEach(f -> copied.add(f.toUri().getRawPath().substring(f.toUri().getRawPath().lastIndexOf('/') + 1)));
        }
        assertThat(copied).containsExactlyInAnyOrder("inner.txt", "bad%FF%FEname.txt");
        assertThat(Files.readString(Path.of(URI.create(cafe.toUri() + "bad%FF%FEname.txt")))).isEqualTo("raw bytes");
    }
}
