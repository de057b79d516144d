package dev.remotepath.http;

import dev.remotepath.RemotePath;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * Decodes an index page that a server sent with {@code Content-Encoding} although identity was
 * asked for, never past the page size limit: a few kilobytes of gzip can expand to gigabytes.
 * File bodies are never decoded; they are copied as the bytes the server sent.
 */
final class BoundedDecoding {

    private BoundedDecoding() {
    }

    static byte[] decode(String encoding, byte[] body, int length, long limit, RemotePath directory)
            throws IOException {
        String e = encoding.toLowerCase(Locale.ROOT);
        InputStream in;
        try {
            in = switch (e) {
                case "gzip", "x-gzip" -> new GZIPInputStream(new ByteArrayInputStream(body, 0, length));
                case "deflate" -> new InflaterInputStream(new ByteArrayInputStream(body, 0, length));
                default -> throw new FileSystemException(directory.toString(), null, "the index page came with "
                        + "Content-Encoding " + encoding + ", which cannot be read");
            };
        } catch (ZipException bad) {
            throw new FileSystemException(directory.toString(), null, "the index page's " + encoding
                    + " encoding is corrupt: " + bad.getMessage());
        }
        try (in) {
            byte[] out = new byte[(int) Math.min(limit + 1, Math.max(4096, length * 4L))];
            int n = 0;
            int r;
            while ((r = in.read(out, n, out.length - n)) >= 0) {
                n += r;
                if (n > limit) {
                    throw new FileSystemException(directory.toString(), null, "the index page decodes to more than "
                            + limit + " bytes (HttpOptions.maxIndexPageBytes)");
                }
                if (n == out.length) {
                    out = Arrays.copyOf(out, (int) Math.min(limit + 1, out.length * 2L));
                }
            }
            return Arrays.copyOf(out, n);
        } catch (ZipException bad) {
            throw new FileSystemException(directory.toString(), null, "the index page's " + encoding
                    + " encoding is corrupt: " + bad.getMessage());
        }
    }
}
