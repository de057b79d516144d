package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.RemotePath;
import dev.remotepath.RemotePaths;
import dev.remotepath.spi.RemoteFileSystem;
import dev.remotepath.testkit.ForwardingFileSystem;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Quick-check's checksum shortcut (same size, other mtime) when the algorithms both backends
 * advertise are not all there for a file: every shared one is tried, and when none answers
 * the file is decided as without checksums (one copy), never by reading both sides.
 */
class QuickCheckChecksumTest {

    /** Advertises MD5 and SHA-256 but answers only those in {@code answers} (as S3 lacks MD5 for a multipart object). */
    static final class PartialChecksums extends ForwardingFileSystem {
        private final Set<ChecksumAlgorithm> answers;

        PartialChecksums(RemoteFileSystem delegate, Set<ChecksumAlgorithm> answers) {
            super(delegate);
            this.answers = answers;
        }

        @Override
        public Set<ChecksumAlgorithm> nativeChecksums() {
            return EnumSet.of(ChecksumAlgorithm.MD5, ChecksumAlgorithm.SHA256);
        }

        @Override
        public Optional<Checksum> nativeChecksum(RemotePath file, ChecksumAlgorithm algorithm) throws IOException {
            if (!answers.contains(algorithm)) {
                return Optional.empty();
            }
            try (InputStream in = delegate.openRead(down(file), 0)) {
                return Optional.of(new Checksum(algorithm, dev.remotepath.tree.StreamingChecksum.of(algorithm, in).hex(),
                        Checksum.Origin.METADATA));
            }
        }
    }

    private RemotePath mem;
    private static final String CONTENT = "same bytes on both sides, ".repeat(4000);

    @BeforeEach
    void trees() throws IOException {
        mem = RemotePaths.get("mem://qc-" + UUID.randomUUID() + "/");
        mem.resolve("src").createDirectories().resolve("f.bin").writeString(CONTENT)
                .setLastModifiedTime(Instant.parse("2024-01-01T00:00:00Z"));
        mem.resolve("dst").createDirectories().resolve("f.bin").writeString(CONTENT)
                .setLastModifiedTime(Instant.parse("2023-06-01T00:00:00Z"));
    }

    @AfterEach
    void close() throws IOException {
        mem.fileSystem().close();
    }

    private SyncReport sync(Set<ChecksumAlgorithm> answered) throws IOException {
        PartialChecksums fs = new PartialChecksums(mem.fileSystem(), answered);
        // Two wrappers: source and target are different file systems, as in any real pair.
        PartialChecksums other = new PartialChecksums(mem.fileSystem(), answered);
        return PathSyncer.builder(fs.wrap(mem.resolve("src")), other.wrap(mem.resolve("dst"))).build().run();
    }

    @Test
    void aLaterSharedAlgorithmDecidesWhenTheFirstIsMissingForTheFile() throws IOException {
        SyncReport r = sync(EnumSet.of(ChecksumAlgorithm.SHA256));
        assertThat(r.errors()).isEmpty();
        assertThat(r.checksumsNative()).isEqualTo(1);
        assertThat(r.checksumsStreamed()).isZero();
        assertThat(r.mtimesFixed()).isEqualTo(1);
        assertThat(r.filesCopied()).isZero();
        assertThat(r.contentBytesRead()).isZero();
    }

    @Test
    void withNoChecksumAnsweredTheFileIsCopiedOnceNotReadTwice() throws IOException {
        SyncReport r = sync(EnumSet.noneOf(ChecksumAlgorithm.class));
        assertThat(r.errors()).isEmpty();
        assertThat(r.checksumsStreamed()).isZero();
        assertThat(r.filesCopied()).isEqualTo(1);
        assertThat(r.contentBytesRead()).isEqualTo(CONTENT.length()); // one read: the copy's
        assertThat(mem.resolve("dst/f.bin").stat().lastModified()).hasValue(Instant.parse("2024-01-01T00:00:00Z"));
    }

    @Test
    void checksumModeStillReadsBothWhenNoChecksumIsThere() throws IOException {
        PartialChecksums a = new PartialChecksums(mem.fileSystem(), Set.of());
        PartialChecksums b = new PartialChecksums(mem.fileSystem(), Set.of());
        SyncReport r = PathSyncer.builder(a.wrap(mem.resolve("src")), b.wrap(mem.resolve("dst")))
                .comparison(Comparison.CHECKSUM).build().run();
        assertThat(r.checksumsStreamed()).isEqualTo(1);
        assertThat(r.filesCopied()).isZero();
        assertThat(r.contentBytesRead()).isEqualTo(2L * CONTENT.length());
    }
}
