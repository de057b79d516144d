package dev.remotepath.tree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.ChecksumAlgorithm;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The catalogue check values ("123456789") of every algorithm, and the empty input. */
class StreamingChecksumTest {

    @ParameterizedTest
    @CsvSource({
        "MD5, 25f9e794323b453885f5181f1b624d0b",
        "SHA1, f7c3bc1d808e04732adf679965ccc34ca7ae3441",
        "CRC32, cbf43926",
        "CRC32C, e3069283",
        "CRC64NVME, ae8b14860a799888",
    })
    void checkValues(ChecksumAlgorithm algorithm, String expected) throws Exception {
        var in = new ByteArrayInputStream("123456789".getBytes(StandardCharsets.US_ASCII));
        assertThat(StreamingChecksum.of(algorithm, in).hex()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"CRC32, 00000000", "CRC64NVME, 0000000000000000"})
    void emptyInput(ChecksumAlgorithm algorithm, String expected) throws Exception {
        assertThat(StreamingChecksum.of(algorithm, new ByteArrayInputStream(new byte[0])).hex()).isEqualTo(expected);
    }
}
