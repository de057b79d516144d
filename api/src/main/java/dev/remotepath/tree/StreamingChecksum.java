package dev.remotepath.tree;

import dev.remotepath.ChecksumAlgorithm;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/** Computes a {@link dev.remotepath.Checksum} by reading a stream to its end. */
public final class StreamingChecksum {

    private StreamingChecksum() {
    }

    /** Reads {@code in} to the end (without closing it) and returns its digest. */
    public static dev.remotepath.Checksum of(ChecksumAlgorithm algorithm, InputStream in) throws IOException {
        byte[] buf = new byte[64 * 1024];
        int n;
        if (algorithm.jcaName().isEmpty()) {
            Checksum crc = switch (algorithm) {
                case CRC32 -> new CRC32();
                case CRC32C -> new CRC32C();
                case CRC64NVME -> new Crc64Nvme();
                default -> throw new IllegalStateException("no checksum for " + algorithm);
            };
            while ((n = in.read(buf)) > 0) {
                crc.update(buf, 0, n);
            }
            String hex = algorithm.hexLength() == 16 ? String.format("%016x", crc.getValue())
                    : String.format("%08x", crc.getValue());
            return new dev.remotepath.Checksum(algorithm, hex, dev.remotepath.Checksum.Origin.STREAMED);
        }
        MessageDigest md;
        try {
            md = MessageDigest.getInstance(algorithm.jcaName().orElseThrow());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK lacks " + algorithm, e);
        }
        while ((n = in.read(buf)) > 0) {
            md.update(buf, 0, n);
        }
        return new dev.remotepath.Checksum(algorithm, HexFormat.of().formatHex(md.digest()),
                dev.remotepath.Checksum.Origin.STREAMED);
    }
}
