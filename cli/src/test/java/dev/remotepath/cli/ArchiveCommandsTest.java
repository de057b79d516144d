package dev.remotepath.cli;

import static dev.remotepath.cli.RpathTest.rpath;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ls}, {@code cat}, {@code cp -r} and {@code sync} with {@code zip:} and {@code tar:} archive URIs (docs/archives.md). */
class ArchiveCommandsTest {

    @TempDir
    Path temp;

    private Path zip() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("docs/a.txt"));
            zip.write("alpha".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("top.txt"));
            zip.write("top".getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return Files.write(temp.resolve("site.zip"), bytes.toByteArray());
    }

    @Test
    void archiveUrisWorkWhereverAPathDoes() throws Exception {
        Path zip = zip();
        String root = "zip:" + zip + "!/";
        assertThat(rpath("ls", "-R", root).out().lines().toList()).containsExactly("docs/", "docs/a.txt", "top.txt");
        assertThat(rpath("cat", root + "docs/a.txt").out()).isEqualTo("alpha");
        assertThat(rpath("cat", "zip:" + zip.toUri() + "!/top.txt").out()).isEqualTo("top");

        RpathTest.Result copy = rpath("cp", "-r", root + "docs", temp.resolve("copied").toString());
        assertThat(copy.code()).as(copy.err()).isZero();
        assertThat(Files.readString(temp.resolve("copied/a.txt"))).isEqualTo("alpha");

        RpathTest.Result sync = rpath("--json", "sync", root, temp.resolve("mirror").toString());
        assertThat(sync.code()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("\"filesCopied\":2");
        assertThat(Files.readString(temp.resolve("mirror/top.txt"))).isEqualTo("top");
        assertThat(rpath("--json", "sync", root, temp.resolve("mirror").toString()).out()).contains("\"filesCopied\":0");
    }

    @Test
    void tarUrisToo() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src/docs"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Path tgz = temp.resolve("site.tgz");
        Process p = new ProcessBuilder("tar", "-czf", tgz.toString(), "-C", temp.resolve("src").toString(), ".")
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
        assertThat(rpath("cat", "tar:" + tgz + "!/docs/a.txt").out()).isEqualTo("alpha");
        RpathTest.Result sync = rpath("--json", "sync", "tar:" + tgz + "!/", temp.resolve("mirror").toString());
        assertThat(sync.out()).as(sync.err()).contains("\"filesCopied\":1");
        assertThat(Files.readString(temp.resolve("mirror/docs/a.txt"))).isEqualTo("alpha");
    }

    @Test
    void errorsNameTheArchiveOrTheEntryAsTyped() throws Exception {
        Path zip = zip();
        RpathTest.Result missing = rpath("cat", "zip:" + zip + "!/nope.txt");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err().strip()).isEqualTo("rpath cat: zip:" + zip + "!/nope.txt: no such file or directory");
        RpathTest.Result noArchive = rpath("ls", "zip:" + temp.resolve("absent.zip") + "!/");
        assertThat(noArchive.code()).isEqualTo(1);
        assertThat(noArchive.err()).contains("absent.zip", "no such file");
        Files.writeString(temp.resolve("text.zip"), "not a zip");
        RpathTest.Result notZip = rpath("ls", "zip:" + temp.resolve("text.zip") + "!/");
        assertThat(notZip.code()).isNotZero();
        assertThat(notZip.err()).contains("not a zip archive");
        RpathTest.Result noSeparator = rpath("ls", "zip:" + zip);
        assertThat(noSeparator.code()).isEqualTo(2);
        RpathTest.Result write = rpath("mkdir", "zip:" + zip + "!/new");
        assertThat(write.code()).isNotZero();
        assertThat(Files.size(zip)).isPositive();
    }

    @Test
    void newArchivesAreWrittenBySyncAndCpAndPublishedOnlyWhole() throws Exception {
        Path src = Files.createDirectories(temp.resolve("src/docs"));
        Files.writeString(src.resolve("a.txt"), "alpha");
        Files.writeString(temp.resolve("src/top.txt"), "top");
        Path zip = temp.resolve("out.zip");
        RpathTest.Result sync = rpath("--json", "sync", temp.resolve("src").toString(), "zip:" + zip + "!/");
        assertThat(sync.code()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("\"filesCopied\":2");
        assertThat(rpath("ls", "-R", "zip:" + zip + "!/").out().lines().toList())
                .containsExactly("docs/", "docs/a.txt", "top.txt");
        assertThat(rpath("cat", "zip:" + zip.toUri() + "!/docs/a.txt").out()).isEqualTo("alpha");
        RpathTest.Result again = rpath("--json", "sync", temp.resolve("src").toString(), "zip:" + zip + "!/");
        assertThat(again.out()).as(again.err()).contains("\"filesCopied\":0");

        Path tgz = temp.resolve("out.tgz");
        RpathTest.Result cp = rpath("cp", "-r", temp.resolve("src/docs").toString(), "tar:" + tgz + "!/docs");
        assertThat(cp.code()).as(cp.err()).isZero();
        assertThat(rpath("cat", "tar:" + tgz + "!/docs/a.txt").out()).isEqualTo("alpha");

        // One entry fails (a link to nothing, followed): the archive is not published at all.
        Files.createSymbolicLink(temp.resolve("src/broken"), temp.resolve("nowhere"));
        Path failed = temp.resolve("failed.tar");
        RpathTest.Result partial = rpath("sync", "--copy-links", temp.resolve("src").toString(), "tar:" + failed + "!/");
        assertThat(partial.code()).isEqualTo(1);
        assertThat(partial.err()).contains("broken", "failed.tar", "not written");
        assertThat(Files.exists(failed)).isFalse();
        try (var s = Files.list(temp)) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".rptmp"));
        }
    }
}
