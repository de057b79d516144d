package dev.remotepath;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The lossless mapping between byte names (POSIX file names, SFTP names, percent-decoded URI
 * paths) and Java strings: UTF-8, except that each byte that is not part of valid UTF-8
 * becomes the lone surrogate {@code U+DC80 + (byte - 0x80)} (Python's PEP 383
 * "surrogateescape"). {@link #encode} turns such a string back into the very same bytes, so a
 * file whose name is not UTF-8 can still be listed, opened, copied and deleted.
 */
public final class NameBytes {

    /**
     * This scheme as a charset, for libraries that decode and encode names with one (the SSH
     * clients): {@code new String(bytes, CHARSET)} is {@link #decode(byte[])}, and
     * {@code name.getBytes(CHARSET)} is {@link #encode(String)}.
     */
    public static final java.nio.charset.Charset CHARSET = LosslessUtf8.INSTANCE;

    private NameBytes() {
    }

    /** Decodes {@code len} bytes at {@code off}; valid UTF-8 decodes as usual. */
    public static String decode(byte[] bytes, int off, int len) {
        boolean ascii = true;
        for (int i = off; i < off + len; i++) {
            if (bytes[i] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return new String(bytes, off, len, StandardCharsets.ISO_8859_1);
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, off, len);
        CharBuffer out = CharBuffer.allocate(len);
        while (true) {
            CoderResult r = decoder.decode(in, out, true);
            if (r.isUnderflow()) {
                break;
            }
            if (r.isError()) {
                for (int i = 0; i < r.length(); i++) {
                    out.put((char) (0xDC00 + (in.get() & 0xff)));
                }
            } else {
                throw new IllegalStateException("decoder overflow");
            }
        }
        decoder.flush(out);
        out.flip();
        return out.toString();
    }

    public static String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    /** The bytes of a name: UTF-8, with escaped bytes restored. */
    public static byte[] encode(String name) {
        if (!hasEscapes(name)) {
            return name.getBytes(StandardCharsets.UTF_8);
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(name.length() + 8);
        int start = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (isEscape(name, i)) {
                out.writeBytes(name.substring(start, i).getBytes(StandardCharsets.UTF_8));
                out.write(c - 0xDC00);
                start = i + 1;
            }
        }
        out.writeBytes(name.substring(start).getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /**
     * True when {@code s} has bytes in this scheme: every surrogate is half of a pair or an
     * escape (U+DC80..U+DCFF). Any other lone surrogate stands for no bytes at all.
     */
    public static boolean isEncodable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isSurrogate(c)) {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (!isEscape(s, i)) {
                return false;
            }
        }
        return true;
    }

    /** True when {@code s} carries bytes that were not UTF-8. */
    public static boolean hasEscapes(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (isEscape(s, i)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the character at {@code i} is an escape: a lone low surrogate in U+DC80..U+DCFF
     * (not the second half of a pair), standing for one raw byte, {@code charAt(i) - 0xDC00}.
     */
    public static boolean isEscape(String s, int i) {
        char c = s.charAt(i);
        return c >= 0xDC80 && c <= 0xDCFF && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
    }

    /** Strict UTF-8 check, for callers that must refuse escaped names. */
    public static boolean isValidUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
