package dev.remotepath.tree;

import java.util.zip.Checksum;

/**
 * CRC-64/NVME (reflected polynomial {@code 0x9a6c9329ac4bc9b5}, initial value and final XOR all
 * ones): the checksum S3 computes by default for new objects ({@code x-amz-checksum-crc64nvme}).
 * Table-driven, one byte at a time.
 */
final class Crc64Nvme implements Checksum {

    private static final long POLY = 0x9a6c9329ac4bc9b5L;
    private static final long[] TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ POLY : c >>> 1;
            }
            TABLE[i] = c;
        }
    }

    private long crc = -1L;

    @Override
    public void update(int b) {
        crc = TABLE[(int) ((crc ^ b) & 0xff)] ^ (crc >>> 8);
    }

    @Override
    public void update(byte[] b, int off, int len) {
        long c = crc;
        for (int i = off; i < off + len; i++) {
            c = TABLE[(int) ((c ^ b[i]) & 0xff)] ^ (c >>> 8);
        }
        crc = c;
    }

    @Override
    public long getValue() {
        return ~crc;
    }

    @Override
    public void reset() {
        crc = -1L;
    }
}
