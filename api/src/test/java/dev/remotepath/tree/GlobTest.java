package dev.remotepath.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {

    private static boolean m(String glob, String path) {
        return Glob.compile(glob).matches(List.of(path.split("/")));
    }

    @ParameterizedTest
    @CsvSource({
        "*.txt, a.txt, true", "*.txt, .hidden.txt, true", "*.txt, d/a.txt, false", "?.txt, ab.txt, false",
        "?.txt, a.txt, true", "[ab].c, b.c, true", "[!ab].c, b.c, false", "[!ab].c, x.c, true", "[a-c]x, bx, true",
        "[a-c]x, dx, false", "'{a,b/c}.txt', b/c.txt, true", "'{a,b/c}.txt', a.txt, true", "'{a,{b,c}}', c, true",
        "**/x, x, true", "**/x, a/b/x, true", "a/**, a/b/c, true", "a/**/z, a/z, true", "a/**/z, a/b/c/z, true",
        "a/**/z, a/b/c/y, false", "\\*, *, true", "\\*, a, false", "a[, a[, true", "[]]x, ]x, true",
        "*, with space, true", "a.b, axb, false", "(x)+, (x)+, true"})
    void matches(String glob, String path, boolean expected) {
        assertThat(m(glob, path)).isEqualTo(expected);
    }

    @Test
    void pruningKnowsWhatCannotMatchBelow() {
        Glob g = Glob.compile("a/*/c.txt");
        assertThat(g.couldMatchBelow(List.of())).isTrue();
        assertThat(g.couldMatchBelow(List.of("a"))).isTrue();
        assertThat(g.couldMatchBelow(List.of("b"))).isFalse();
        assertThat(g.couldMatchBelow(List.of("a", "x"))).isTrue();
        assertThat(g.couldMatchBelow(List.of("a", "x", "c.txt"))).isFalse();
        assertThat(g.maxDepth()).isEqualTo(3);
        assertThat(Glob.compile("a/**").couldMatchBelow(List.of("a", "b", "c"))).isTrue();
        assertThat(Glob.compile("a/**").maxDepth()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void malformedOrExplosivePatternsAreRefused() {
        assertThatThrownBy(() -> Glob.compile("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Glob.compile("{a,b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unclosed");
        assertThatThrownBy(() -> Glob.compile("{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alternatives");
    }

    @Test
    void negatedClassNeverMatchesSlash() {
        // Segments never hold '/', but a caller matching raw strings must not be surprised.
        assertThat(Glob.compile("a[!x]b").matches(List.of("a/b"))).isFalse();
        assertThat(Glob.compile("a[!x]b").matches(List.of("ayb"))).isTrue();
    }
}
