package dev.remotepath.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

class BoundedInputStreamTest {

    @Test
    void readsSkipsAndAvailableStopAtTheLimit() throws Exception {
        byte[] ten = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        var in = new BoundedInputStream(new ByteArrayInputStream(ten), 6);
        assertThat(in.available()).isEqualTo(6);
        assertThat(in.read()).isEqualTo(0);
        assertThat(in.skip(100)).isEqualTo(5);
        assertThat(in.read()).isEqualTo(-1);
        assertThat(in.read(new byte[4], 0, 4)).isEqualTo(-1);
        var again = new BoundedInputStream(new ByteArrayInputStream(ten), 4);
        assertThat(again.readAllBytes()).containsExactly(0, 1, 2, 3);
        assertThat(again.read(new byte[0], 0, 0)).isZero();
    }
}
