package dev.remotepath.tree;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The folded name and the probe's spellings; groups and what targets do with them are FoldingTargetSyncTest's (syncer, which has file systems to list). */
class NameVariantsTest {

    @Test
    void aLowerCaseAsciiNameIsItsOwnFoldedNameWithoutACopy() {
        String plain = "plain-name_1.txt";
        assertThat(NameVariants.folded(plain)).isSameAs(plain);
    }

    @Test
    void caseAndNormalizationFoldTogether() {
        assertThat(NameVariants.folded("README")).isEqualTo("readme");
        assertThat(NameVariants.folded("cafe\u0301.txt")).isEqualTo("caf\u00e9.txt");
        assertThat(NameVariants.folded("CAF\u00c9.TXT")).isEqualTo("caf\u00e9.txt");
        assertThat(NameVariants.folded("STRASSE")).isEqualTo(NameVariants.folded("stra\u00dfe"));
        assertThat(NameVariants.folded("a.txt")).isNotEqualTo(NameVariants.folded("b.txt"));
    }

    @Test
    void longNamesAreProbedByThePartsInWhichTheyDiffer() {
        String[] probe = NameVariants.probeNames("x".repeat(250) + "A.txt", "x".repeat(250) + "a.txt");
        assertThat(probe[0]).startsWith(".A.").endsWith(".rptmp");
        assertThat(probe[1]).startsWith(".a.").endsWith(".rptmp");
        assertThat(FileTransfer.isTemporary(probe[0])).isTrue();
        String[] shortOnes = NameVariants.probeNames("README", "readme");
        assertThat(shortOnes[0]).startsWith(".README.");
        assertThat(shortOnes[1]).isEqualTo(".readme" + shortOnes[0].substring(".README".length()));
        String[] emoji = NameVariants.probeNames("\uD83D\uDE00".repeat(60) + "A", "\uD83D\uDE00".repeat(60) + "a");
        assertThat(emoji[0]).startsWith(".A.");
    }
}
