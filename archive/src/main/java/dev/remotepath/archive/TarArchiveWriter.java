package dev.remotepath.archive;

import dev.remotepath.NameBytes;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a POSIX tar archive (ustar headers, with a pax extended header where a name or link
 * target does not fit ustar's fields or is not ASCII, a size over 8 GiB, or a time ustar cannot
 * hold), optionally gzip-compressed. Times are whole seconds, as ustar keeps them; modes are
 * those {@link ArchiveWriter} gives. The archive ends with two zero blocks, padded to tar's
 * 10 KiB record so every tar reads it without a warning.
 */
final class TarArchiveWriter implements ArchiveWriter {

    private static final int BLOCK = 512;
    private static final int RECORD = 20 * BLOCK;
    private static final long MAX_OCTAL_11 = 077777777777L;

    private final OutputStream target;
    private final GZIPOutputStream gzip;
    private final ZipArchiveWriter.CountingOutputStream out;

    TarArchiveWriter(OutputStream target, boolean compress) throws IOException {
        this.target = target;
        this.gzip = compress ? new GZIPOutputStream(target, 64 * 1024) : null;
        // Headers and padding come in 512-byte writes: batched before they reach the deflater.
        this.out = new ZipArchiveWriter.CountingOutputStream(
                compress ? new java.io.BufferedOutputStream(gzip, 64 * 1024) : target);
    }

    @Override
    public boolean deflates() {
        return false;
    }

    @Override
    public void file(String name, Instant modified, int mode, EntryContent content) throws IOException {
        header(name, '0', mode, content.size(), modified, "");
        content.writeTo(out);
        pad(content.size());
    }

    @Override
    public void directory(String name, Instant modified, int mode) throws IOException {
        header(name + "/", '5', mode, 0, modified, "");
    }

    @Override
    public void link(String name, String target, Instant modified) throws IOException {
        header(name, '2', LINK_MODE, 0, modified, target);
    }

    private void header(String name, char type, int mode, long size, Instant modified, String link) throws IOException {
        Map<String, byte[]> pax = new LinkedHashMap<>();
        // Names as their bytes: a name that came with bytes that are not UTF-8 (NameBytes'
        // escapes) keeps them, raw in a pax record where ustar cannot hold them, as GNU tar writes them.
        byte[] nameBytes = NameBytes.encode(name);
        byte[] prefix = new byte[0];
        if (!ascii(nameBytes) || nameBytes.length > 100) {
            int split = ascii(nameBytes) ? split(nameBytes) : -1;
            if (split > 0) {
                prefix = java.util.Arrays.copyOfRange(nameBytes, 0, split);
                nameBytes = java.util.Arrays.copyOfRange(nameBytes, split + 1, nameBytes.length);
            } else {
                pax.put("path", nameBytes);
                nameBytes = asciiStandIn(nameBytes, 100);
            }
        }
        byte[] linkBytes = NameBytes.encode(link);
        if (!ascii(linkBytes) || linkBytes.length > 100) {
            pax.put("linkpath", linkBytes);
            linkBytes = asciiStandIn(linkBytes, 100);
        }
        if (size > MAX_OCTAL_11) {
            pax.put("size", ascii(Long.toString(size)));
        }
        long seconds = modified.getEpochSecond();
        if (seconds < 0 || seconds > MAX_OCTAL_11) {
            pax.put("mtime", ascii(Long.toString(seconds)));
        }
        if (!pax.isEmpty()) {
            byte[] records = paxRecords(pax);
            byte[] base = NameBytes.encode(last(name));
            block(concat(ascii("PaxHeaders/"), asciiStandIn(base, 80)), new byte[0], 'x', 0100644, records.length, 0,
                    new byte[0]);
            out.write(records);
            pad(records.length);
        }
        block(nameBytes, prefix, type, mode, size > MAX_OCTAL_11 ? 0 : size,
                seconds < 0 || seconds > MAX_OCTAL_11 ? 0 : seconds, linkBytes);
    }

    private void block(byte[] name, byte[] prefix, char type, int mode, long size, long mtime, byte[] link)
            throws IOException {
        byte[] h = new byte[BLOCK];
        put(h, 0, name, 100);
        octal(h, 100, 8, mode & 07777);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, mtime);
        h[156] = (byte) type;
        put(h, 157, link, 100);
        put(h, 257, "ustar\0".getBytes(StandardCharsets.US_ASCII), 6);
        h[263] = '0';
        h[264] = '0';
        put(h, 345, prefix, 155);
        java.util.Arrays.fill(h, 148, 156, (byte) ' ');
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        byte[] chk = String.format("%06o\0 ", sum).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(chk, 0, h, 148, 8);
        out.write(h);
    }

    /** pax records: "length key=value\n", the length counting itself; values are bytes. */
    private static byte[] paxRecords(Map<String, byte[]> pax) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        for (Map.Entry<String, byte[]> e : pax.entrySet()) {
            int body = 1 + e.getKey().length() + 1 + e.getValue().length + 1; // " key=value\n"
            int length = body + Integer.toString(body).length();
            if (Integer.toString(length).length() != Integer.toString(body).length()) {
                length++; // one more digit in the length than the body alone suggested
            }
            b.writeBytes(ascii(length + " " + e.getKey() + "="));
            b.writeBytes(e.getValue());
            b.write('\n');
        }
        return b.toByteArray();
    }

    /** Where a long ASCII name can be cut at a '/' into ustar's prefix (≤ 155) and name (≤ 100); -1 if nowhere. */
    private static int split(byte[] bytes) {
        for (int i = Math.min(155, bytes.length - 2); i > 0; i--) {
            if (bytes[i] == '/' && bytes.length - i - 1 <= 100) {
                return i;
            }
        }
        return -1;
    }

    private static String last(String name) {
        String n = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
        return n.substring(n.lastIndexOf('/') + 1);
    }

    /** What old readers that ignore pax see: the name's printable ASCII bytes, others as '_', cut to fit. */
    private static byte[] asciiStandIn(byte[] name, int max) {
        byte[] out = java.util.Arrays.copyOf(name, Math.min(name.length, max));
        for (int i = 0; i < out.length; i++) {
            if (out[i] < ' ' || out[i] == 127) { // negative: a byte over 127
                out[i] = '_';
            }
        }
        return out;
    }

    private static boolean ascii(byte[] b) {
        for (byte c : b) {
            if (c < ' ' || c == 127) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void put(byte[] h, int at, byte[] value, int max) {
        System.arraycopy(value, 0, h, at, Math.min(value.length, max));
    }

    private static void octal(byte[] h, int at, int width, long value) {
        String s = Long.toOctalString(value);
        String padded = "0".repeat(Math.max(0, width - 1 - s.length())) + s;
        put(h, at, padded.getBytes(StandardCharsets.US_ASCII), width - 1);
    }

    private void pad(long size) throws IOException {
        int rest = (int) (size % BLOCK);
        if (rest != 0) {
            out.write(new byte[BLOCK - rest]);
        }
    }

    @Override
    public void finish() throws IOException {
        out.write(new byte[2 * BLOCK]);
        int rest = (int) (out.count() % RECORD);
        if (rest != 0) {
            out.write(new byte[RECORD - rest]);
        }
        out.flush();
        if (gzip != null) {
            gzip.finish();
        }
        target.flush();
    }
}
