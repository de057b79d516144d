package dev.remotepath.tree;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Backends' probe files take temporaries' names, so a killed run's leftover is known as one. */
class TemporaryNameTest {

    @Test
    void aTemporaryNameIsRecognizedAsOne() {
        for (String name : new String[] {"rpprobe-f", "rpsymlink-a", "report.pdf", "caf\u00e9"}) {
            String t = FileTransfer.temporaryName(name);
            assertThat(t).startsWith("." + name + ".").endsWith(FileTransfer.TEMPORARY_SUFFIX);
            assertThat(FileTransfer.isTemporary(t)).as(t).isTrue();
        }
        assertThat(FileTransfer.temporaryName("x")).isNotEqualTo(FileTransfer.temporaryName("x"));
    }
}
