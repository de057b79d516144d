package dev.remotepath;

import static dev.remotepath.PureFileSystem.pure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.InvalidPathException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pure operations: no storage is touched (the file system throws if it is). */
class RemotePathTest {

    @ParameterizedTest
    @CsvSource({
        "/a/b/c, /a/b/c", "/a//b/, /a/b", "/a/./b, /a/b", "/a/../b, /b", "/.., /", "/../a, /a", "'', ''",
        "a/../.., ..", "a/b/../../c, c", "./a, a", "/, /", "//, /"})
    void normalizesLikeUris(String in, String out) {
        assertThat(pure(in).pathString()).isEqualTo(out);
    }

    @ParameterizedTest
    @CsvSource({
        "/d/a.tar.gz, a.tar.gz, .gz, a.tar", "/d/.bashrc, .bashrc, '', .bashrc", "/d/noext, noext, '', noext",
        "/d/trail., trail., '', trail.", "/d/..hidden.txt, ..hidden.txt, .txt, ..hidden", "/, '', '', ''"})
    void nameSuffixStem(String p, String name, String suffix, String stem) {
        assertThat(pure(p).name()).isEqualTo(name);
        assertThat(pure(p).suffix()).isEqualTo(suffix);
        assertThat(pure(p).stem()).isEqualTo(stem);
    }

    @Test
    void suffixes() {
        assertThat(pure("/a.tar.gz").suffixes()).containsExactly(".tar", ".gz");
        assertThat(pure("/.config.json").suffixes()).containsExactly(".json");
        assertThat(pure("/plain").suffixes()).isEmpty();
        assertThat(pure("/x.").suffixes()).isEmpty();
    }

    @Test
    void parentsAndRoot() {
        assertThat(pure("/a/b").parent()).isEqualTo(pure("/a"));
        assertThat(pure("/a").parent()).isEqualTo(pure("/"));
        assertThat(pure("/").parent()).isEqualTo(pure("/"));
        assertThat(pure("a").parent()).isEqualTo(pure(""));
        assertThat(pure("/a/b").root()).isEqualTo(pure("/"));
        assertThat(pure("/a/b").parts()).containsExactly("a", "b");
        assertThat(pure("/").parts()).isEmpty();
    }

    @Test
    void resolve() {
        assertThat(pure("/a").resolve("b/c", "d")).isEqualTo(pure("/a/b/c/d"));
        assertThat(pure("/a").resolve("/x")).isEqualTo(pure("/x"));
        assertThat(pure("/a/b").resolve("../c")).isEqualTo(pure("/a/c"));
        assertThat(pure("/a").resolve(pure("rel/x"))).isEqualTo(pure("/a/rel/x"));
        assertThat(pure("/a/b").resolveSibling("c")).isEqualTo(pure("/a/c"));
        assertThat(pure("/").resolve("a")).isEqualTo(pure("/a"));
    }

    @Test
    void relativizeRoundTrips() {
        RemotePath base = pure("/a/b");
        for (String target : new String[] {"/a/b/c/d", "/a/x", "/", "/a/b", "/q/r/s"}) {
            RemotePath rel = base.relativize(pure(target));
            assertThat(rel.isAbsolute()).isFalse();
            assertThat(base.resolve(rel)).isEqualTo(pure(target));
        }
        assertThat(base.relativize(pure("/a/b/c/d")).pathString()).isEqualTo("c/d");
        assertThat(base.relativize(pure("/a/x")).pathString()).isEqualTo("../x");
    }

    @Test
    void relativizeRefusesMixedPaths() {
        assertThatThrownBy(() -> pure("/a").relativize(pure("b"))).isInstanceOf(IllegalArgumentException.class);
        RemotePath other = new PureFileSystem("pure://other").path("/a");
        assertThatThrownBy(() -> pure("/a").relativize(other)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withNameAndSuffix() {
        assertThat(pure("/d/a.txt").withName("b.md")).isEqualTo(pure("/d/b.md"));
        assertThat(pure("/d/a.txt").withSuffix(".md")).isEqualTo(pure("/d/a.md"));
        assertThat(pure("/d/a.txt").withSuffix("")).isEqualTo(pure("/d/a"));
        assertThat(pure("/d/a").withSuffix(".gz")).isEqualTo(pure("/d/a.gz"));
        assertThatThrownBy(() -> pure("/d/a").withName("x/y")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> pure("/d/a").withName("..")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> pure("/d/a").withSuffix("gz")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> pure("/").withName("x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void startsWithIsBySegment() {
        assertThat(pure("/a/b/c").startsWith(pure("/a/b"))).isTrue();
        assertThat(pure("/a/b").startsWith(pure("/a/b"))).isTrue();
        assertThat(pure("/a/bc").startsWith(pure("/a/b"))).isFalse();
        assertThat(pure("/a").startsWith(pure("/"))).isTrue();
    }

    @Test
    void matchesLikePathlib() {
        assertThat(pure("/x/y/a.txt").matches("*.txt")).isTrue();
        assertThat(pure("/x/y/a.txt").matches("y/*.txt")).isTrue();
        assertThat(pure("/x/y/a.txt").matches("x/*.txt")).isFalse();
        assertThat(pure("/x/y/a.txt").matches("/x/*/a.txt")).isTrue();
        assertThat(pure("/x/y/a.txt").matches("/*.txt")).isFalse();
        assertThat(pure("/x/y/a.txt").matches("**/a.txt")).isTrue();
    }

    @Test
    void toStringEncodesAndHasNoCredentials() {
        assertThat(pure("/a b/c#d?e%f").toString()).isEqualTo("pure://vol/a%20b/c%23d%3Fe%25f");
        assertThat(pure("/café").toString()).isEqualTo("pure://vol/caf%C3%A9");
        assertThat(pure("rel/x y").toString()).isEqualTo("rel/x%20y");
    }

    @Test
    void nulIsRefused() {
        assertThatThrownBy(() -> pure("/a\0b")).isInstanceOf(InvalidPathException.class).hasMessageContaining("NUL");
        assertThatThrownBy(() -> pure("/a").resolve("b\0")).isInstanceOf(InvalidPathException.class);
    }

    @Test
    void relativePathsRefuseIo() {
        assertThatThrownBy(() -> pure("rel").stat()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("relative");
    }

    @Test
    void equalityNeedsSameFileSystem() {
        assertThat(new PureFileSystem("pure://a").path("/x")).isNotEqualTo(new PureFileSystem("pure://a").path("/x"));
        assertThat(pure("/x").compareTo(pure("/x/y"))).isNegative();
        assertThat(pure("/a/z").compareTo(pure("/a.b"))).isNegative();
    }
}
