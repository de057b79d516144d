package dev.remotepath.http;

import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import dev.remotepath.http.index.IndexDates;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * What a response's headers say about a file, as a {@link FileStat}: its size, Last-Modified
 * (to the second), ETag, and the checksums Content-MD5 and Digest / Repr-Digest carry, known
 * without reading a byte. A malformed value is left out, never guessed at.
 */
final class HttpHeaderStats {

    private HttpHeaderStats() {
    }

    /** The Content-Length, or -1 where there is none. */
    static long contentLength(HttpFields h) {
        return h.getLongField(HttpHeader.CONTENT_LENGTH);
    }

    static FileStat fileStat(HttpFields h, long size) {
        FileStat.Builder b = FileStat.builder(FileType.FILE);
        if (size >= 0) {
            b.size(size);
        }
        IndexDates.Found modified = IndexDates.parse(h.get(HttpHeader.LAST_MODIFIED));
        if (modified != null) {
            b.lastModified(modified.instant(), Duration.ofSeconds(1));
        }
        String etag = h.get(HttpHeader.ETAG);
        if (etag != null) {
            b.etag(etag);
        }
        checksumsFromHeaders(h, b);
        return b.build();
    }

    /** Content-MD5, and Digest / Repr-Digest (RFC 3230, RFC 9530): known without reading a byte. */
    private static void checksumsFromHeaders(HttpFields h, FileStat.Builder b) {
        String md5 = h.get("Content-MD5");
        if (md5 != null) {
            put(b, ChecksumAlgorithm.MD5, md5.strip());
        }
        for (String header : new String[] {"Repr-Digest", "Digest"}) {
            String v = h.get(header);
            if (v == null) {
                continue;
            }
            for (String part : v.split(",")) {
                int eq = part.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                String alg = part.substring(0, eq).strip().toLowerCase(Locale.ROOT);
                String value = part.substring(eq + 1).strip();
                if (value.startsWith(":") && value.endsWith(":") && value.length() > 1) {
                    value = value.substring(1, value.length() - 1);
                }
                switch (alg) {
                    case "md5" -> put(b, ChecksumAlgorithm.MD5, value);
                    case "sha", "sha-1" -> put(b, ChecksumAlgorithm.SHA1, value);
                    case "sha-256" -> put(b, ChecksumAlgorithm.SHA256, value);
                    case "sha-512" -> put(b, ChecksumAlgorithm.SHA512, value);
                    case "crc32c" -> put(b, ChecksumAlgorithm.CRC32C, value);
                    default -> {
                        // An algorithm RemotePath does not know.
                    }
                }
            }
        }
    }

    private static void put(FileStat.Builder b, ChecksumAlgorithm alg, String base64) {
        try {
            String hex = HexFormat.of().formatHex(Base64.getDecoder().decode(base64));
            if (hex.length() == alg.hexLength()) {
                b.checksum(alg, hex);
            }
        } catch (IllegalArgumentException e) {
            // A malformed header is ignored: it cannot be trusted as a checksum.
        }
    }
}
