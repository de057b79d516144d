package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What bin/rpath hands the JVM per command: the compilers (C1 only, or C2 with the crypto
 * package's lower thresholds) and the AOT cache (local or remote). The script runs as shipped,
 * in a copy of the layout it expects, with a "JDK" whose java prints its arguments.
 */
class LauncherTest {

    @TempDir
    Path root;

    @BeforeEach
    void layout() throws Exception {
        layout(root);
    }

    private static void layout(Path root) throws Exception {
        Path bin = Files.createDirectories(root.resolve("bin"));
        Files.copy(Path.of("../bin/rpath"), bin.resolve("rpath"));
        bin.resolve("rpath").toFile().setExecutable(true);
        Path target = Files.createDirectories(root.resolve("cli/target"));
        Path jdk = Files.createDirectories(root.resolve("jdk/bin"));
        Files.writeString(jdk.resolve("java"), "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
        jdk.resolve("java").toFile().setExecutable(true);
        Files.writeString(target.resolve("rpath.java-home"), root.resolve("jdk") + "\n");
        Files.writeString(target.resolve("rpath.jar"), "jar");
        Files.writeString(target.resolve("rpath.aot"), "cache");
        Files.writeString(target.resolve("rpath-remote.aot"), "cache");
        Files.writeString(target.resolve("rpath-listing.aot"), "cache");
        FileTime later = FileTime.from(Instant.now().plusSeconds(5));
        Files.setLastModifiedTime(target.resolve("rpath.aot"), later);
        Files.setLastModifiedTime(target.resolve("rpath-remote.aot"), later);
        Files.setLastModifiedTime(target.resolve("rpath-listing.aot"), later);
    }

    private List<String> jvmArgs(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(root.resolve("bin/rpath").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("RPATH_JIT");
        pb.environment().remove("RPATH_JAVA_OPTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out.lines().toList();
    }

    private List<String> jvmArgs(String... args) throws Exception {
        return jvmArgs(Map.of(), args);
    }

    /** Whether the command runs on C1; the choice is passed on to the command as rpath.jit either way. */
    private static boolean c1(List<String> jvm) {
        boolean c1 = jvm.contains("-XX:TieredStopAtLevel=1");
        assertThat(jvm).as("the choice passed on").contains(c1 ? "-Drpath.jit=c1" : "-Drpath.jit=c2");
        return c1;
    }

    private String cache(List<String> jvm) {
        return jvm.stream().filter(a -> a.startsWith("-XX:AOTCache=")).findFirst().orElse("none");
    }

    @Test
    void localCommandsRunOnC1WithTheLocalCache() throws Exception {
        for (String[] args : List.of(new String[] {"sync", "/a", "/b"},
                new String[] {"cp", "-r", "/a", "mem://x/"}, new String[] {"--help"}, new String[] {"rm", "/a"})) {
            List<String> jvm = jvmArgs(args);
            assertThat(c1(jvm)).as(String.join(" ", args)).isTrue();
            assertThat(cache(jvm)).endsWith("/rpath.aot");
            assertThat(jvm).endsWith(args);
        }
    }

    @Test
    void dataMovingRemoteCommandsGetC2AndTheRemoteCache() throws Exception {
        for (String[] args : List.of(new String[] {"cp", "/big", "sftp://h/big"},
                new String[] {"--identity=/k", "sync", "/t", "s3://b/t"},
                new String[] {"cat", "https://example.org/x"}, new String[] {"mv", "sftp://h/a", "/a"})) {
            List<String> jvm = jvmArgs(args);
            assertThat(c1(jvm)).as(String.join(" ", args)).isFalse();
            assertThat(jvm).as(String.join(" ", args))
                    .contains("-XX:CompileCommand=CompileThresholdScaling,com.sun.crypto.provider.*::*,0.05")
                    .contains("-XX:CompileThresholdScaling=5");
            assertThat(cache(jvm)).endsWith("/rpath-remote.aot");
        }
    }

    @Test
    void treesOfSmallFilesGoOnC1AndLargeFilesOnC2() throws Exception {
        Path small = Files.createDirectories(root.resolve("small"));
        for (int i = 0; i < 20; i++) {
            Files.writeString(small.resolve("f" + i), "x".repeat(4096));
        }
        Path big = root.resolve("big.bin");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(40L << 20); // sparse: its size is 40 MiB all the same
        }
        // Many small files are bound by round trips, not by the cipher, whatever their total.
        Path many = Files.createDirectories(root.resolve("many"));
        for (int i = 0; i < 600; i++) {
            try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(many.resolve("f" + i).toFile(), "rw")) {
                f.setLength(60 << 10);
            }
        }
        assertThat(c1(jvmArgs("sync", many.toString(), "sftp://h/many"))).as("36 MiB in 60 KiB files").isTrue();
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(many.resolve("f0").toFile(), "rw")) {
            f.setLength((64 << 10) + 1);
        }
        assertThat(c1(jvmArgs("sync", many.toString(), "sftp://h/many"))).as("one file over 64 KiB").isFalse();
        assertThat(c1(jvmArgs("cp", "-r", small.toString(), "sftp://h/small"))).as("a small tree").isTrue();
        assertThat(c1(jvmArgs("sync", "--transfers", "4", small.toString(), "s3://b/small"))).isTrue();
        assertThat(c1(jvmArgs("cp", small.resolve("f0").toString(), "sftp://h/f0"))).as("a small file").isTrue();
        assertThat(c1(jvmArgs("cp", big.toString(), "sftp://h/big.bin"))).as("a 40 MiB file").isFalse();
        Path link = Files.createSymbolicLink(root.resolve("link.bin"), big);
        assertThat(c1(jvmArgs("cp", link.toString(), "sftp://h/big.bin"))).as("a link to it, followed").isFalse();
        Files.delete(link);
        // A link inside the tree is skipped or kept as a link by default, but --copy-links copies
        // what it points to: then the check follows it too.
        Path inner = Files.createSymbolicLink(small.resolve("inner-link.bin"), big);
        assertThat(c1(jvmArgs("sync", small.toString(), "sftp://h/small"))).as("a link to it, not followed").isTrue();
        List<String> following = jvmArgs("sync", "--copy-links", small.toString(), "sftp://h/small");
        assertThat(c1(following)).as("a link to it, --copy-links").isFalse();
        assertThat(following).contains("-Xmn48m");
        Files.delete(inner);
        Files.move(big, small.resolve("big.bin"));
        assertThat(c1(jvmArgs("sync", small.toString(), "sftp://h/small"))).as("a tree holding it").isFalse();
        assertThat(c1(jvmArgs("cp", "sftp://h/any", small.resolve("x").toString()))).as("a remote source").isFalse();
    }

    /**
     * Commands moving data over the network get the small young generation with large survivor
     * spaces (in-flight packets and parts die young there instead of being promoted); the rest,
     * and transfers of a local tree of small files (no megabytes in flight, and the small young
     * generation only collected more often), keep the JVM's defaults. Options a user gives in
     * RPATH_JAVA_OPTS come after, so they win.
     */
    @Test
    void remoteDataCommandsGetTheYoungGenerationThatKeepsInFlightBuffersYoung() throws Exception {
        Path small = Files.createDirectories(root.resolve("small-tree"));
        for (int i = 0; i < 20; i++) {
            Files.writeString(small.resolve("f" + i), "x".repeat(4096));
        }
        assertThat(jvmArgs("sync", small.toString(), "sftp://h/small")).as("a local tree of small files")
                .doesNotContain("-Xmn48m", "-XX:SurvivorRatio=1");
        assertThat(jvmArgs("cp", "-r", small.toString(), "s3://b/small")).doesNotContain("-Xmn48m");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(small.resolve("big.bin").toFile(), "rw")) {
            f.setLength(1L << 20);
        }
        assertThat(jvmArgs("sync", small.toString(), "sftp://h/small")).as("the tree with a 1 MiB file in it")
                .contains("-Xmn48m", "-XX:SurvivorRatio=1", "-XX:TargetSurvivorRatio=90");
        Files.delete(small.resolve("big.bin"));
        Path script = Files.writeString(root.resolve("copy.js"), "// a script is its own source, not what it moves");
        assertThat(jvmArgs("script", script.toString(), "sftp://h/big")).as("a script, whatever it moves")
                .contains("-Xmn48m");
        assertThat(jvmArgs(Map.of("RPATH_JIT", "c1"), "sync", small.toString(), "sftp://h/small"))
                .as("not looked through when RPATH_JIT is set: the small young generation, as for any transfer")
                .contains("-Xmn48m");
        for (String[] args : List.of(new String[] {"sync", "/t", "s3://b/t"}, new String[] {"cp", "sftp://h/a", "/a"},
                new String[] {"cp", "-r", "/small", "sftp://h/small"})) {
            List<String> jvm = jvmArgs(args);
            assertThat(jvm).as(String.join(" ", args)).contains("-Xmn48m", "-XX:SurvivorRatio=1", "-XX:TargetSurvivorRatio=90");
        }
        for (String[] args : List.of(new String[] {"ls", "-l", "sftp://h/dir"}, new String[] {"sync", "/a", "/b"},
                new String[] {"cp", "-r", "/a", "mem://x/"})) {
            assertThat(jvmArgs(args)).as(String.join(" ", args)).doesNotContain("-Xmn48m");
        }
        List<String> own = jvmArgs(Map.of("RPATH_JAVA_OPTS", "-Xmn200m"), "sync", "/t", "s3://b/t");
        assertThat(own.indexOf("-Xmn200m")).as("the user's choice comes last").isGreaterThan(own.indexOf("-Xmn48m"));
    }

    @Test
    void localListingCommandsGetTheSmallestCache() throws Exception {
        for (String[] args : List.of(new String[] {"ls", "-l", "/tmp"}, new String[] {"--json", "stat", "/tmp"},
                new String[] {"ls", "-lR", "file:///tmp"})) {
            List<String> jvm = jvmArgs(args);
            assertThat(c1(jvm)).as(String.join(" ", args)).isTrue();
            assertThat(cache(jvm)).as(String.join(" ", args)).endsWith("/rpath-listing.aot");
        }
        assertThat(cache(jvmArgs("ls", "sftp://h/dir"))).endsWith("/rpath-remote.aot");
        Files.delete(root.resolve("cli/target/rpath-listing.aot"));
        assertThat(cache(jvmArgs("ls", "-l", "/tmp"))).as("a build without it").endsWith("/rpath.aot");
    }

    @Test
    void shortRemoteCommandsStayOnC1WithTheRemoteCache() throws Exception {
        List<String> jvm = jvmArgs("ls", "-l", "sftp://h/dir");
        assertThat(c1(jvm)).isTrue();
        assertThat(cache(jvm)).endsWith("/rpath-remote.aot");
    }

    @Test
    void commandsWhoseRemoteUrisAreAllOfOneKindGetTheirOwnCache() throws Exception {
        for (String name : List.of("rpath-webdav.aot", "rpath-ftp.aot", "rpath-sftp.aot", "rpath-s3.aot",
                "rpath-azure.aot")) {
            Path cache = root.resolve("cli/target/" + name);
            Files.writeString(cache, "cache");
            Files.setLastModifiedTime(cache, FileTime.from(Instant.now().plusSeconds(5)));
        }
        assertThat(cache(jvmArgs("ls", "webdav://h/dir/"))).endsWith("/rpath-webdav.aot");
        assertThat(cache(jvmArgs("sync", "/t", "webdavs://h/t", "--delete"))).endsWith("/rpath-webdav.aot");
        assertThat(cache(jvmArgs("ls", "ftp://u@h/dir"))).endsWith("/rpath-ftp.aot");
        assertThat(cache(jvmArgs("cp", "ftps://u@h/a", "/a"))).endsWith("/rpath-ftp.aot");
        assertThat(cache(jvmArgs("sync", "ftp://u@h/t", "file:///t"))).endsWith("/rpath-ftp.aot");
        assertThat(cache(jvmArgs("cp", "ftp://u@h/a", "webdav://h/a"))).as("mixed").endsWith("/rpath-remote.aot");
        assertThat(cache(jvmArgs("cp", "ftp://u@h/a", "sftp://h/a"))).as("mixed").endsWith("/rpath-remote.aot");
        assertThat(cache(jvmArgs("ls", "-l", "sftp://u@h/dir"))).endsWith("/rpath-sftp.aot");
        assertThat(cache(jvmArgs("--sftp-client=sshj", "sync", "/t", "sftp://h/t"))).endsWith("/rpath-sftp.aot");
        assertThat(cache(jvmArgs("cp", "sftp://h/a", "sftp://g/a"))).as("two SFTP hosts").endsWith("/rpath-sftp.aot");
        assertThat(cache(jvmArgs("cp", "sftp://h/a", "s3://b/a"))).as("mixed").endsWith("/rpath-remote.aot");
        assertThat(cache(jvmArgs("cp", "webdav://h/a", "sftp://h/a"))).as("mixed").endsWith("/rpath-remote.aot");
        assertThat(cache(jvmArgs("sync", "/t", "s3://b/t"))).endsWith("/rpath-s3.aot");
        // An endpoint's URL is an option's value, not a URI of another kind (it was, and such
        // commands got the remote cache: ~0.1 s more to start).
        assertThat(cache(jvmArgs("--s3-endpoint=http://127.0.0.1:9000", "--s3-path-style", "stat", "s3://b/a")))
                .endsWith("/rpath-s3.aot");
        assertThat(cache(jvmArgs("--s3-endpoint", "http://127.0.0.1:9000", "ls", "s3://b/"))).endsWith("/rpath-s3.aot");
        assertThat(cache(jvmArgs("ls", "az://container/dir/"))).endsWith("/rpath-azure.aot");
        assertThat(cache(jvmArgs("--az-endpoint=http://127.0.0.1:10000/acct", "sync", "/t", "az://container/t")))
                .endsWith("/rpath-azure.aot");
        assertThat(cache(jvmArgs("cp", "s3://b/a", "az://container/a"))).as("mixed").endsWith("/rpath-remote.aot");
        assertThat(cache(jvmArgs("cp", "https://example.org/a", "s3://b/a"))).as("mixed").endsWith("/rpath-remote.aot");
        Files.delete(root.resolve("cli/target/rpath-ftp.aot"));
        assertThat(cache(jvmArgs("ls", "ftp://u@h/dir"))).as("a build without it").endsWith("/rpath-remote.aot");
        Files.delete(root.resolve("cli/target/rpath-sftp.aot"));
        assertThat(cache(jvmArgs("ls", "sftp://h/dir"))).as("a build without it").endsWith("/rpath-remote.aot");
    }

    @Test
    void noCommandWaitsAtExitForThreadsInNativeCode() throws Exception {
        for (String[] args : List.of(new String[] {"ls", "/tmp"}, new String[] {"sync", "/t", "ftp://u@h/t"})) {
            assertThat(jvmArgs(args)).as(String.join(" ", args)).contains("-XX:UserThreadWaitAttemptsAtExit=0");
        }
    }

    /** Local commands reflect once (a backend's constructor): native accessors, nothing spun. */
    @Test
    void localCommandsReflectThroughNativeAccessors() throws Exception {
        String flag = "-Djdk.reflect.useNativeAccessorOnly=true";
        for (String[] args : List.of(new String[] {"ls", "-l", "/tmp"}, new String[] {"sync", "/a", "mem://x/b"},
                new String[] {"--version"})) {
            assertThat(jvmArgs(args)).as(String.join(" ", args)).contains(flag);
        }
        for (String[] args : List.of(new String[] {"ls", "sftp://h/dir"}, new String[] {"sync", "/t", "az://c/t"},
                new String[] {"script", "/tmp/x.groovy"})) {
            assertThat(jvmArgs(args)).as(String.join(" ", args)).doesNotContain(flag);
        }
    }

    @Test
    void anOptionValueIsNotTakenForTheCommand() throws Exception {
        List<String> jvm = jvmArgs("--known-hosts", "/etc/kh", "--sftp-client", "sshj", "cp", "/big", "sftp://h/big");
        assertThat(c1(jvm)).isFalse();
    }

    @Test
    void rpathJitForcesEitherWay() throws Exception {
        assertThat(c1(jvmArgs(Map.of("RPATH_JIT", "c1"), "cp", "/big", "sftp://h/big"))).isTrue();
        assertThat(c1(jvmArgs(Map.of("RPATH_JIT", "c2"), "ls", "/tmp"))).isFalse();
        assertThat(c1(jvmArgs(Map.of("RPATH_JIT", "c3"), "ls", "/tmp"))).as("anything else: C1").isTrue();
    }

    @Test
    void aStaleCacheIsLeftOut() throws Exception {
        Files.setLastModifiedTime(root.resolve("cli/target/rpath.aot"), FileTime.from(Instant.now().minusSeconds(60)));
        assertThat(cache(jvmArgs("sync", "/a", "/b"))).isEqualTo("none");
        Files.setLastModifiedTime(root.resolve("cli/target/rpath-listing.aot"), FileTime.from(Instant.now().minusSeconds(60)));
        assertThat(cache(jvmArgs("ls", "/tmp"))).isEqualTo("none");
    }

    /**
     * The jar goes on the class path with its main class named (with -jar the JVM opens it and
     * parses its manifest before main, which a local ls otherwise never needs), with or without
     * a cache; and no hsperfdata file, unless RPATH_JAVA_OPTS asks for it back.
     */
    @Test
    void theJarRunsFromTheClassPathWithoutPerfData() throws Exception {
        String jar = root.resolve("bin/../cli/target/rpath.jar").toString();
        for (String[] args : List.of(new String[] {"ls", "-l", "/tmp"}, new String[] {"sync", "/a", "sftp://h/b"})) {
            List<String> jvm = jvmArgs(args);
            int main = jvm.indexOf(Rpath.class.getName());
            assertThat(main).as(String.join(" ", args)).isGreaterThan(1);
            assertThat(jvm.subList(main - 2, main)).containsExactly("-cp", jar);
            assertThat(jvm.subList(main + 1, jvm.size())).containsExactly(args);
            assertThat(jvm).doesNotContain("-jar").contains("-XX:-UsePerfData");
        }
        Files.delete(root.resolve("cli/target/rpath.aot"));
        List<String> uncached = jvmArgs(Map.of("RPATH_JAVA_OPTS", "-XX:+UsePerfData"), "mkdir", "/a");
        assertThat(cache(uncached)).isEqualTo("none");
        assertThat(uncached.subList(uncached.size() - 5, uncached.size()))
                .containsExactly("-cp", jar, Rpath.class.getName(), "mkdir", "/a");
        assertThat(uncached.indexOf("-XX:+UsePerfData")).isGreaterThan(uncached.indexOf("-XX:-UsePerfData"));
    }

    /**
     * A checkout under a directory with a space runs (the jar's path stays one argument); under
     * one with ':' the JVM would split the class path there, with -jar too, and find no main
     * class: the launcher says so instead.
     */
    @Test
    void aSpaceInTheCheckoutsPathRunsAndAColonIsRefusedClearly() throws Exception {
        Path spaced = root.resolve("my checkout");
        layout(spaced);
        Process ok = new ProcessBuilder(spaced.resolve("bin/rpath").toString(), "ls", "/tmp").redirectErrorStream(true).start();
        List<String> jvm = new String(ok.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(ok.waitFor()).isZero();
        assertThat(jvm).contains(spaced.resolve("bin/../cli/target/rpath.jar").toString());
        Path colon = root.resolve("a:b");
        layout(colon);
        Process refused = new ProcessBuilder(colon.resolve("bin/rpath").toString(), "ls", "/tmp").start();
        String err = new String(refused.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(refused.waitFor()).isEqualTo(2);
        assertThat(err).contains("a:b/bin/../cli/target/rpath.jar", "cannot be on a JVM's class path");
        assertThat(refused.getInputStream().readAllBytes()).as("no JVM started").isEmpty();
    }
}
