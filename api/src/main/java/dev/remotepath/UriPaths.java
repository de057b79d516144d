package dev.remotepath;

import java.nio.charset.StandardCharsets;

/** Percent-encoding of path strings into URI paths (RFC 3986), shared by every backend. */
public final class UriPaths {

    private UriPaths() {
    }

    private static final boolean[] SAFE = new boolean[128];

    static {
        for (char c = 'a'; c <= 'z'; c++) SAFE[c] = true;
        for (char c = 'A'; c <= 'Z'; c++) SAFE[c] = true;
        for (char c = '0'; c <= '9'; c++) SAFE[c] = true;
        // ';' is legal in RFC 3986 paths but Jetty, Tomcat and others read it as a path-parameter
        // delimiter, so it is always encoded.
        for (char c : "-._~!$&'()*+,=:@/".toCharArray()) SAFE[c] = true;
    }

    /**
     * Encodes a decoded path so that every character other than RFC 3986 pchar and '/' is %XX
     * of its UTF-8 bytes; escaped raw bytes ({@link NameBytes}) become %XX of the byte itself.
     */
    public static String encodePath(String path) {
        int i = 0;
        while (i < path.length() && path.charAt(i) < 128 && SAFE[path.charAt(i)]) {
            i++;
        }
        if (i == path.length()) {
            return path;
        }
        StringBuilder sb = new StringBuilder(path.length() + 16).append(path, 0, i);
        for (byte b : NameBytes.encode(path.substring(i))) {
            int c = b & 0xff;
            if (c < 128 && SAFE[c]) {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
            }
        }
        return sb.toString();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /**
     * Decodes %XX escapes exactly ('+' stays '+'); bytes that are not UTF-8 are kept
     * losslessly as {@link NameBytes} escapes.
     *
     * @throws IllegalArgumentException on a malformed or truncated escape
     */
    public static String decode(String encoded) {
        if (encoded.indexOf('%') < 0) {
            return encoded;
        }
        byte[] raw = encoded.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[raw.length];
        int n = 0;
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '%') {
                if (i + 2 >= raw.length) {
                    throw new IllegalArgumentException("truncated percent escape in '" + encoded + "'");
                }
                int hi = Character.digit(raw[i + 1], 16);
                int lo = Character.digit(raw[i + 2], 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("malformed percent escape in '" + encoded + "'");
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                out[n++] = raw[i];
            }
        }
        return NameBytes.decode(out, 0, n);
    }
}
