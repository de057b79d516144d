package dev.remotepath.ftp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The MLSD answer's line split, done by hand, against the regex split it replaced. */
class FtpListingsTest {

    @Test
    void linesAreWhatTheRegexSplitGaveLessTheEmptyOnes() {
        Random random = new Random(23);
        char[] alphabet = {'a', 'b', ' ', ';', '=', '\r', '\n', '\r', '\n', 'é', '\u2028', '\u0085'};
        for (int i = 0; i < 20_000; i++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(24);
            for (int j = 0; j < length; j++) {
                s.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String text = s.toString();
            List<String> expected = new ArrayList<>(Arrays.asList(text.split("\r?\n", -1)));
            expected.removeIf(String::isEmpty);
            assertThat(FtpListings.lines(text)).as("%s", text.replace("\r", "\\r").replace("\n", "\\n"))
                    .isEqualTo(expected);
        }
    }

    @Test
    void aNameKeepsACarriageReturnThatIsNotBeforeItsLineFeed() {
        assertThat(FtpListings.lines("type=file;size=1; a\r\r\ntype=dir; b\r\n\r\ntype=file;size=2; c\r"))
                .containsExactly("type=file;size=1; a\r", "type=dir; b", "type=file;size=2; c\r");
    }
}
