package dev.remotepath;

import java.io.ByteArrayOutputStream;
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
        for (char c : "-._~!$&'()*+,;=:@/".toCharArray()) SAFE[c] = true;
    }

    /** Encodes a decoded path so that every other character than RFC 3986 pchar and '/' is %XX (UTF-8). */
    public static String encodePath(String path) {
        int i = 0;
        while (i < path.length() && path.charAt(i) < 128 && SAFE[path.charAt(i)]) {
            i++;
        }
        if (i == path.length()) {
            return path;
        }
        StringBuilder sb = new StringBuilder(path.length() + 16).append(path, 0, i);
        byte[] bytes = path.substring(i).getBytes(StandardCharsets.UTF_8);
        for (byte b : bytes) {
            int c = b & 0xff;
            if (c < 128 && SAFE[c]) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return sb.toString();
    }

    /**
     * Decodes %XX escapes exactly (UTF-8; '+' stays '+').
     *
     * @throws IllegalArgumentException on a malformed escape or bytes that are not UTF-8
     */
    public static String decode(String encoded) {
        if (encoded.indexOf('%') < 0) {
            return encoded;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%') {
                if (i + 2 >= encoded.length()) {
                    throw new IllegalArgumentException("truncated percent escape in '" + encoded + "'");
                }
                int hi = Character.digit(encoded.charAt(i + 1), 16);
                int lo = Character.digit(encoded.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("malformed percent escape in '" + encoded + "'");
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < encoded.length()) {
                    b = encoded.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                out.writeBytes(b);
            }
        }
        byte[] bytes = out.toByteArray();
        var decoder = StandardCharsets.UTF_8.newDecoder();
        try {
            return decoder.decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("percent escapes are not UTF-8 in '" + encoded + "'");
        }
    }
}
