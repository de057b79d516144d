package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

/**
 * S3 takes 10,000 parts in an upload: they grow past the 5,000th so that a stream of hundreds of
 * GiB fits, and the 10,001st is refused before it is sent, naming the option that lets a larger
 * object through (the server would refuse it after the rest went).
 */
class S3PartLimitTest {

    @Test
    void thePartPastS3sLimitIsRefusedNamingPartSize() throws Exception {
        RemotePath file = RemotePaths.get("mem://part-limit/big.bin");
        int step = S3UploadStream.PARTS_PER_STEP;
        assertThatCode(() -> S3UploadStream.requirePartNumber(10_000, 8 << 20, step, file)).doesNotThrowAnyException();
        assertThatThrownBy(() -> S3UploadStream.requirePartNumber(10_001, 8 << 20, step, file))
                .isInstanceOf(FileSystemException.class)
                .hasMessage(file + ": larger than S3's 10000 parts hold (536000 MiB in parts growing from 8388608 to "
                        + "268435456 bytes); raise S3Options.partSize");
    }

    @Test
    void partsGrowPastTheFirstFiveThousandSoThatAStreamOfHundredsOfGibibytesFits() {
        int step = S3UploadStream.PARTS_PER_STEP;
        int mib = 1 << 20;
        assertThat(S3UploadStream.partSize(8 * mib, 1, step)).isEqualTo(8 * mib);
        assertThat(S3UploadStream.partSize(8 * mib, 5_000, step)).isEqualTo(8 * mib); // 39 GiB as before
        assertThat(S3UploadStream.partSize(8 * mib, 5_001, step)).isEqualTo(16 * mib);
        assertThat(S3UploadStream.partSize(8 * mib, 6_001, step)).isEqualTo(32 * mib);
        assertThat(S3UploadStream.partSize(8 * mib, 10_000, step)).isEqualTo(256 * mib);
        // a large partSize grows no further than 1 GiB, and is never made smaller
        assertThat(S3UploadStream.partSize(64 * mib, 10_000, step)).isEqualTo(1 << 30);
        assertThat(S3UploadStream.partSize(Integer.MAX_VALUE - 8, 10_000, step)).isEqualTo(Integer.MAX_VALUE - 8);
        assertThat(S3UploadStream.capacity(8 * mib, step)).isEqualTo(536_000L * mib); // 523 GiB, fixed parts 78
        assertThat(S3UploadStream.capacity(256 * mib, step)).isGreaterThan(5L << 40); // S3's largest object
    }
}
