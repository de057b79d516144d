package dev.remotepath.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.remotepath.DirEntry;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.WalkOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trees a careful user would never make but a real disk holds: names with newlines and
 * invalid UTF-8, 255-byte names, link loops, unreadable directories. Runs under both listers.
 */
class HostileTreeTest {

    @TempDir
    Path temp;

    private static List<String> names(RemotePath root) throws IOException {
        try (Stream<DirEntry> s = root.walk()) {
            return s.map(e -> root.relativize(e.path()).pathString()).toList();
        }
    }

    @Test
    void namesWithNewlinesAndControlCharacters() throws Exception {
        Files.writeString(temp.resolve("new\nline"), "nl");
        Files.writeString(temp.resolve("tab\there"), "tab");
        Files.writeString(temp.resolve("cr\r"), "cr");
        RemotePath root = RemotePaths.of(temp);
        assertThat(names(root)).containsExactly("cr\r", "new\nline", "tab\there");
        assertThat(root.child("new\nline").readString()).isEqualTo("nl");
        RemotePath copy = RemotePaths.of(temp.resolve("copy"));
        root.child("new\nline").copyTo(copy);
        assertThat(Files.readString(temp.resolve("copy"))).isEqualTo("nl");
        assertThat(RemotePaths.get(root.child("new\nline").toString()).readString()).isEqualTo("nl");
    }

    @Test
    void aNameThatCannotBeALocalPathFailsThatEntryWithAFileSystemException() throws Exception {
        // A lone surrogate (from a JSON index's "\ud800") is no valid name in any encoding.
        RemotePath bad = RemotePaths.of(temp).child("a\ud800b");
        assertThatThrownBy(() -> bad.writeString("x")).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("cannot be a path");
        assertThatThrownBy(bad::stat).isInstanceOf(FileSystemException.class);
        assertThat(bad.fileSystem().toNioPath(bad)).isEmpty();
    }

    @Test
    void invalidUtf8NamesAreKeptLosslessly() throws Exception {
        Path src = Files.createDirectory(temp.resolve("src"));
        Path raw = Path.of(URI.create("file://" + src + "/bad%FF%FEname"));
        Files.writeString(raw, "raw bytes");
        Files.createDirectory(Path.of(URI.create("file://" + src + "/dir%C3")));
        Files.writeString(Path.of(URI.create("file://" + src + "/dir%C3/inner")), "in");
        RemotePath root = RemotePaths.of(src);

        List<DirEntry> entries = root.list();
        assertThat(entries).extracting(DirEntry::name).containsExactly("bad\udcff\udcfename", "dir\udcc3");
        RemotePath bad = entries.getFirst().path();
        assertThat(bad.readString()).isEqualTo("raw bytes");
        assertThat(bad.toString()).endsWith("/bad%FF%FEname");
        assertThat(RemotePaths.get(bad.toString()).readString()).isEqualTo("raw bytes");
        assertThat(names(root)).containsExactly("bad\udcff\udcfename", "dir\udcc3", "dir\udcc3/inner");

        root.copyTo(RemotePaths.of(temp.resolve("copy")));
        assertThat(Files.readString(Path.of(URI.create("file://" + temp + "/copy/bad%FF%FEname")))).isEqualTo("raw bytes");
        assertThat(Files.readString(Path.of(URI.create("file://" + temp + "/copy/dir%C3/inner")))).isEqualTo("in");

        bad.delete();
        assertThat(Files.exists(raw)).isFalse();
        RemotePaths.of(temp.resolve("copy")).deleteRecursively();
        assertThat(Files.exists(temp.resolve("copy"))).isFalse();
    }

    @Test
    void longestNamesWork() throws Exception {
        String ascii = "a".repeat(255);
        String multibyte = "日".repeat(85); // 255 bytes of UTF-8
        RemotePath root = RemotePaths.of(temp);
        root.child(ascii).writeString("A");
        root.child(multibyte).writeString("M");
        assertThat(root.list()).extracting(DirEntry::name).containsExactlyInAnyOrder(ascii, multibyte);
        assertThat(root.child(multibyte).readString()).isEqualTo("M");
        // The temporary sibling of a copy must also fit in 255 bytes.
        root.child(ascii).copyTo(root.child(ascii.replace('a', 'b')));
        assertThat(root.child(ascii.replace('a', 'b')).readString()).isEqualTo("A");
        assertThatThrownBy(() -> root.child("c".repeat(256)).writeString("x"))
                .isInstanceOf(FileSystemException.class).hasMessageContaining("File name too long");
    }

    @Test
    void symlinkLoopsNeitherHangNorLie() throws Exception {
        Files.createSymbolicLink(temp.resolve("a"), Path.of("b"));
        Files.createSymbolicLink(temp.resolve("b"), Path.of("a"));
        Files.createDirectory(temp.resolve("real"));
        Files.createSymbolicLink(temp.resolve("real/up"), Path.of(".."));
        RemotePath root = RemotePaths.of(temp);

        assertThat(root.resolve("a").exists()).isFalse();
        assertThat(root.resolve("a").isSymbolicLink()).isTrue();
        assertThatThrownBy(() -> root.resolve("a").list()).isInstanceOf(FileSystemException.class);
        assertThat(names(root)).containsExactly("a", "b", "real", "real/up");

        List<IOException> errors = new ArrayList<>();
        List<String> followed;
        try (Stream<DirEntry> s = root.walk(WalkOptions.defaults().withFollowLinks(true)
                .withErrorHandler((d, e) -> errors.add(e)))) {
            followed = s.map(e -> root.relativize(e.path()).pathString()).toList();
        }
        assertThat(followed).contains("real", "real/up");
        assertThat(errors).hasSize(1).allMatch(e -> e instanceof FileSystemLoopException);
    }

    @Test
    void unreadableDirectoryIsReportedAndSkippable() throws Exception {
        Path tree = Files.createDirectory(temp.resolve("tree"));
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(tree, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path locked = Files.createDirectory(tree.resolve("locked"));
        Files.writeString(locked.resolve("secret"), "s");
        Files.writeString(tree.resolve("open.txt"), "o");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        try {
            List<String> lines = "root".equals(System.getProperty("user.name")) ? walkAsNobody(tree) : walkHere(tree);
            assertThat(lines).contains("list locked: AccessDeniedException " + RemotePaths.of(locked),
                    "entry locked", "skipped locked: AccessDeniedException", "entry open.txt");
            assertThat(lines).noneMatch(l -> l.contains("secret"));
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }

    private static List<String> walkHere(Path tree) throws Exception {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        java.io.PrintStream old = System.out;
        System.setOut(new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            WalkAsOtherUser.main(new String[] {tree.toString()});
        } finally {
            System.setOut(old);
        }
        return buf.toString(java.nio.charset.StandardCharsets.UTF_8).lines().toList();
    }

    /**
     * The child needs the api, the local backend and this test's classes, which may sit where
     * nobody cannot read (~/.m2 under /root): copy each into a world-readable directory.
     */
    private static String readableClassPath(Path work) throws Exception {
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (Class<?> c : List.of(dev.remotepath.RemotePaths.class, LocalFileSystem.class, WalkAsOtherUser.class)) {
            Path from = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path to = work.resolve("cp" + i++);
            if (Files.isDirectory(from)) {
                try (Stream<Path> all = Files.walk(from)) {
                    for (Path f : all.toList()) {
                        Path t = to.resolve(from.relativize(f).toString());
                        if (Files.isDirectory(f)) {
                            Files.createDirectories(t);
                        } else {
                            Files.copy(f, t);
                        }
                    }
                }
            } else {
                Files.createDirectories(to);
                to = Files.copy(from, to.resolve(from.getFileName()));
            }
            try (Stream<Path> all = Files.walk(to.getParent().equals(work) ? to : to.getParent())) {
                for (Path f : all.toList()) {
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(Files.isDirectory(f) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
            entries.add(to.toString());
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    /** Root ignores permission bits: drop to nobody in a child JVM, with the same lister choice. */
    private static List<String> walkAsNobody(Path tree) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv (util-linux) is needed to drop root");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String lister = System.getProperty(LocalFileSystem.LISTER_PROPERTY, "auto");
        Process p = new ProcessBuilder("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                javaBin, "--enable-native-access=ALL-UNNAMED", "-D" + LocalFileSystem.LISTER_PROPERTY + "=" + lister,
                "-cp", readableClassPath(tree.getParent()), WalkAsOtherUser.class.getName(), tree.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return out.lines().toList();
    }
}
