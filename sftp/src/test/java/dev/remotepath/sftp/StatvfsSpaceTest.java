package dev.remotepath.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.spi.StoreSpace;
import org.junit.jupiter.api.Test;

/** A statvfs answer in bytes: fragments times fragment size, a server's nonsense capped, never negative. */
class StatvfsSpaceTest {

    @Test
    void fragmentsTimesTheirSize() {
        assertThat(SftpWire.space(4096, 1000, 600, 500)).isEqualTo(new StoreSpace(4_096_000, 2_048_000, 2_457_600));
    }

    @Test
    void unsignedOrOverflowingFiguresAreCappedAtTheLargestLong() {
        // uint64 fields read as negative longs, and products past 2^63
        assertThat(SftpWire.space(4096, -1, Long.MAX_VALUE, 1L << 52))
                .isEqualTo(new StoreSpace(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
        assertThat(SftpWire.space(-4096, 1, 1, 1)).isEqualTo(new StoreSpace(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE));
    }
}
