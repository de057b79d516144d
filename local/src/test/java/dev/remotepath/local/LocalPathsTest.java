package dev.remotepath.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** file: URIs and NIO paths in and out. */
class LocalPathsTest {

    @TempDir
    Path temp;

    @Test
    void nioPathsAndUrisAgree() throws Exception {
        RemotePath a = RemotePaths.of(temp.resolve("x y#z"));
        assertThat(a.toString()).isEqualTo("file://" + temp + "/x%20y%23z");
        assertThat(RemotePaths.get(a.toString())).isEqualTo(a);
        assertThat(RemotePaths.get(temp.resolve("x y#z").toUri())).isEqualTo(a);
        assertThat(a.toNioPath()).hasValue(temp.resolve("x y#z"));
    }

    @Test
    void plainStringsAreLocalPaths() throws Exception {
        assertThat(RemotePaths.get(temp.toString())).isEqualTo(RemotePaths.of(temp));
        assertThat(RemotePaths.get("relative/dir").pathString())
                .isEqualTo(Path.of("relative/dir").toAbsolutePath().toString());
    }

    @Test
    void localhostAuthorityIsAccepted() throws Exception {
        assertThat(RemotePaths.get("file://localhost" + temp)).isEqualTo(RemotePaths.of(temp));
        assertThatThrownBy(() -> RemotePaths.get("file://otherhost/tmp")).isInstanceOf(InvalidPathException.class)
                .hasMessageContaining("local machine");
    }
}
