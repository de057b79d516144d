package dev.remotepath.syncer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remotepath.ChecksumAlgorithm;
import dev.remotepath.FileStat;
import dev.remotepath.FileType;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The comparison rules on their own, from stats alone. */
class QuickCheckTest {

    private static final Instant T = Instant.parse("2025-05-05T10:00:00Z");

    private static FileStat local(long size, Instant mtime, Instant ctime) {
        return FileStat.builder(FileType.FILE).size(size).lastModified(mtime, FileStat.EXACT).changeTime(ctime).build();
    }

    private static FileStat stored(long size, Instant at) {
        return FileStat.builder(FileType.FILE).size(size).storedAt(at).build();
    }

    @Test
    void storedAfterTheLastChangeByMoreThanTheMarginIsUnchanged() {
        FileStat src = local(10, T.minusSeconds(3600), T);
        assertThat(QuickCheck.storedSinceLastChange(src.changeTime(), src, stored(10, T.plusSeconds(2)))).isTrue();
        // within S3's second of the change, a clock a little behind could hide one
        assertThat(QuickCheck.storedSinceLastChange(src.changeTime(), src, stored(10, T.plusMillis(900)))).isFalse();
        assertThat(QuickCheck.storedSinceLastChange(src.changeTime(), src, stored(10, T.minusSeconds(5)))).isFalse();
        assertThat(QuickCheck.storedSinceLastChange(src.changeTime(), src, stored(11, T.plusSeconds(60)))).isFalse();
        assertThat(QuickCheck.storedSinceLastChange(Optional.empty(), src, stored(10, T.plusSeconds(60)))).isFalse();
    }

    @Test
    void aRestoredMtimeIsCaughtByTheCtimeButNotByTheMtimeRule() {
        // Uploaded at T; then edited (same size) and its mtime set back to before T.
        FileStat src = local(10, T.minusSeconds(86_400), T.plusSeconds(600));
        FileStat dst = stored(10, T);
        assertThat(QuickCheck.storedSinceLastChange(src.changeTime(), src, dst)).as("by ctime").isFalse();
        assertThat(QuickCheck.storedSinceLastChange(src.lastModified(), src, dst)).as("by mtime (useServerModtime)").isTrue();
    }

    @Test
    void aCoarseSourceTimeWidensTheMargin() {
        FileStat minute = FileStat.builder(FileType.FILE).size(5).lastModified(T, Duration.ofMinutes(1)).build();
        assertThat(QuickCheck.storedSinceLastChange(minute.lastModified(), minute, stored(5, T.plusSeconds(30)))).isFalse();
        assertThat(QuickCheck.storedSinceLastChange(minute.lastModified(), minute, stored(5, T.plusSeconds(61)))).isTrue();
    }

    @Test
    void timesAreEqualWithinTheCoarserPrecision() {
        FileStat ns = local(1, T, T);
        FileStat sec = FileStat.builder(FileType.FILE).size(1).lastModified(T.plusMillis(400), Duration.ofSeconds(1)).build();
        assertThat(QuickCheck.sameTime(ns, sec, true)).isTrue();
        assertThat(QuickCheck.sameTime(ns, local(1, T.plusNanos(1), T), true)).isFalse();
        // A target that cannot set times: unchanged when not older than the source.
        assertThat(QuickCheck.sameTime(ns, local(1, T.plusSeconds(100), T), false)).isTrue();
        assertThat(QuickCheck.sameTime(ns, local(1, T.minusSeconds(100), T), false)).isFalse();
    }

    @Test
    void timeWindowsAreWhatDurationArithmeticGave() {
        // within() and the not-older rule avoid abs() and negated(); the answers must be theirs
        java.util.Random random = new java.util.Random(59);
        for (int i = 0; i < 20_000; i++) {
            Instant a = T.plusSeconds(random.nextInt(7) - 3).plusNanos(random.nextInt(1_000_000_000));
            Instant b = random.nextInt(8) == 0 ? a : T.plusSeconds(random.nextInt(7) - 3).plusNanos(random.nextInt(1_000_000_000));
            Duration window = Duration.ofSeconds(random.nextInt(3), random.nextInt(4) * 250_000_000L);
            Duration diff = Duration.between(a, b);
            assertThat(QuickCheck.within(a, b, window)).as("%s %s %s", a, b, window).isEqualTo(diff.abs().compareTo(window) < 0);
            Duration precision = window.isZero() ? FileStat.EXACT : window;
            FileStat src = FileStat.builder(FileType.FILE).size(1).lastModified(a, precision).build();
            FileStat dst = FileStat.builder(FileType.FILE).size(1).lastModified(b, FileStat.EXACT).build();
            assertThat(QuickCheck.sameTime(src, dst, false)).as("%s %s %s", a, b, precision)
                    .isEqualTo(diff.compareTo(precision.negated()) > 0);
            assertThat(QuickCheck.sameTime(src, dst, true)).as("%s %s %s", a, b, precision)
                    .isEqualTo(diff.abs().compareTo(precision) < 0);
        }
        Instant far = Instant.MAX.minusSeconds(1);
        assertThat(QuickCheck.within(Instant.MIN, far, Duration.ofSeconds(1))).isFalse();
        assertThat(QuickCheck.within(far, far.plusNanos(5), Duration.ofNanos(6))).isTrue();
    }

    @Test
    void directoryTimesMatchToTheSecond() {
        FileStat dir = FileStat.builder(FileType.DIRECTORY).lastModified(T.plusMillis(999), FileStat.EXACT).build();
        assertThat(QuickCheck.sameDirectoryTime(T, dir)).isTrue();
        assertThat(QuickCheck.sameDirectoryTime(T.minusSeconds(1), dir)).isFalse();
        assertThat(QuickCheck.sameDirectoryTime(T, FileStat.ofType(FileType.DIRECTORY))).isFalse();
    }

    @Test
    void everySharedAlgorithmIsOffered() {
        assertThat(QuickCheck.sharedAlgorithms(EnumSet.of(ChecksumAlgorithm.MD5, ChecksumAlgorithm.SHA256),
                EnumSet.of(ChecksumAlgorithm.SHA256, ChecksumAlgorithm.MD5, ChecksumAlgorithm.CRC32C)))
                .containsExactly(ChecksumAlgorithm.MD5, ChecksumAlgorithm.SHA256);
        FileStat a = FileStat.builder(FileType.FILE).checksum(ChecksumAlgorithm.SHA256, "a".repeat(64)).build();
        FileStat b = FileStat.builder(FileType.FILE).checksum(ChecksumAlgorithm.SHA256, "b".repeat(64))
                .checksum(ChecksumAlgorithm.MD5, "c".repeat(32)).build();
        assertThat(QuickCheck.sharedMetadataAlgorithm(a, b)).hasValue(ChecksumAlgorithm.SHA256);
    }
}
