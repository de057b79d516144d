package dev.remotepath.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What an object store's file system learns of its prefixes, and when it forgets. */
class KnownDirectoriesTest {

    @Test
    void aPublishedKeyMakesEveryPrefixAboveItADirectoryAndNothingBelowIsKnownComplete() {
        KnownDirectories known = new KnownDirectories();
        known.published("a/b/c.txt");
        assertThat(known.isDirectory("a/b/")).isTrue();
        assertThat(known.isDirectory("a/")).isTrue();
        assertThat(known.isDirectory("a/b/c.txt/")).isFalse();
        assertThat(known.childrenKnown("a/")).as("a write says nothing of a directory's other children").isFalse();
        known.published("top.txt");
        assertThat(known.isDirectory("top.txt/")).isFalse();
    }

    @Test
    void aTreeListedToItsEndKnowsEveryDirectoryBetweenThoseItSawAndItsPrefix() {
        KnownDirectories known = new KnownDirectories();
        known.treeListedToTheEnd("p/", List.of("p/x/y/z/", "p/w/"));
        for (String d : List.of("p/", "p/x/", "p/x/y/", "p/x/y/z/", "p/w/")) {
            assertThat(known.isDirectory(d)).as(d).isTrue();
            assertThat(known.childrenKnown(d)).as(d).isTrue();
        }
        assertThat(known.isDirectory("q/")).isFalse();
        known.forget("p/x/");
        assertThat(known.isDirectory("p/x/y/")).isFalse();
        assertThat(known.childrenKnown("p/x/")).isFalse();
        assertThat(known.isDirectory("p/w/")).isTrue();
    }
}
