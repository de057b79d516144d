package dev.remotepath.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Zips for tests of readers that must not read all of one (the JDK's zip file system over a backend). */
public final class ZipFixtures {

    private ZipFixtures() {
    }

    /**
     * A zip of {@code bulk.bin} (the given bytes, stored, so the archive is at least that large)
     * followed by {@code docs/readme.txt} holding {@code readme}: reading the small entry needs
     * the central directory at the end and that entry, not the bulk before them.
     */
    public static byte[] bulkThenReadme(byte[] bulk, String readme) throws IOException {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream(bulk.length + 1024);
        try (ZipOutputStream zip = new ZipOutputStream(zipped)) {
            ZipEntry stored = new ZipEntry("bulk.bin");
            stored.setMethod(ZipEntry.STORED);
            stored.setSize(bulk.length);
            CRC32 crc = new CRC32();
            crc.update(bulk);
            stored.setCrc(crc.getValue());
            zip.putNextEntry(stored);
            zip.write(bulk);
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("docs/readme.txt"));
            zip.write(readme.getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return zipped.toByteArray();
    }
}
