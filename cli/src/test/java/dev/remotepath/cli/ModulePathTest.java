package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code rpath} as a user of the module path runs it: {@code java -p ... -m dev.remotepath.cli},
 * every RemotePath artifact a named module, the libraries named or automatic modules. A missing
 * {@code requires}, {@code exports}, {@code opens} or {@code provides}, a split package or a
 * library's unresolved dependency fails here, on the class path never. The local lister's native
 * access is granted by module name and every other native access denied.
 */
class ModulePathTest {
    @TempDir
    Path temp;
    Path src;

    @BeforeEach
    void tree() throws IOException {
        src = Files.createDirectories(temp.resolve("src"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("sub/b.txt"), "bravo");
    }

    record Run(int code, String out, String err) {}

    /** The command's module path: its own classes, then its runtime dependencies (maven-dependency-plugin). */
    static String modulePath() throws IOException {
        String deps = Files.readString(Path.of("target/module-path.txt")).strip();
        return Path.of("target/classes").toAbsolutePath() + java.io.File.pathSeparator + deps;
    }

    Run java(Map<String, String> env, String... args) throws Exception {
        return javaWith(modulePath(), env, args);
    }

    Run javaWith(String modulePath, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=dev.remotepath.local", "--illegal-native-access=deny",
                "-Dremotepath.local.lister=ffm", "-p", modulePath));
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(env);
        Path out = temp.resolve("out.txt");
        Path err = temp.resolve("err.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    Run rpath(Map<String, String> env, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("-m", "dev.remotepath.cli/dev.remotepath.cli.Rpath"));
        all.addAll(Arrays.asList(args));
        return java(env, all.toArray(String[]::new));
    }

    Run rpath(String... args) throws Exception {
        return rpath(Map.of(), args);
    }

    @Test
    void theModulePathHasNoSplitPackageAndEveryArtifactIsANamedModule() throws Exception {
        Run validate = java(Map.of(), "--validate-modules");
        assertThat(validate.code()).as(validate.out() + validate.err()).isZero();
        for (String module : List.of("dev.remotepath", "dev.remotepath.local", "dev.remotepath.mem",
                "dev.remotepath.syncer", "dev.remotepath.http", "dev.remotepath.sftp", "dev.remotepath.s3",
                "dev.remotepath.azure")) {
            Run d = java(Map.of(), "--describe-module", module);
            assertThat(d.code()).as(module + ": " + d.err()).isZero();
            assertThat(d.out().lines().findFirst().orElseThrow()).startsWith(module + "@").doesNotEndWith("automatic");
        }
        // The internal packages go only to the project's modules that build on them.
        assertThat(java(Map.of(), "--describe-module", "dev.remotepath").out())
                .contains("exports dev.remotepath\n", "exports dev.remotepath.spi\n",
                        "qualified exports dev.remotepath.tree to", "qualified exports dev.remotepath.spi.nio to",
                        "qualified exports dev.remotepath.wire to");
        Run version = rpath("--version");
        assertThat(version.code()).as(version.err()).isZero();
        assertThat(version.out().lines()).anyMatch(l -> l.matches("Apache MINA SSHD \\d.*"))
                .anyMatch(l -> l.matches("sshj \\d.*")).anyMatch(l -> l.startsWith("AWS SDK for Java 2."));
    }

    @Test
    void aLocalSyncAndItsListingRunWithTheListerGrantedByModuleName() throws Exception {
        Path dst = temp.resolve("dst");
        Run sync = rpath("sync", "--json", src.toString(), dst.toString());
        assertThat(sync.code()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("\"filesCopied\":2");
        assertThat(Files.readString(dst.resolve("sub/b.txt"))).isEqualTo("bravo");
        Run ls = rpath("ls", "-R", dst.toString());
        assertThat(ls.code()).as(ls.err()).isZero();
        assertThat(ls.out().lines()).containsExactly("a.txt", "sub/", "sub/b.txt");
    }

    /**
     * The Azure backend (the SDK, Reactor and Netty as named and automatic modules) as a user
     * runs it: account and key from AZURE_STORAGE_CONNECTION_STRING, against Azurite; and a
     * clear error, no stack trace, where the environment names no account.
     */
    @Test
    void anAzureSyncRunsWithTheAccountFromTheEnvironment() throws Exception {
        try (dev.remotepath.testkit.Azurite azurite = dev.remotepath.testkit.Azurite.start()) {
            Map<String, String> env = Map.of("AZURE_STORAGE_CONNECTION_STRING", azurite.connectionString());
            Run mkdir = rpath(env, "mkdir", "az://modules");
            assertThat(mkdir.code()).as(mkdir.err()).isZero();
            Run sync = rpath(env, "sync", "--json", src.toString(), "az://modules/tree");
            assertThat(sync.code()).as(sync.err()).isZero();
            assertThat(sync.out()).contains("\"filesCopied\":2");
            Run ls = rpath(env, "ls", "-R", "az://modules/tree");
            assertThat(ls.code()).as(ls.err()).isZero();
            assertThat(ls.out().lines()).containsExactly("a.txt", "sub/", "sub/b.txt");
            Run cat = rpath(env, "cat", "az://modules/tree/sub/b.txt");
            assertThat(cat.out()).isEqualTo("bravo");
        }
        Run none = rpath(Map.of(), "ls", "az://modules/tree");
        assertThat(none.code()).isNotZero();
        assertThat(none.err()).contains("az://modules/tree", "AZURE_STORAGE_CONNECTION_STRING").doesNotContain("\tat ");
    }

    @Test
    void scriptEnginesAndTheMemBackendAreFoundAsServices() throws Exception {
        Path dst = temp.resolve("dst");
        Path js = temp.resolve("m.js");
        Files.writeString(js, """
                var report = paths.sync(args[0], 'mem://mp/copy');
                var back = paths.sync('mem://mp/copy', args[1]);
                out.println('copied ' + report.filesCopied() + ' ' + back.filesCopied());
                paths.get(args[0]).list().forEach(function (e) { out.println(e.name() + ':' + e.type().label()); });
                log.info('done');
                """);
        Run r = rpath("script", js.toString(), src.toString(), dst.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().lines()).containsExactly("copied 2 2", "a.txt:file", "sub:directory");
        assertThat(r.err()).contains("m.js: done");
        assertThat(Files.readString(dst.resolve("a.txt"))).isEqualTo("alpha");
        Path groovy = temp.resolve("m.groovy");
        Files.writeString(groovy, "out.println(paths.checksum(args[0] + '/a.txt', 'md5'))\nlog.warn('late')\n");
        Run g = rpath("script", groovy.toString(), src.toString());
        assertThat(g.code()).as(g.err()).isZero();
        assertThat(g.out().strip()).isEqualTo("md5:2c1743a391305fbf367df8e4f069f9f9");
        assertThat(g.err()).contains("m.groovy: warning: late");
    }

    /** The NIO provider as a named module: installed by the JDK from its {@code provides}, not from a services file. */
    @Test
    void theNioProviderIsInstalledFromItsModuleDescriptor() throws Exception {
        String nio = PublicApiTest.classPathEntry("nio").toString();
        Path main = temp.resolve("UsesNio.java");
        Files.writeString(main, """
                import java.net.URI;
                import java.nio.file.*;
                public class UsesNio {
                    public static void main(String[] args) throws Exception {
                        Path p = Path.of(URI.create("mem://modules/a.txt"));
                        Files.createDirectories(p.getParent());
                        Files.writeString(p, "via the module path");
                        System.out.println(Files.readString(p) + " " + p.getFileSystem().provider().getClass().getName()
                                + " " + p.getFileSystem().provider().getClass().getModule().getName());
                    }
                }
                """);
        Run r = javaWith(modulePath() + java.io.File.pathSeparator + nio, Map.of(),
                "--add-modules", "dev.remotepath.nio,dev.remotepath.mem", main.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().strip()).isEqualTo("via the module path dev.remotepath.nio.RemoteNioProvider$Mem dev.remotepath.nio");
    }

    @ParameterizedTest
    @ValueSource(strings = {"mina", "sshj"})
    void bothSftpClientsCopyAndListOnTheModulePath(String client) throws Exception {
        Path root = Files.createDirectories(temp.resolve("sftp-root"));
        SshServer server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(temp.resolve("hostkey.ser")));
        server.setPasswordAuthenticator((user, password, session) -> "tester".equals(user) && "pw-9".equals(password));
        server.setSubsystemFactories(List.of(new SftpSubsystemFactory()));
        server.setFileSystemFactory(new VirtualFileSystemFactory(root));
        server.start();
        try {
            String base = "sftp://tester@127.0.0.1:" + server.getPort() + "/";
            Map<String, String> env = Map.of("RPATH_SFTP_PASSWORD", "pw-9", "HOME", temp.toString(), "SSH_AUTH_SOCK", "");
            String[] flags = {"--sftp-client", client, "--known-hosts", temp.resolve("kh").toString(), "--accept-new-host-keys"};
            Run cp = rpath(env, concat(new String[] {"sync", "--json"}, flags, new String[] {src.toString(), base + "up"}));
            assertThat(cp.code()).as(cp.err()).isZero();
            assertThat(cp.out()).contains("\"filesCopied\":2");
            assertThat(Files.readString(root.resolve("up/sub/b.txt"))).isEqualTo("bravo");
            Run ls = rpath(env, concat(new String[] {"ls", "-R"}, flags, new String[] {base + "up"}));
            assertThat(ls.code()).as(ls.err()).isZero();
            assertThat(ls.out().lines()).containsExactly("a.txt", "sub/", "sub/b.txt");
        } finally {
            server.stop(true);
        }
    }

    @Test
    void s3FailsAsTheNetworkErrorItIsNotAsAModuleError() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Run r = rpath(Map.of("AWS_ACCESS_KEY_ID", "k", "AWS_SECRET_ACCESS_KEY", "s", "AWS_REGION", "us-east-1"),
                "ls", "--s3-endpoint", "http://127.0.0.1:" + port, "--s3-path-style", "s3://bucket/");
        assertThat(r.code()).isNotZero();
        assertThat(r.err()).contains("bucket").doesNotContain("IllegalAccess", "ServiceConfigurationError",
                "NoClassDefFound", "module", "Exception in thread");
    }

    private static String[] concat(String[]... parts) {
        return Arrays.stream(parts).flatMap(Arrays::stream).toArray(String[]::new);
    }
}
