package dev.remotepath;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** NameBytes.CHARSET is NameBytes' scheme: lossless for any bytes, UTF-8 where they are UTF-8. */
class NameBytesCharsetTest {

    @Test
    void anyBytesRoundTripAndDecodeAsNameBytesDoes() {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[random.nextInt(24)];
            random.nextBytes(bytes);
            if (i % 3 == 0) { // mostly-valid UTF-8 with damage, not only noise
                bytes = ("n\u00e9e-\u4e2d-\ud83d\ude00-" + i).getBytes(StandardCharsets.UTF_8);
                if (bytes.length > 3) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
            }
            String name = new String(bytes, NameBytes.CHARSET);
            assertThat(name).isEqualTo(NameBytes.decode(bytes));
            assertThat(name.getBytes(NameBytes.CHARSET)).as(name).isEqualTo(bytes);
            assertThat(NameBytes.encode(name)).isEqualTo(bytes);
        }
    }

    @Test
    void validUtf8IsUtf8AndDistinctBadBytesStayDistinct() {
        assertThat(new String("caf\u00e9 \ud83d\ude00".getBytes(StandardCharsets.UTF_8), NameBytes.CHARSET))
                .isEqualTo("caf\u00e9 \ud83d\ude00");
        String ff = new String(new byte[] {(byte) 0xff, '.', 'b', 'i', 'n'}, NameBytes.CHARSET);
        String fe = new String(new byte[] {(byte) 0xfe, '.', 'b', 'i', 'n'}, NameBytes.CHARSET);
        assertThat(ff).isEqualTo("\udcff.bin").isNotEqualTo(fe);
        // A truncated sequence at the end is kept as its bytes, not replaced.
        byte[] cut = {'a', (byte) 0xe2, (byte) 0x82};
        assertThat(new String(cut, NameBytes.CHARSET).getBytes(NameBytes.CHARSET)).isEqualTo(cut);
    }

    @Test
    void loneSurrogatesThatAreNoEscapeHaveNoBytes() {
        assertThat(NameBytes.isEncodable("plain \ud83d\ude00 \udcff.bin")).isTrue();
        assertThat(NameBytes.isEncodable("a\ud800b")).isFalse();
        assertThat(NameBytes.isEncodable("a\udc00b")).isFalse();
        assertThat(NameBytes.isEncodable("end\ud83d")).isFalse();
    }
}
