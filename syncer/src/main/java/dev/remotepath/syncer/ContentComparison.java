package dev.remotepath.syncer;

import dev.remotepath.BackendLimits;
import dev.remotepath.Checksum;
import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.DirEntry;
import dev.remotepath.tree.StreamingChecksum;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tells whether two files hold the same bytes, as cheaply as the two backends allow, and
 * counts how each pair was decided (the report's {@code checksumsNative} and
 * {@code checksumsStreamed}) and the bytes read to decide it.
 */
final class ContentComparison {

    private final Optional<ChecksumAlgorithm> streamedAlgorithm;
    private final AtomicLong contentBytesRead;
    private final AtomicLong checksumsNative = new AtomicLong();
    private final AtomicLong checksumsStreamed = new AtomicLong();

    /**
     * @param streamedAlgorithm what to stream both files with when nothing cheaper decides (default MD5)
     * @param contentBytesRead  the run's counter of content bytes read
     */
    ContentComparison(Optional<ChecksumAlgorithm> streamedAlgorithm, AtomicLong contentBytesRead) {
        this.streamedAlgorithm = streamedAlgorithm;
        this.contentBytesRead = contentBytesRead;
    }

    long checksumsNative() {
        return checksumsNative.get();
    }

    long checksumsStreamed() {
        return checksumsStreamed.get();
    }

    /**
     * Whether the two files hold the same bytes: by a checksum both listings carry, else by
     * any algorithm both servers hold or compute for these two files (each shared one is
     * tried: the first may be missing for this file, as MD5 is for a multipart S3 object),
     * else, when {@code stream}, by reading both. Empty when it cannot tell without reading.
     */
    Optional<Boolean> sameContent(DirEntry s, DirEntry t, boolean stream) throws IOException {
        Optional<ChecksumAlgorithm> meta = QuickCheck.sharedMetadataAlgorithm(s.stat(), t.stat());
        if (meta.isPresent()) {
            checksumsNative.incrementAndGet();
            return Optional.of(s.stat().checksums().get(meta.get()).equals(t.stat().checksums().get(meta.get())));
        }
        for (ChecksumAlgorithm alg : QuickCheck.sharedAlgorithms(s.path().fileSystem().nativeChecksums(), t.path().fileSystem().nativeChecksums())) {
            // The target first: a value it lacks saves asking the source (which may compute it).
            Optional<Checksum> b = t.path().fileSystem().nativeChecksum(t.path(), alg);
            if (b.isEmpty()) {
                continue;
            }
            Optional<Checksum> a = s.path().fileSystem().nativeChecksum(s.path(), alg);
            if (a.isPresent()) {
                checksumsNative.incrementAndGet();
                return Optional.of(a.get().sameValueAs(b.get()));
            }
        }
        if (!stream) {
            return Optional.empty();
        }
        ChecksumAlgorithm alg = streamedAlgorithm.orElse(ChecksumAlgorithm.MD5);
        checksumsStreamed.incrementAndGet();
        // Reading both files is a transfer from each side: it takes their backends' places.
        try (BackendLimits.Permit place = BackendLimits.transfer(s.path(), t.path())) {
            return Optional.of(streamed(s, alg).sameValueAs(streamed(t, alg)));
        }
    }

    /** A file read whole as a copy reads it: with its listed stat, so read-ahead stops near its listed end. */
    private Checksum streamed(DirEntry e, ChecksumAlgorithm alg) throws IOException {
        try (InputStream in = counting(e.path().fileSystem().openReadAll(e.path(), e.stat()))) {
            return StreamingChecksum.of(alg, in);
        }
    }

    private InputStream counting(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n > 0) {
                    contentBytesRead.addAndGet(n);
                }
                return n;
            }

            @Override
            public int read() throws IOException {
                int c = super.read();
                if (c >= 0) {
                    contentBytesRead.incrementAndGet();
                }
                return c;
            }
        };
    }
}
