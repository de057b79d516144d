package dev.remotepath;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * {@link NameBytes}' scheme as a {@link Charset}, for libraries that take a charset for names
 * (the SSH clients' SFTP names): UTF-8 where the bytes are UTF-8, each other byte as a lone
 * surrogate U+DC80..U+DCFF, and back. Meant for whole names (length-prefixed strings): a
 * sequence cut by the end of an input buffer decodes as escaped bytes, which still encode back
 * to the same bytes.
 */
final class LosslessUtf8 extends Charset {

    static final LosslessUtf8 INSTANCE = new LosslessUtf8();

    private LosslessUtf8() {
        super("X-RemotePath-UTF-8-Lossless", new String[0]);
    }

    @Override
    public boolean contains(Charset cs) {
        return cs instanceof LosslessUtf8 || cs.equals(StandardCharsets.UTF_8) || cs.equals(StandardCharsets.US_ASCII);
    }

    @Override
    public CharsetDecoder newDecoder() {
        return new CharsetDecoder(this, 1.0f, 1.0f) {
            private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

            @Override
            protected CoderResult decodeLoop(ByteBuffer in, CharBuffer out) {
                while (in.hasRemaining()) {
                    utf8.reset();
                    CoderResult r = utf8.decode(in, out, true);
                    if (r.isOverflow()) {
                        return r;
                    }
                    if (r.isUnderflow()) {
                        continue; // all consumed (an end-of-input remainder is reported as malformed)
                    }
                    for (int i = 0; i < r.length(); i++) {
                        if (!out.hasRemaining()) {
                            return CoderResult.OVERFLOW;
                        }
                        out.put((char) (0xDC00 + (in.get() & 0xff)));
                    }
                }
                return CoderResult.UNDERFLOW;
            }
        };
    }

    @Override
    public CharsetEncoder newEncoder() {
        return new CharsetEncoder(this, 1.1f, 3.0f) {
            @Override
            protected CoderResult encodeLoop(CharBuffer in, ByteBuffer out) {
                while (in.hasRemaining()) {
                    int at = in.position();
                    char c = in.get(at);
                    if (c >= 0xDC80 && c <= 0xDCFF) { // a lone low surrogate (pairs are taken whole below): a raw byte
                        if (!out.hasRemaining()) {
                            return CoderResult.OVERFLOW;
                        }
                        out.put((byte) (c - 0xDC00));
                        in.position(at + 1);
                        continue;
                    }
                    int cp;
                    int chars = 1;
                    if (Character.isHighSurrogate(c)) {
                        if (at + 1 >= in.limit()) {
                            return CoderResult.UNDERFLOW; // its pair may follow in more input
                        }
                        char low = in.get(at + 1);
                        if (!Character.isLowSurrogate(low)) {
                            return CoderResult.malformedForLength(1);
                        }
                        cp = Character.toCodePoint(c, low);
                        chars = 2;
                    } else if (Character.isLowSurrogate(c)) {
                        return CoderResult.malformedForLength(1); // lone, and no escape
                    } else {
                        cp = c;
                    }
                    int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
                    if (out.remaining() < n) {
                        return CoderResult.OVERFLOW;
                    }
                    switch (n) {
                        case 1 -> out.put((byte) cp);
                        case 2 -> out.put((byte) (0xC0 | cp >> 6)).put((byte) (0x80 | cp & 0x3F));
                        case 3 -> out.put((byte) (0xE0 | cp >> 12)).put((byte) (0x80 | cp >> 6 & 0x3F))
                                .put((byte) (0x80 | cp & 0x3F));
                        default -> out.put((byte) (0xF0 | cp >> 18)).put((byte) (0x80 | cp >> 12 & 0x3F))
                                .put((byte) (0x80 | cp >> 6 & 0x3F)).put((byte) (0x80 | cp & 0x3F));
                    }
                    in.position(at + chars);
                }
                return CoderResult.UNDERFLOW;
            }
        };
    }
}
