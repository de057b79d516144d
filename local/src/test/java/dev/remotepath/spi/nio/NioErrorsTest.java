package dev.remotepath.spi.nio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NIO's bare FileSystemExceptions (ENOTDIR, ELOOP) are told apart by looking at the path, not by
 * strerror's text, which follows the locale: a German system's messages map the same way.
 */
class NioErrorsTest {

    @TempDir
    Path temp;

    private static IOException translated(Path p, String localisedReason) throws IOException {
        return NioFileSystem.translate(new FileSystemException(p.toString(), null, localisedReason), RemotePaths.of(p), null);
    }

    @Test
    void aParentThatIsAFileIsNoSuchFileInAnyLanguage() throws IOException {
        Path file = Files.writeString(temp.resolve("file"), "x");
        IOException e = translated(file.resolve("child"), "Kein Verzeichnis");
        assertThat(e).isInstanceOf(NoSuchFileException.class).hasMessageContaining("a parent is not a directory")
                .hasCauseInstanceOf(FileSystemException.class);
        assertThat(translated(file.resolve("a/b/c"), "N'est pas un dossier")).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void aLinkLoopIsALoopInAnyLanguage() throws IOException {
        Files.createSymbolicLink(temp.resolve("a"), temp.resolve("b"));
        Files.createSymbolicLink(temp.resolve("b"), Path.of("a"));
        Files.createSymbolicLink(temp.resolve("self"), Path.of("self"));
        assertThat(translated(temp.resolve("a/x"), "Zu viele Ebenen aus symbolischen Links"))
                .isInstanceOf(FileSystemLoopException.class);
        assertThat(translated(temp.resolve("self"), "Trop de niveaux de liens symboliques"))
                .isInstanceOf(FileSystemLoopException.class);
        // A chain that ends is no loop, however long.
        Files.createDirectories(temp.resolve("d"));
        Path at = temp.resolve("d");
        for (int i = 0; i < 30; i++) {
            Path link = temp.resolve("l" + i);
            Files.createSymbolicLink(link, at);
            at = link;
        }
        assertThat(NioErrors.linkLoop(at.resolve("x"))).isFalse();
        assertThat(NioErrors.linkLoop(temp.resolve("a"))).isTrue();
    }

    @Test
    void otherErrorsKeepTheirKindAndCause() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("dir"));
        IOException e = translated(dir.resolve("f"), "Eingabe-/Ausgabefehler");
        assertThat(e.getClass()).isEqualTo(FileSystemException.class);
        assertThat(((FileSystemException) e).getReason()).isEqualTo("Eingabe-/Ausgabefehler");
        RemotePath remote = RemotePaths.of(dir.resolve("f"));
        assertThat(((FileSystemException) e).getFile()).isEqualTo(remote.toString());
        assertThat(e.getCause()).isInstanceOf(FileSystemException.class);
    }
}
