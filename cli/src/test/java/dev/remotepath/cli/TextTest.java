package dev.remotepath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Text}: the hand-built instant text is {@link Instant#toString()}'s, and escapes. */
class TextTest {

    @Test
    void instantTextIsInstantToStringForEveryYearAndFraction() {
        SplittableRandom random = new SplittableRandom(18);
        long min = Instant.parse("-0100-01-01T00:00:00Z").getEpochSecond();
        long max = Instant.parse("+12000-01-01T00:00:00Z").getEpochSecond();
        for (int i = 0; i < 200_000; i++) {
            long secs = random.nextLong(min, max);
            int nano = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant t = Instant.ofEpochSecond(secs, nano);
            assertThat(Text.instant(t)).isEqualTo(t.toString());
        }
        for (String edge : new String[] {"1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999999999Z", "0000-01-01T00:00:00Z",
            "-0001-12-31T23:59:59Z", "9999-12-31T23:59:59.000001Z", "+10000-01-01T00:00:00Z", "2000-02-29T12:00:00.100Z",
            "2100-03-01T00:00:00Z", "2024-02-29T13:37:42Z"}) {
            Instant t = Instant.parse(edge);
            assertThat(Text.instant(t)).isEqualTo(t.toString()).isEqualTo(edge);
        }
        assertThat(Text.instant(Instant.MIN)).isEqualTo(Instant.MIN.toString());
        assertThat(Text.instant(Instant.MAX)).isEqualTo(Instant.MAX.toString());
    }

    @Test
    void printableNamesAreKeptAndControlCharactersEscaped() {
        assertThat(Text.escape("plain name-1.txt")).isEqualTo("plain name-1.txt");
        assertThat(Text.escape("back\\slash")).isEqualTo("back\\slash");
        assertThat(Text.escape("é ü 日本")).isEqualTo("é ü 日本");
        assertThat(Text.escape("a\nb\\c")).isEqualTo("a\\nb\\\\c");
        assertThat(Text.escape("\u001b[31mred")).isEqualTo("\\x1b[31mred");
        assertThat(Text.escape("ok\u0085")).isEqualTo("ok\\x85");
        assertThat(Text.escape("lone\ud800")).isEqualTo("lone\\x00");
    }

    @Test
    void printableAsciiIsTheSpaceToTheTilde() {
        assertThat(Text.isPrintableAscii("plain name-1.txt ~")).isTrue();
        assertThat(Text.isPrintableAscii("")).isTrue();
        for (String not : new String[] {"tab\tx", "del\u007f", "\u0000", "caf\u00e9", "\u65e5", "lone\ud800", "x\u0085"}) {
            assertThat(Text.isPrintableAscii(not)).as(not).isFalse();
        }
        assertThat(Text.isAscii("a\\tb\u007f")).isTrue();
        assertThat(Text.isAscii("caf\u00e9")).isFalse();
        assertThat(Text.isAscii("lone\ud800")).isFalse();
    }
}
