package dev.remotepath.s3;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

/**
 * S3 takes 10,000 parts in an upload: the 10,001st is refused before it is sent, naming the
 * option that lets a larger object through (the server would refuse it after the rest went).
 */
class S3PartLimitTest {

    @Test
    void thePartPastS3sLimitIsRefusedNamingPartSize() throws Exception {
        RemotePath file = RemotePaths.get("mem://part-limit/big.bin");
        assertThatCode(() -> S3UploadStream.requirePartNumber(10_000, 8 << 20, file)).doesNotThrowAnyException();
        assertThatThrownBy(() -> S3UploadStream.requirePartNumber(10_001, 8 << 20, file))
                .isInstanceOf(FileSystemException.class)
                .hasMessage(file + ": larger than S3's 10000 parts of 8388608 bytes (80000 MiB); raise S3Options.partSize");
    }
}
