package dev.remotepath.syncer;

import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The comparison rules of quick-check, as pure functions of what the listings said: no I/O
 * here, so each rule is tested on its own ({@code QuickCheckTest}).
 */
final class QuickCheck {

    /** Times shown this coarsely are a page's display, not the server's record of the file. */
    static final Duration DISPLAYED = Duration.ofMinutes(1);

    /** The least a storage time must follow a change by: S3's precision, and its clock against ours. */
    static final Duration STORAGE_MARGIN = Duration.ofSeconds(1);

    private QuickCheck() {
    }

    /**
     * True when the target holds as many bytes as the source and was stored more than the
     * source's time precision (and {@link #STORAGE_MARGIN}) after {@code lastChange}: the
     * source has not changed since this copy was made, so only a clock running backwards could
     * make it stale.
     *
     * @param lastChange the source's ctime (which nothing can set back), or with
     *                   {@code useServerModtime} its mtime (which a restore can)
     */
    static boolean storedSinceLastChange(Optional<Instant> lastChange, FileStat src, FileStat dst) {
        if (dst.storedAt().isEmpty() || lastChange.isEmpty() || src.size().isEmpty() || !src.sizeExact()
                || !dst.sizeExact() || !src.size().equals(dst.size())) {
            return false;
        }
        Duration margin = src.lastModifiedPrecision().compareTo(STORAGE_MARGIN) > 0
                ? src.lastModifiedPrecision() : STORAGE_MARGIN;
        return dst.storedAt().get().isAfter(lastChange.get().plus(margin));
    }

    /**
     * Equal within the coarser precision of the two; against a target that cannot keep mtimes
     * ({@code targetSetsTimes} false), not older.
     */
    static boolean sameTime(FileStat src, FileStat dst, boolean targetSetsTimes) {
        if (src.lastModified().isEmpty() || dst.lastModified().isEmpty()) {
            return false;
        }
        Duration window = src.lastModifiedPrecision().compareTo(dst.lastModifiedPrecision()) >= 0
                ? src.lastModifiedPrecision() : dst.lastModifiedPrecision();
        Instant s = src.lastModified().get();
        Instant d = dst.lastModified().get();
        if (!targetSetsTimes) {
            return Duration.between(d, s).compareTo(window) < 0; // the target is not older by the window
        }
        return within(s, d, window);
    }

    /**
     * True when {@code a} and {@code b} are less than {@code window} apart. Two {@code between}
     * calls rather than {@code abs()} or {@code negated()}: those multiply through {@code
     * BigDecimal}, once per file of a sync, and the first call pays BigDecimal's class
     * initialiser (10-16 ms on JDK 25).
     */
    static boolean within(Instant a, Instant b, Duration window) {
        return Duration.between(a, b).compareTo(window) < 0 && Duration.between(b, a).compareTo(window) < 0;
    }

    /**
     * True when a directory's time already is {@code time}: within the target's precision, and
     * never finer than a second, as not every server keeps more.
     */
    static boolean sameDirectoryTime(Instant time, FileStat target) {
        if (target.lastModified().isEmpty()) {
            return false;
        }
        Duration window = target.lastModifiedPrecision().compareTo(Duration.ofSeconds(1)) > 0
                ? target.lastModifiedPrecision() : Duration.ofSeconds(1);
        return within(time, target.lastModified().get(), window);
    }

    /** The first algorithm whose value both listings carry. */
    static Optional<ChecksumAlgorithm> sharedMetadataAlgorithm(FileStat a, FileStat b) {
        for (ChecksumAlgorithm alg : ChecksumAlgorithm.values()) {
            if (a.checksums().containsKey(alg) && b.checksums().containsKey(alg)) {
                return Optional.of(alg);
            }
        }
        return Optional.empty();
    }

    /** The algorithms both sides advertise, in the enum's order (each is tried in turn). */
    static Set<ChecksumAlgorithm> sharedAlgorithms(Set<ChecksumAlgorithm> a, Set<ChecksumAlgorithm> b) {
        Set<ChecksumAlgorithm> shared = EnumSet.noneOf(ChecksumAlgorithm.class);
        shared.addAll(a);
        shared.retainAll(b);
        return shared;
    }
}
