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

    @Test
    void matchingIsNotExponentialInTheNameLength() {
        // A regex of five stars backtracks for minutes on this name; the matcher takes one pass.
        String name = "-".repeat(250);
        Glob g = Glob.compile("*-*-*-*-*.txt");
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> {
            for (int i = 0; i < 1000; i++) {
                assertThat(g.matches(List.of(name))).isFalse();
            }
        });
        assertThat(g.matches(List.of("a-b-c-d-e.txt"))).isTrue();
        assertThat(g.matches(List.of("a-b-c-d.txt"))).isFalse();
    }

    @Test
    void agreesWithTheRegexTranslationOnRandomPatterns() {
        java.util.Random r = new java.util.Random(42);
        String alphabet = "ab-.";
        String[] tokens = {"a", "b", "-", ".", "*", "?", "[ab]", "[!a]", "[a-b]", "\\*"};
        for (int n = 0; n < 20_000; n++) {
            StringBuilder glob = new StringBuilder();
            StringBuilder regex = new StringBuilder();
            for (int k = 1 + r.nextInt(6); k > 0; k--) {
                String t = tokens[r.nextInt(tokens.length)];
                glob.append(t);
                regex.append(switch (t) {
                    case "*" -> "[^/]*";
                    case "?" -> "[^/]";
                    case "[!a]" -> "[^a/]";
                    case "\\*" -> "\\*";
                    case "-", "." -> "\\" + t;
                    default -> t;
                });
            }
            StringBuilder name = new StringBuilder();
            for (int k = r.nextInt(8); k > 0; k--) {
                name.append(r.nextInt(10) == 0 ? '*' : alphabet.charAt(r.nextInt(alphabet.length())));
            }
            boolean expected = java.util.regex.Pattern.compile(regex.toString()).matcher(name).matches();
            assertThat(Glob.compile(glob.toString()).matches(List.of(name.toString())))
                    .as("%s against '%s'", glob, name).isEqualTo(expected);
        }
    }

    @Test
    void supplementaryCharactersAreOneCharacter() {
        assertThat(m("?.txt", "\uD83D\uDE00.txt")).isTrue();
        assertThat(m("[\uD83D\uDE00x].txt", "\uD83D\uDE00.txt")).isTrue();
    }
}
