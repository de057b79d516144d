package dev.remotepath.archive;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** A tar writer for tests that must write what tar tools will not: any name, type flag, size or checksum. */
final class TarWriter {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** One ustar header and its content; {@code declaredSize} below 0 means the content's length. */
    TarWriter entry(String name, char type, String link, byte[] content, long declaredSize, boolean badChecksum) {
        byte[] h = new byte[512];
        put(h, 0, 100, name.getBytes(StandardCharsets.UTF_8));
        put(h, 100, 8, octal(0644, 8));
        put(h, 108, 8, octal(0, 8));
        put(h, 116, 8, octal(0, 8));
        put(h, 124, 12, octal(declaredSize >= 0 ? declaredSize : content.length, 12));
        put(h, 136, 12, octal(1_700_000_000L, 12));
        h[156] = (byte) type;
        put(h, 157, 100, link.getBytes(StandardCharsets.UTF_8));
        put(h, 257, 6, "ustar\0".getBytes(StandardCharsets.US_ASCII));
        put(h, 263, 2, "00".getBytes(StandardCharsets.US_ASCII));
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        put(h, 148, 8, octal(badChecksum ? sum + 1 : sum, 7));
        out.writeBytes(h);
        out.writeBytes(content);
        out.writeBytes(new byte[(int) ((512 - content.length % 512) % 512)]);
        return this;
    }

    TarWriter file(String name, String content) {
        return entry(name, '0', "", content.getBytes(StandardCharsets.UTF_8), -1, false);
    }

    byte[] bytes() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.writeBytes(out.toByteArray());
        all.writeBytes(new byte[1024]);
        return all.toByteArray();
    }

    private static void put(byte[] h, int off, int len, byte[] v) {
        System.arraycopy(v, 0, h, off, Math.min(len, v.length));
    }

    private static byte[] octal(long v, int len) {
        String s = Long.toOctalString(v);
        StringBuilder sb = new StringBuilder();
        for (int i = s.length(); i < len - 1; i++) {
            sb.append('0');
        }
        return (sb + s + "\0").getBytes(StandardCharsets.US_ASCII);
    }
}
