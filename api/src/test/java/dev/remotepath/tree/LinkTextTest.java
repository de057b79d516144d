package dev.remotepath.tree;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The lexical link-text helpers that let a server's rewritten READLINK answer compare equal to its source. */
class LinkTextTest {

    @Test
    void lexicalFoldsDotsWithoutLookingAtTheDisk() {
        assertThat(LinkTargets.lexical("/a/b", "c")).isEqualTo("/a/b/c");
        assertThat(LinkTargets.lexical("/a/b", "../c/./d")).isEqualTo("/a/c/d");
        assertThat(LinkTargets.lexical("/a", "../../../x")).isEqualTo("/x");
        assertThat(LinkTargets.lexical("/", ".")).isEqualTo("/");
    }

    @Test
    void relativeIsTheShortestWayFromTheDirectory() {
        assertThat(LinkTargets.relative("/t/case/sub", "/t/case/sub/target.txt")).isEqualTo("target.txt");
        assertThat(LinkTargets.relative("/t/case", "/t/somewhere/else")).isEqualTo("../somewhere/else");
        assertThat(LinkTargets.relative("/t/case", "/t/case")).isEqualTo(".");
        assertThat(LinkTargets.relative("/", "/etc/passwd")).isEqualTo("etc/passwd");
        assertThat(LinkTargets.relative("/a/b/c", "/x")).isEqualTo("../../../x");
        assertThat(LinkTargets.relative("/a/b", "/a/bc")).isEqualTo("../bc");
    }
}
