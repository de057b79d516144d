package dev.remotepath.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ContentRangeTest {

    @Test
    void aByteRangeIsReadWithItsTotalOrWithout() {
        assertThat(ContentRange.parse("bytes 10-99/100")).contains(new ContentRange(10, 99, 100));
        assertThat(ContentRange.parse("Bytes 0-0/1 ")).contains(new ContentRange(0, 0, 1));
        assertThat(ContentRange.parse("bytes 5-9/*")).contains(new ContentRange(5, 9, -1));
        assertThat(ContentRange.parse("bytes 50-59/100").orElseThrow().end()).isEqualTo(60);
    }

    @Test
    void whatNamesNoRangeIsEmptyNeverAnException() {
        for (String bad : new String[] {null, "", "bytes", "bytes */100", "items 0-9/10", "bytes 9-3/10", "bytes 0-10/10",
                "bytes -1-3/10", "bytes a-b/c", "bytes 0-9", "bytes 0/9-10", "bytes 99999999999999999999-1/2"}) {
            assertThat(ContentRange.parse(bad)).as(String.valueOf(bad)).isEmpty();
        }
        assertThatThrownBy(() -> new ContentRange(5, 4, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
