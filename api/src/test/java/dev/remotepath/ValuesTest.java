package dev.remotepath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The small values: stats, checksums, names, URI encoding. */
class ValuesTest {

    @Test
    void fileStatStartsUnknown() {
        FileStat s = FileStat.ofType(FileType.FILE);
        assertThat(s.size()).isEmpty();
        assertThat(s.lastModified()).isEmpty();
        assertThat(s.hasSizeAndTime()).isFalse();
        assertThat(s.checksums()).isEmpty();
    }

    @Test
    void fileStatBuilderAndApproximateSizes() {
        FileStat s = FileStat.builder(FileType.FILE).approximateSize(1200)
                .lastModified(Instant.EPOCH, Duration.ofMinutes(1)).checksum(ChecksumAlgorithm.MD5,
                        "D41D8CD98F00B204E9800998ECF8427E").build();
        assertThat(s.sizeExact()).isFalse();
        assertThat(s.hasSizeAndTime()).isFalse();
        assertThat(s.checksums()).containsEntry(ChecksumAlgorithm.MD5, "d41d8cd98f00b204e9800998ecf8427e");
        assertThat(s.toBuilder().size(5).build().hasSizeAndTime()).isTrue();
        assertThatThrownBy(() -> FileStat.builder(FileType.FILE).size(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fileStatIsAValueWhateverPropertiesItHolds() {
        Instant t = Instant.parse("2026-12-02T06:00:00Z");
        FileStat full = FileStat.builder(FileType.FILE).size(12).lastModified(t, FileStat.EXACT).lastAccess(t)
                .changeTime(t.plusSeconds(1)).permissions(java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"))
                .fileKey("(dev=1,ino=2)").etag("\"e\"").checksum(ChecksumAlgorithm.SHA256, "ab".repeat(32))
                .storedAt(t.plusSeconds(2)).build();
        FileStat again = full.toBuilder().build();
        assertThat(again).isEqualTo(full).hasSameHashCodeAs(full);
        assertThat(again.fileKey()).hasValue("(dev=1,ino=2)");
        assertThat(again.storedAt()).hasValue(t.plusSeconds(2));
        assertThat(full.toString()).startsWith("FileStat[type=FILE, size=12, lastModified=2026-12-02T06:00:00Z")
                .contains("permissions=rw-r-----", "fileKey=(dev=1,ino=2)", "etag=\"e\"", "storedAt=2026-12-02T06:00:02Z");
        assertThat(full.toBuilder().etag("\"f\"").build()).isNotEqualTo(full);
        // What a listing carries: the same value whether made by listed(...) or by the builder.
        FileStat listed = FileStat.listed(FileType.FILE, java.util.OptionalLong.of(12), true, java.util.Optional.of(t),
                FileStat.EXACT, java.util.Optional.empty(), java.util.Optional.of(t));
        assertThat(listed).isEqualTo(FileStat.builder(FileType.FILE).size(12).lastModified(t, FileStat.EXACT).changeTime(t).build());
        assertThat(listed.etag()).isEmpty();
        assertThat(listed.checksums()).isEmpty();
        assertThatThrownBy(() -> full.checksums().put(ChecksumAlgorithm.MD5, "x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> FileStat.builder(FileType.FILE).lastModified(t, Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void checksumValuesAreValidated() {
        assertThatThrownBy(() -> new Checksum(ChecksumAlgorithm.MD5, "abc", Checksum.Origin.STREAMED))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Checksum(ChecksumAlgorithm.CRC32, "zzzzzzzz", Checksum.Origin.STREAMED))
                .isInstanceOf(IllegalArgumentException.class);
        Checksum a = new Checksum(ChecksumAlgorithm.CRC32, "ABCDEF01", Checksum.Origin.NATIVE);
        assertThat(a.sameValueAs(new Checksum(ChecksumAlgorithm.CRC32, "abcdef01", Checksum.Origin.STREAMED))).isTrue();
        assertThat(a.toString()).isEqualTo("crc32:abcdef01");
    }

    @Test
    void algorithmNamesParseLeniently() {
        assertThat(ChecksumAlgorithm.parse("sha-256")).isEqualTo(ChecksumAlgorithm.SHA256);
        assertThat(ChecksumAlgorithm.parse("CRC32C")).isEqualTo(ChecksumAlgorithm.CRC32C);
        assertThat(ChecksumAlgorithm.parse("sha_1")).isEqualTo(ChecksumAlgorithm.SHA1);
        assertThatThrownBy(() -> ChecksumAlgorithm.parse("sha3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("md5");
    }

    @Test
    void entryNames() {
        assertThat(EntryNames.isSafe("ok name")).isTrue();
        assertThat(EntryNames.isSafe("...")).isTrue();
        for (String bad : new String[] {"", ".", "..", "a/b", "/", "a\0"}) {
            assertThat(EntryNames.isSafe(bad)).as(bad).isFalse();
        }
        assertThatThrownBy(() -> EntryNames.requireSafe("mem://v/d", "x\0\n"))
                .isInstanceOf(UnsafeNameException.class)
                .hasMessageContaining("mem://v/d").hasMessageContaining("\\x00\\x0a");
    }

    @Test
    void uriPathsEncodeAndDecodeExactly() {
        String weird = "/a b/%/#/?/+/ü/😀/;=:@";
        String encoded = UriPaths.encodePath(weird);
        assertThat(encoded).isEqualTo("/a%20b/%25/%23/%3F/+/%C3%BC/%F0%9F%98%80/%3B=:@");
        assertThat(UriPaths.decode(encoded)).isEqualTo(weird);
        assertThat(UriPaths.decode("a+b")).isEqualTo("a+b");
        assertThat(UriPaths.decode("%c3%bc")).isEqualTo("ü");
        assertThatThrownBy(() -> UriPaths.decode("%")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> UriPaths.decode("%4")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> UriPaths.decode("%g0")).isInstanceOf(IllegalArgumentException.class);
        assertThat(UriPaths.decode("bad%ff%FEname")).isEqualTo("bad\udcff\udcfename");
    }

    @Test
    void nameBytesAreLossless() {
        byte[][] names = {{'a', 'b'}, {(byte) 0xff, (byte) 0xfe}, {(byte) 0xc3, (byte) 0xa9}, {(byte) 0xc3},
            {'x', (byte) 0xed, (byte) 0xb2, (byte) 0x80, 'y'}, {(byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80},
            {(byte) 0xf0, (byte) 0x9f, (byte) 0x98}, {'\n', 0x7f}};
        for (byte[] raw : names) {
            String s = NameBytes.decode(raw);
            assertThat(NameBytes.encode(s)).as(java.util.Arrays.toString(raw)).isEqualTo(raw);
            assertThat(UriPaths.decode(UriPaths.encodePath(s))).isEqualTo(s);
        }
        assertThat(NameBytes.decode(new byte[] {(byte) 0xc3, (byte) 0xa9})).isEqualTo("é");
        assertThat(NameBytes.hasEscapes("é😀")).isFalse();
        assertThat(NameBytes.hasEscapes(NameBytes.decode(new byte[] {(byte) 0x80}))).isTrue();
        assertThat(UriPaths.encodePath(NameBytes.decode(new byte[] {'/', (byte) 0xff}))).isEqualTo("/%FF");
    }
}
