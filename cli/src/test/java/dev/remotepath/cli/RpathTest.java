package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rpath commands, run in-process on real local and mem trees, checked on output and exit codes. */
class RpathTest {

    @TempDir
    Path temp;

    private Path src;

    record Result(int code, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    static Result rpath(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Rpath.execute(args, out, err);
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @BeforeEach
    void tree() throws Exception {
        src = Files.createDirectories(temp.resolve("src"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("sub/b.txt"), "bravo!");
        Files.setLastModifiedTime(src.resolve("a.txt"), java.nio.file.attribute.FileTime.from(Instant.parse("2024-02-29T13:37:42Z")));
    }

    @Test
    void lsPrintsNamesAndJsonLines() {
        assertThat(rpath("ls", src.toString()).lines()).containsExactly("a.txt", "sub/");
        Result json = rpath("ls", "--json", src.toString());
        assertThat(json.code()).isZero();
        assertThat(json.lines()).hasSize(2);
        assertThat(json.lines().getFirst())
                .isEqualTo("{\"name\":\"a.txt\",\"type\":\"file\",\"size\":5,\"mtime\":\"2024-02-29T13:37:42Z\"}");
        assertThat(json.lines().get(1)).startsWith("{\"name\":\"sub\",\"type\":\"directory\",\"size\":null,\"mtime\":\"");
        assertThat(rpath("ls", "-R", src.toString()).lines()).containsExactly("a.txt", "sub/", "sub/b.txt");
        assertThat(rpath("ls", "-l", src.toString()).lines().getFirst()).contains("5", "2024-02-29T13:37:42Z", "a.txt");
        // The long format's columns, exactly: type, size right-aligned in 12, mtime left-aligned in 30.
        assertThat(rpath("ls", "-l", src.toString()).lines().getFirst())
                .isEqualTo("-            5  2024-02-29T13:37:42Z" + " ".repeat(10) + "  a.txt");
        assertThat(rpath("ls", "-l", src.toString()).lines().get(1)).matches("d            -  \\S+ *  sub/");
    }

    @Test
    void aCopyOntoItselfNamesBothSpellingsTyped() throws Exception {
        String file = src.resolve("a.txt").toString();
        String same = src + "/sub/../a.txt";
        Result r = rpath("cp", file, same);
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("rpath cp: " + file + " -> " + same + ": source and target are the same");
        assertThat(Files.readString(src.resolve("a.txt"))).isEqualTo("alpha");
        Result json = rpath("--json", "cp", file, same);
        assertThat(json.err()).contains("\"path\":\"" + file + "\"", "\"other\":\"" + same + "\"");
    }

    @Test
    void lsWithoutAUriListsTheWorkingDirectory() throws Exception {
        Result here = rpath("ls");
        assertThat(here.code()).as(here.err()).isZero();
        List<String> expected;
        try (var s = Files.list(Path.of("").toAbsolutePath())) {
            expected = s.map(p -> p.getFileName() + (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? "/" : ""))
                    .sorted().toList();
        }
        assertThat(here.lines()).isEqualTo(expected).contains("pom.xml", "src/");
        assertThat(rpath("ls", "--help").out()).contains("Usage: rpath ls [OPTION]... [URI]");
    }

    @Test
    void longListingsShowALinksOwnTime() throws Exception {
        Path dir = Files.createDirectories(src.resolveSibling("links"));
        Path link = Files.createSymbolicLink(dir.resolve("to-a"), src.resolve("a.txt"));
        Files.getFileAttributeView(link, java.nio.file.attribute.BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .setTimes(FileTime.from(Instant.parse("2001-02-03T04:05:06.5Z")), null, null);
        assertThat(rpath("ls", "-l", dir.toString()).lines())
                .containsExactly("l            -  2001-02-03T04:05:06.500Z" + " ".repeat(6) + "  to-a");
        assertThat(rpath("ls", "--json", dir.toString()).lines())
                .containsExactly("{\"name\":\"to-a\",\"type\":\"symlink\",\"size\":null,\"mtime\":\"2001-02-03T04:05:06.500Z\"}");
    }

    /**
     * ls writes ASCII lines as bytes and others through the UTF-8 writer, 32K characters at a
     * time: names past ASCII come out as UTF-8 in whichever chunk they fall, and the chunks in
     * order, whichever way each went.
     */
    @Test
    void longListingsWriteNamesPastAsciiAsUtf8InOrder() throws Exception {
        List<String> ascii = java.util.stream.IntStream.range(0, 700).mapToObj(i -> String.format("f%03d", i)).toList();
        Path asciiFirst = Files.createDirectories(temp.resolve("ascii-first"));
        Path wideFirst = Files.createDirectories(temp.resolve("wide-first"));
        for (String name : ascii) {
            Files.writeString(asciiFirst.resolve(name), "x");
            Files.writeString(wideFirst.resolve(name), "x");
        }
        // Sorted after the ASCII names: the last chunk is the one past ASCII (é is Latin-1: its
        // one byte would not be its UTF-8); "a-é" sorts first, so there the first chunk is.
        for (String name : List.of("tab\tname", "zz-\u00fc", "\u00e9-latin1", "\u65e5\u672c")) {
            Files.writeString(asciiFirst.resolve(name), "x");
        }
        Files.writeString(wideFirst.resolve("a-\u00e9"), "x");
        List<String> expectedAsciiFirst = new java.util.ArrayList<>(ascii);
        expectedAsciiFirst.addAll(List.of("tab\\tname", "zz-\u00fc", "\u00e9-latin1", "\u65e5\u672c"));
        List<String> expectedWideFirst = new java.util.ArrayList<>(List.of("a-\u00e9"));
        expectedWideFirst.addAll(ascii);
        for (var dir : java.util.Map.of(asciiFirst, expectedAsciiFirst, wideFirst, expectedWideFirst).entrySet()) {
            Result r = rpath("ls", "-l", dir.getKey().toString());
            assertThat(r.code()).isZero();
            assertThat(r.out().length()).as("more than one 32K chunk").isGreaterThan(1 << 15);
            assertThat(r.lines()).extracting(line -> line.substring(line.lastIndexOf("  ") + 2))
                    .containsExactlyElementsOf(dir.getValue());
            assertThat(rpath("ls", dir.getKey().toString()).lines()).containsExactlyElementsOf(dir.getValue());
        }
    }

    @Test
    void statJsonHasThePath() {
        Result r = rpath("stat", "--json", src.resolve("a.txt").toString());
        // The path as typed, the URI it stands for after it.
        assertThat(r.out().strip()).isEqualTo("{\"path\":\"" + src.resolve("a.txt") + "\",\"name\":\"a.txt\","
                + "\"type\":\"file\",\"size\":5,\"mtime\":\"2024-02-29T13:37:42Z\",\"uri\":\"file://" + src.resolve("a.txt") + "\"}");
        assertThat(rpath("stat", src.toString()).out()).contains("type:        directory");
    }

    @Test
    void catCpMvRmMkdirAcrossBackends() throws Exception {
        String vol = "mem://cli-" + UUID.randomUUID();
        assertThat(rpath("cat", src.resolve("a.txt").toString()).out()).isEqualTo("alpha");
        assertThat(rpath("mkdir", "-p", vol + "/x/y").code()).isZero();
        assertThat(rpath("cp", "-r", src.toString(), vol + "/x/y").code()).isZero();
        assertThat(RemotePaths.get(vol + "/x/y/src/sub/b.txt").readString()).isEqualTo("bravo!");
        assertThat(rpath("mv", vol + "/x/y/src/a.txt", vol + "/x/moved.txt").code()).isZero();
        assertThat(RemotePaths.get(vol + "/x/moved.txt").readString()).isEqualTo("alpha");
        Result notRecursive = rpath("rm", vol + "/x/y");
        assertThat(notRecursive.code()).isEqualTo(1);
        assertThat(notRecursive.err()).contains(vol + "/x/y").contains("use rm -r");
        assertThat(rpath("rm", "-r", vol + "/x/y").code()).isZero();
        assertThat(RemotePaths.get(vol + "/x").list()).extracting(e -> e.name()).containsExactly("moved.txt");
        RemotePaths.get(vol + "/").fileSystem().close();
    }

    @Test
    void rmRefusesARootAndDotNamesAsGnuRmDoes() throws Exception {
        String vol = "mem://rm-root-" + UUID.randomUUID();
        RemotePaths.get(vol + "/keep.txt").writeString("kept");
        Result root = rpath("rm", "-r", vol + "/");
        assertThat(root.code()).isEqualTo(1);
        assertThat(root.err()).contains("refusing to remove the root of the file system");
        assertThat(RemotePaths.get(vol + "/keep.txt").readString()).isEqualTo("kept");
        // The directory one stands in, or its parent, named by where one is: refused before anything goes.
        for (String dots : List.of(src + "/sub/..", src + "/sub/.", src + "/sub/../", vol + "/x/..")) {
            Result r = rpath("rm", "-r", dots);
            assertThat(r.code()).as(dots).isEqualTo(1);
            assertThat(r.err()).as(dots).contains("refusing to remove '.' or '..' directory");
        }
        assertThat(src.resolve("a.txt")).hasContent("alpha");
        assertThat(src.resolve("sub/b.txt")).hasContent("bravo!");
        RemotePaths.get(vol + "/").fileSystem().close();
    }

    @Test
    void cpOfDirectoryNeedsRecursive() {
        Result r = rpath("cp", src.toString(), temp.resolve("copy").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("is a directory (use cp -r)");
    }

    @Test
    void checksumLikeSha256sum() {
        Result r = rpath("checksum", src.resolve("a.txt").toString());
        assertThat(r.out().strip()).isEqualTo("8ed3f6ad685b959ead7022518e1af76cd816f8e8ec7ccdda1ed4018e8f2223f8  "
                + src.resolve("a.txt")); // as typed, as sha256sum prints it
        Result json = rpath("checksum", "--json", "-a", "md5", src.resolve("a.txt").toString());
        assertThat(json.out()).contains("\"algorithm\":\"md5\"", "\"checksum\":\"2c1743a391305fbf367df8e4f069f9f9\"",
                "\"origin\":\"streamed\"");
    }

    @Test
    void syncJsonReportAndNoOpResync() throws Exception {
        String dst = temp.resolve("dst").toString();
        Result first = rpath("sync", src.toString(), dst, "--json");
        assertThat(first.code()).isZero();
        assertThat(first.out()).startsWith("{\"filesCopied\":2,\"bytesCopied\":11,\"filesSkipped\":0,\"filesDeleted\":0,"
                + "\"directoriesCreated\":2,\"mtimesFixed\":0,\"errors\":[],\"contentBytesRead\":");
        Result again = rpath("sync", src.toString(), dst, "--json");
        assertThat(again.out()).contains("\"filesCopied\":0", "\"filesSkipped\":2", "\"contentBytesRead\":0");
        assertThat(rpath("sync", src.toString(), dst).out()).startsWith("copied 0 file(s) (0 B), skipped 2 unchanged");
    }

    @Test
    void syncDryRunPrintsThePlanAndChangesNothing() {
        Path dst = temp.resolve("dst");
        Result r = rpath("sync", src.toString(), dst.toString(), "--dry-run", "--json");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("{\"dryRun\":true,\"actions\":[").contains("\"action\":\"copy_new\",\"path\":\"a.txt\"");
        assertThat(Files.exists(dst)).isFalse();
        assertThat(rpath("sync", src.toString(), dst.toString(), "--dry-run").out()).contains("mkdir", "copy_new", "sub/b.txt");
    }

    @Test
    void syncSafetyRefusalsExitThree() throws Exception {
        Path dst = temp.resolve("dst");
        rpath("sync", src.toString(), dst.toString());
        for (int i = 0; i < 3; i++) {
            Files.writeString(dst.resolve("extra" + i), "x");
        }
        Result capped = rpath("sync", src.toString(), dst.toString(), "--delete", "--max-delete", "2");
        assertThat(capped.code()).isEqualTo(3);
        assertThat(capped.err()).contains("max-delete exceeded");
        assertThat(Files.exists(dst.resolve("extra0"))).isTrue();
        Path empty = Files.createDirectories(temp.resolve("empty"));
        Result emptySource = rpath("sync", empty.toString(), dst.toString(), "--delete");
        assertThat(emptySource.code()).isEqualTo(3);
        assertThat(emptySource.err()).contains("refusing");
        assertThat(rpath("sync", src.toString(), dst.toString(), "--delete").code()).isZero();
        assertThat(Files.exists(dst.resolve("extra0"))).isFalse();
    }

    @Test
    void syncFiltersAndExclusiveModes() throws Exception {
        Path dst = temp.resolve("dst");
        assertThat(rpath("sync", src.toString(), dst.toString(), "--exclude", "sub/", "--checksum").code()).isZero();
        assertThat(Files.exists(dst.resolve("sub"))).isFalse();
        Result both = rpath("sync", src.toString(), dst.toString(), "--checksum", "--size-only");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("mutually exclusive");
    }

    @Test
    void syncRunControlFlags() throws Exception {
        Path dst = temp.resolve("dst");
        Result r = rpath("--json", "sync", src.toString(), dst.toString(), "--bwlimit", "1.5M", "--retries", "0",
                "--use-server-modtime");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"filesCopied\":2", "\"directoriesDeleted\":0");
        Result rate = rpath("sync", src.toString(), dst.toString(), "--bwlimit", "fast");
        assertThat(rate.code()).isEqualTo(2);
        assertThat(rate.err()).contains("--bwlimit", "'fast' is not a byte rate");
        assertThat(rpath("sync", src.toString(), dst.toString(), "--bwlimit", "0").err()).contains("not a positive byte rate");
        assertThat(rpath("sync", src.toString(), dst.toString(), "--retries", "-1").err()).contains("retries must not be negative");
    }

    /** Every kind of argument the commands declare binds: options, repeatables, positionals, groups. */
    @Test
    void everyKindOfArgumentBinds() throws Exception {
        Files.writeString(src.resolve("c.log"), "charlie");
        Path dst = temp.resolve("dst");
        // repeated options: both --include values apply, both --exclude values apply
        Result sync = rpath("--json", "sync", "--include", "*.txt", "--include", "sub/**", "--exclude", "sub/", "--exclude",
                "nothing", src.toString(), dst.toString(), "--transfers", "2", "--checkers", "1");
        assertThat(sync.code()).as(sync.err()).isZero();
        assertThat(Files.exists(dst.resolve("a.txt"))).isTrue();
        assertThat(Files.exists(dst.resolve("c.log"))).isFalse();
        assertThat(Files.exists(dst.resolve("sub"))).isFalse();
        // missing and surplus operands, bad numbers, unknown options: usage errors naming what is wrong
        Result missing = rpath("sync");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).startsWith("Missing required parameters: 'SRC', 'DST'").contains("Usage: rpath sync");
        assertThat(rpath("cat").err()).startsWith("Missing required parameter: 'URI'");
        assertThat(rpath("stat", "a", "b").err()).contains("Unmatched argument");
        Result badNumber = rpath("sync", "--transfers", "many", src.toString(), dst.toString());
        assertThat(badNumber.code()).isEqualTo(2);
        assertThat(badNumber.err()).contains("--transfers", "'many'");
        Result noChecker = rpath("sync", "--checkers", "0", src.toString(), dst.toString());
        assertThat(noChecker.code()).as(noChecker.err()).isEqualTo(2);
        assertThat(noChecker.err()).contains("checkers must be at least 1");
        assertThat(rpath("sync", "--links", "--copy-links", "a", "b").err()).contains("mutually exclusive");
        assertThat(rpath("ls", "--bogus", src.toString()).err()).contains("Unknown option: '--bogus'");
        // several positionals, an option with a default, inherited options after the subcommand
        Result sums = rpath("checksum", "-a", "md5", src.resolve("a.txt").toString(), src.resolve("c.log").toString());
        assertThat(sums.lines()).hasSize(2);
        assertThat(sums.lines().getFirst()).startsWith("2c1743a391305fbf367df8e4f069f9f9  ");
        assertThat(rpath("checksum", src.resolve("a.txt").toString()).out()).startsWith(
                "8ed3f6ad685b959ead7022518e1af76cd816f8e8ec7ccdda1ed4018e8f2223f8  ");
        assertThat(rpath("ls", src.toString(), "--json").lines().getFirst()).startsWith("{\"name\":\"a.txt\"");
        // help and version
        Result help = rpath("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Usage: rpath [-hV]", "Commands:", "  sync ", "  script ", "Exit codes:",
                "  3   refused for safety");
        Result version = rpath("-V");
        assertThat(version.lines().getFirst()).isEqualTo("rpath 0.1.0");
        // the client libraries' versions, for bug reports
        assertThat(version.lines()).anyMatch(l -> l.startsWith("Java 25")).anyMatch(l -> l.matches("Apache MINA SSHD \\d.*"))
                .anyMatch(l -> l.matches("sshj \\d.*")).anyMatch(l -> l.matches("AWS SDK for Java 2\\..*"))
                .anyMatch(l -> l.matches("Jetty client 12\\..*"));
        Result none = rpath();
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).startsWith("a subcommand is required");
        assertThat(rpath("sync", "--help").out()).contains("Usage: rpath sync [OPTION]... SRC DST", "--max-delete=N",
                "Global options", "--s3-endpoint=URL", "--include=GLOB...");
        assertThat(rpath("cp", "--help").out()).contains("  -r, -R  ", "Copy directories recursively.");
        assertThat(rpath("checksum", "--help").out()).contains("  -a, --algorithm=ALGORITHM");
    }

    @Test
    void reportSecondsHaveTwoDecimals() {
        assertThat(SyncCommand.seconds(0)).isEqualTo("0.00");
        assertThat(SyncCommand.seconds(4)).isEqualTo("0.00");
        assertThat(SyncCommand.seconds(5)).isEqualTo("0.01");
        assertThat(SyncCommand.seconds(110)).isEqualTo("0.11");
        assertThat(SyncCommand.seconds(999)).isEqualTo("1.00");
        assertThat(SyncCommand.seconds(61_234)).isEqualTo("61.23");
    }

    @Test
    void optionsFollowTheUsualConventions() throws Exception {
        Path src = Files.createDirectories(temp.resolve("conv"));
        Files.writeString(Files.createDirectories(src.resolve("sub")).resolve("b.txt"), "bee");
        Files.writeString(src.resolve("-dash.txt"), "dash");
        // clustered short flags: ls -lR is ls -l -R
        Result clustered = rpath("ls", "-lR", src.toString());
        assertThat(clustered.code()).as(clustered.err()).isZero();
        assertThat(clustered.out()).contains("sub/b.txt").contains("3 ");
        assertThat(clustered.out()).isEqualTo(rpath("ls", "-l", "-R", src.toString()).out());
        // --name=value and -avalue
        assertThat(rpath("checksum", "--algorithm=md5", src.resolve("sub/b.txt").toString()).out())
                .isEqualTo(rpath("checksum", "-amd5", src.resolve("sub/b.txt").toString()).out())
                .isEqualTo(rpath("checksum", "-a=md5", src.resolve("sub/b.txt").toString()).out())
                .startsWith(rpath("checksum", "-a", "md5", src.resolve("sub/b.txt").toString()).out().substring(0, 32));
        // -- ends the options: a relative path that starts with a dash
        Result dashed = rpath("cat", "--", src.resolve("-dash.txt").toString());
        assertThat(dashed.out()).isEqualTo("dash");
        // a value option once only; a flag takes no value; a value option needs one
        Result twice = rpath("sync", "--transfers", "2", "--transfers=3", "a", "b");
        assertThat(twice.code()).isEqualTo(2);
        assertThat(twice.err()).startsWith("Option '--transfers' should be specified only once");
        assertThat(rpath("ls", "--json=yes", "x").err()).startsWith("Option '--json' takes no value");
        Result noValue = rpath("sync", "a", "b", "--max-delete");
        assertThat(noValue.code()).isEqualTo(2);
        assertThat(noValue.err()).startsWith("Missing required parameter for option '--max-delete' (N)");
        assertThat(rpath("sync", "--max-delete", "lots", "a", "b").err()).contains("'lots' is not a long");
        Result unknown = rpath("frobnicate", "x");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).startsWith("Unknown command: 'frobnicate'").contains("Try 'rpath --help'");
        assertThat(rpath("ls", "-lX", src.toString()).err()).startsWith("Unknown option: '-X'");
        // an empty argument is not the working directory
        Result empty = rpath("sync", "", "");
        assertThat(empty.code()).isEqualTo(2);
        assertThat(empty.err()).contains("invalid path or URI '': empty path");
        // a NUL in a path option is a usage error naming the option, not a crash
        Result nul = rpath("--known-hosts", "a\0b", "ls", src.toString());
        assertThat(nul.code()).isEqualTo(2);
        assertThat(nul.err()).startsWith("Invalid value for option '--known-hosts': 'a\\0b' is not a path");
    }

    @Test
    void errorsAreOneLineNamingThePathAsTypedUnlessVerbose() {
        Result r = rpath("ls", temp.resolve("missing").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("rpath ls: " + temp.resolve("missing") + ": no such file or directory");
        Result verbose = rpath("ls", "--verbose", temp.resolve("missing").toString());
        assertThat(verbose.err()).contains("NoSuchFileException", "\tat ");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(rpath("sync", "onlyone").code()).isEqualTo(2);
        assertThat(rpath("frobnicate").code()).isEqualTo(2);
        // A raw space is a name character now (literal path text); a NUL is never one.
        Result badUri = rpath("ls", "mem://v/a%00b");
        assertThat(badUri.code()).isEqualTo(2);
        assertThat(badUri.err()).contains("invalid path or URI");
        // a URI the JDK cannot parse, for a backend with flags of its own: the same usage error
        for (String malformed : new String[] {"s3://", "az://", "http://[::1", "webdav://", "ftp://[x", "sftp://[x"}) {
            Result r = rpath("ls", malformed);
            assertThat(r.code()).as(malformed).isEqualTo(2);
            assertThat(r.err()).as(malformed).startsWith("rpath ls: invalid path or URI '" + malformed + "': malformed URI: ");
        }
        Result unknown = rpath("ls", "gopher://host/x");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("no RemotePath backend for scheme 'gopher'");
    }

    @Test
    void jsonStringsEscapeControlCharactersAndRawBytes() throws Exception {
        Files.writeString(src.resolve("new\nline"), "x");
        Files.writeString(java.nio.file.Path.of(java.net.URI.create("file://" + src + "/bad%FF")), "y");
        Result r = rpath("ls", "--json", src.toString());
        assertThat(r.out()).contains("\"name\":\"new\\nline\"", "\"name\":\"bad\\udcff\"");
        RemotePath listed = RemotePaths.of(src).child("bad\udcff");
        assertThat(rpath("cat", listed.toString()).out()).isEqualTo("y");
    }

    @Test
    void sftpFlagsAndErrors() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Result refused = rpath("ls", "--known-hosts", temp.resolve("kh").toString(), "sftp://someone@127.0.0.1:" + port + "/");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err().strip()).startsWith("rpath ls: sftp someone@127.0.0.1:" + port + ": connection refused");
        Result sshj = rpath("ls", "--sftp-client", "sshj", "--known-hosts", temp.resolve("kh").toString(),
                "sftp://someone@127.0.0.1:" + port + "/");
        assertThat(sshj.code()).isEqualTo(1);
        assertThat(sshj.err().strip()).startsWith("rpath ls: sftp someone@127.0.0.1:" + port + ": connection refused");
        Result bogus = rpath("ls", "--sftp-client", "jsch", "sftp://someone@127.0.0.1:" + port + "/");
        assertThat(bogus.code()).isEqualTo(2);
        assertThat(bogus.err()).contains("unknown SFTP client 'jsch'; expected mina or sshj");
        assertThat(rpath("--help").out()).contains("--identity", "--known-hosts", "--accept-new-host-keys", "--sftp-client");
    }

    @Test
    void s3FlagsReachTheBackend() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // The endpoint flag is used: a refused port, named with the path, after the SDK's retries.
        Result refused = rpath("ls", "--s3-endpoint", "http://127.0.0.1:" + port, "--s3-path-style", "--s3-region",
                "eu-west-1", "s3://some-bucket/dir/");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err().strip()).startsWith("rpath ls: s3://some-bucket/dir").contains("cannot reach the S3 endpoint");
        Result bad = rpath("ls", "--s3-endpoint", "ftp://example.org", "s3://some-bucket/");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("endpoint must be an http(s)://host[:port] URI");
        Result badUri = rpath("ls", "s3://access:secret@bucket/");
        assertThat(badUri.code()).isEqualTo(2);
        assertThat(badUri.err()).doesNotContain("secret@").contains("credentials in the URI");
        assertThat(rpath("--help").out()).contains("--s3-endpoint", "--s3-region", "--s3-path-style");
    }
}
