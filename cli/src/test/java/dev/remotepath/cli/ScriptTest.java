package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real scripts in both engines: list, copy and sync between local and mem trees. */
class ScriptTest {

    @TempDir
    Path temp;

    private Path tree() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src/sub"));
        Files.writeString(src.resolveSibling("a.txt"), "alpha");
        Files.writeString(src.resolve("b.txt"), "bravo");
        return src.getParent();
    }

    @Test
    void javascriptListsCopiesAndSyncs() throws Exception {
        Path src = tree();
        String vol = "mem://js-" + UUID.randomUUID();
        Path script = temp.resolve("mirror.js");
        Files.writeString(script, """
                var src = paths.get(args[0]);
                var names = [];
                src.list().forEach(function (e) { names.push(e.name() + ':' + e.type().label()); });
                out.println('entries ' + names.join(','));
                src.resolve('a.txt').copyTo(paths.get(args[1] + '/copied.txt'));
                var report = paths.sync(src, args[1] + '/mirror', {delete: true, exclude: ['*.md']});
                out.println('copied ' + report.filesCopied());
                var again = paths.sync(args[0], args[1] + '/mirror');
                out.println('skipped ' + again.filesSkipped() + ' read ' + again.contentBytesRead());
                log.info('done');
                """);
        RpathTest.Result r = RpathTest.rpath("script", script.toString(), src.toString(), vol);
        assertThat(r.err()).contains("mirror.js: done");
        assertThat(r.code()).isZero();
        assertThat(r.lines()).containsExactly("entries a.txt:file,sub:directory", "copied 2", "skipped 2 read 0");
        assertThat(RemotePaths.get(vol + "/copied.txt").readString()).isEqualTo("alpha");
        assertThat(RemotePaths.get(vol + "/mirror/sub/b.txt").readString()).isEqualTo("bravo");
        RemotePaths.get(vol + "/").fileSystem().close();
    }

    @Test
    void groovyListsCopiesAndSyncs() throws Exception {
        Path src = tree();
        Path dst = temp.resolve("dst");
        Path script = temp.resolve("mirror.groovy");
        Files.writeString(script, """
                def src = paths.get(args[0])
                out.println("entries " + src.list().collect { it.name() }.join(','))
                def report = paths.sync(src, args[1], [transfers: 2, include: '*.txt', retries: 1, bwlimit: 100000000])
                out.println("copied ${report.filesCopied()} errors ${report.errors().size()}")
                def plan = paths.plan(args[0], args[1], [:])
                out.println("planned ${plan.size()}")
                out.println(paths.checksum(args[1] + '/a.txt', 'md5'))
                """);
        RpathTest.Result r = RpathTest.rpath("script", script.toString(), src.toString(), dst.toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isZero();
        assertThat(r.lines()).containsExactly("entries a.txt,sub", "copied 2 errors 0", "planned 0",
                "md5:2c1743a391305fbf367df8e4f069f9f9");
        assertThat(Files.readString(dst.resolve("sub/b.txt"))).isEqualTo("bravo");
    }

    @Test
    void aScriptsPathsGetTheBackendFlagsOfTheCommandLine() throws Exception {
        Path script = temp.resolve("options.groovy");
        Files.writeString(script, """
                def o = paths.get('s3://some-bucket/key').fileSystem().options()
                out.println("endpoint ${o.endpoint().get()} path-style ${o.pathStyle()}")
                """);
        RpathTest.Result r = RpathTest.rpath("--s3-endpoint=http://127.0.0.1:9/", "--s3-path-style", "--s3-region=eu-west-1",
                "script", script.toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.lines()).containsExactly("endpoint http://127.0.0.1:9/ path-style true");
    }

    @Test
    void transfersAndCheckersBeforeTheFileBoundEveryBackendTheScriptOpens() throws Exception {
        Path src = tree();
        Path script = temp.resolve("limits.groovy");
        Files.writeString(script, """
                import dev.remotepath.BackendLimits
                def fs = paths.get(args[0]).fileSystem()
                out.println("transfers ${BackendLimits.transfers(fs).getAsInt()} checkers ${BackendLimits.listings(fs).getAsInt()}")
                def r = paths.sync(args[0], args[1], [checkers: 1, transfers: 2])
                out.println("copied ${r.filesCopied()}")
                """);
        RpathTest.Result r = RpathTest.rpath("script", "--transfers", "3", "--checkers=2", script.toString(), src.toString(),
                temp.resolve("dst").toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.lines()).containsExactly("transfers 3 checkers 2", "copied 2");
        RpathTest.Result zero = RpathTest.rpath("script", "--transfers", "0", script.toString());
        assertThat(zero.code()).isEqualTo(2);
        assertThat(zero.err()).contains("--transfers must be at least 1");
    }

    @Test
    void argumentsAfterTheFileGoToTheScriptAsIs() throws Exception {
        Path script = temp.resolve("echo.js");
        Files.writeString(script, "out.println(args.size() + ':' + java.lang.String.join('|', args));");
        RpathTest.Result r = RpathTest.rpath("--verbose", "script", script.toString(), "--json", "-x", "--", "plain");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.lines()).containsExactly("4:--json|-x|--|plain");
    }

    @Test
    void scriptFailuresAreOneLineAndExitOne() throws Exception {
        Path script = temp.resolve("fail.js");
        Files.writeString(script, "paths.get('" + temp.resolve("missing") + "').readString();\n");
        RpathTest.Result r = RpathTest.rpath("script", script.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("fail.js", "no such file or directory");
        Path typo = temp.resolve("typo.groovy");
        Files.writeString(typo, "paths.sync('" + temp + "', 'mem://x/y', [delet: true])\n");
        RpathTest.Result t = RpathTest.rpath("script", typo.toString());
        assertThat(t.code()).isEqualTo(1);
        assertThat(t.err()).contains("unknown sync option 'delet'");
    }

    @Test
    void unknownExtensionIsAUsageError() throws Exception {
        Path script = temp.resolve("x.py");
        Files.writeString(script, "print(1)");
        RpathTest.Result r = RpathTest.rpath("script", script.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("no script engine for '.py'");
    }
}
