package dev.remotepath.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.UnsafeNameException;
import dev.remotepath.spi.ListedEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The radix name sort agrees with {@code String.compareTo} on every kind of name, and finds twins. */
class NameOrderTest {

    /** What Listings makes of a name listed twice (ListedPathsTest checks that path). */
    private static final java.util.function.Function<String, UnsafeNameException> TWIN =
            name -> new UnsafeNameException("/dir", name, "listed twice");

    private static final String[] ALPHABET = {"a", "b", "z", "A", "0", "9", ".", "_", "-", " ", "é", "ÿ", "\u0100",
        "\u0101", "ő", "日", "本", "\ud83d\ude00", "\udc80", "~", "\u007f", "\u0080"};

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 63, 64, 65, 500, 5_000, 40_000})
    void randomNamesSortAsStringCompareToDoes(int n) throws UnsafeNameException {
        Random r = new Random(n * 31L + 7);
        List<String> names = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (names.size() < n) {
            String name = randomName(r);
            if (seen.add(name)) {
                names.add(name);
            }
        }
        assertSortedLikeCompareTo(names);
    }

    /** Long shared prefixes (camera names, dates) send the sort down several eight-character levels. */
    @Test
    void namesSharingLongPrefixesAreOrderedByTheirTails() throws UnsafeNameException {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            names.add("IMG_20240101_" + String.format("%06d", (i * 7919) % 3_000) + ".jpg");
            names.add("IMG_20240101_" + i); // a prefix of others, ending inside a key
            names.add("IMG_2024010\u0100" + i); // 0x100 in the first key's last character
            names.add("IMG_20240101_\u00ff" + i); // U+00FF, the marker byte's own value
        }
        names.add("IMG_20240101");
        names.add("IMG_2024010");
        names.add("IMG_20240101_00000"); // ends exactly at a key boundary plus some
        names.add("IMG_2024"); // exactly eight characters
        assertSortedLikeCompareTo(new ArrayList<>(new java.util.LinkedHashSet<>(names)));
    }

    /** A hostile listing of names sharing a very long prefix sorts without deep recursion. */
    @Test
    void namesSharingAMegabyteOfPrefixSortWithoutRecursingOnIt() throws UnsafeNameException {
        String prefix = "p".repeat(1 << 20);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            names.add(prefix + String.format("%03d", (i * 37) % 200));
        }
        assertSortedLikeCompareTo(names);
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 100, 10_000})
    void aNameListedTwiceFails(int n) {
        List<ListedEntry> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            entries.add(entry("name-with-a-long-prefix-" + i));
        }
        entries.add(entry("name-with-a-long-prefix-" + (n / 2)));
        Collections.shuffle(entries, new Random(n));
        assertThatThrownBy(() -> NameOrder.sort(entries.toArray(new ListedEntry[0]), TWIN))
                .isInstanceOf(UnsafeNameException.class)
                .hasMessageContaining("name-with-a-long-prefix-" + (n / 2))
                .hasMessageContaining("listed twice");
    }

    @Test
    void twinsInsideTheFirstKeyAreFoundToo() {
        List<ListedEntry> entries = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            entries.add(entry("f" + i));
        }
        entries.add(entry("f77"));
        assertThatThrownBy(() -> NameOrder.sort(entries.toArray(new ListedEntry[0]), TWIN)).hasMessageContaining("'f77'");
    }

    private static void assertSortedLikeCompareTo(List<String> names) throws UnsafeNameException {
        List<String> shuffled = new ArrayList<>(names);
        Collections.shuffle(shuffled, new Random(names.size()));
        List<ListedEntry> entries = new ArrayList<>();
        for (String s : shuffled) {
            entries.add(entry(s));
        }
        List<String> expected = new ArrayList<>(names);
        Collections.sort(expected);
        ListedEntry[] sorted = entries.toArray(new ListedEntry[0]);
        NameOrder.sort(sorted, TWIN);
        List<String> actual = Arrays.stream(sorted).map(ListedEntry::name).toList();
        assertThat(actual).containsExactlyElementsOf(expected);
    }

    private static String randomName(Random r) {
        int len = 1 + r.nextInt(r.nextBoolean() ? 6 : 24);
        StringBuilder sb = new StringBuilder(r.nextInt(4) == 0 ? "shared-prefix-" : "");
        for (int i = 0; i < len; i++) {
            sb.append(ALPHABET[r.nextInt(ALPHABET.length)]);
        }
        return sb.toString();
    }

    private static ListedEntry entry(String name) {
        return new ListedEntry(name, FileStat.ofType(FileType.FILE));
    }
}
