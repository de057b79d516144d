package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI makes a local path typed without a scheme itself, with the local backend it bundles,
 * rather than through {@link RemotePaths}' provider lookup: the path and the errors must be the
 * ones {@link RemotePaths#get(String)} gives.
 */
class LocalPathsTest {

    @TempDir
    Path dir;

    @Test
    void aLocalArgumentNamesThePathRemotePathsWould() throws Exception {
        String abs = dir.toString();
        List<String> args = List.of(abs, abs + "/", abs + "/a/../b", abs + "/./c d", abs + "/x:y", abs + "/100%",
                abs + "/caf\u00e9", abs + "/#hash?q", "relative/file", ".", "..", "./a/b", "C:\\data", "a:b", "1ab:x",
                "/", "//double//slashes/", abs + "/\u00e9t\u00e9/\u65e5\u672c");
        for (String arg : args) {
            RemotePath made = Paths.make(null, arg);
            RemotePath expected = RemotePaths.get(arg);
            assertThat(made).as(arg).isEqualTo(expected);
            assertThat(made.toString()).as(arg).isEqualTo(expected.toString());
            assertThat(made.pathString()).as(arg).isEqualTo(expected.pathString());
            assertThat(made.sameFileSystemAs(expected)).as(arg).isTrue();
        }
    }

    @Test
    void aLocalPathIsTheFileItNames() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("f.txt"), "content");
        RemotePath made = Paths.make(null, dir.resolve("sub/../f.txt").toString());
        assertThat(made.readString()).isEqualTo("content");
        assertThat(made.name()).isEqualTo("f.txt");
    }

    @Test
    void anArgumentWithASchemeIsStillAUri() throws Exception {
        // file:/x (one slash) is a URI to RemotePaths: not a relative path named "file:/x".
        RemotePath made = Paths.make(null, "file:" + dir);
        assertThat(made).isEqualTo(RemotePaths.get("file:" + dir));
        assertThat(made.pathString()).isEqualTo(dir.toString());
    }

    @Test
    void aNulInALocalArgumentFailsAsRemotePathsFails() {
        String arg = dir + "/a\u0000b";
        InvalidPathException expected = org.assertj.core.api.Assertions.catchThrowableOfType(InvalidPathException.class,
                () -> RemotePaths.get(arg));
        assertThat(expected).isNotNull();
        assertThatThrownBy(() -> Paths.make(null, arg)).isInstanceOf(InvalidPathException.class)
                .hasMessage(expected.getMessage());
        assertThatThrownBy(() -> Paths.make(null, "")).isInstanceOf(InvalidPathException.class)
                .hasMessageContaining("empty path");
    }
}
