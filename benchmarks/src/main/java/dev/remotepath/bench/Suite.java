package dev.remotepath.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A named set of side-by-side cases, each group holding a baseline and its contenders. */
interface Suite {

    String name();

    String description();

    /** Builds or reuses fixtures under {@code fixtures}; called once before sampling. */
    void prepare(Path fixtures) throws Exception;

    List<Case> cases();

    List<Target> targets();

    /**
     * How long a group's samples should be spread over, for cases of a few hundred microseconds
     * whose figure is absolute rather than a ratio: the harness runs the cases untimed between
     * timed rounds, so the samples come from several seconds of the machine rather than one
     * burst of ~50 ms. On a shared host a core's speed for high-ILP code swings up to ~2x in
     * windows of 0.1-1 s (docs/benchmarks.md, suite `http`); a burst lands in one
     * window, a spread median shows the machine's usual state. Zero (the default): back to back.
     */
    default Duration sampleSpread() {
        return Duration.ZERO;
    }

    /** Removes what sampling left behind (the next run's prepare need not); called after reporting. */
    default void cleanup() throws Exception {
    }

    /** Lines of context worth recording with the figures (which lister ran, tool versions...). */
    default List<String> notes() {
        return List.of();
    }

    /**
     * One measured operation; {@code run} returns the number of units (entries, files) it
     * handled. {@code before} runs untimed ahead of every sample (emptying a target, say).
     */
    record Case(String group, String name, boolean baseline, Op before, Op run) {
        Case(String group, String name, boolean baseline, Op run) {
            this(group, name, baseline, () -> 0, run);
        }
    }

    @FunctionalInterface
    interface Op {
        long run() throws Exception;
    }

    /**
     * What must hold: in {@code group}, {@code contender}'s median is at least {@code minRatio}
     * times faster than {@code baseline}'s; or, for {@link Kind#MAX_BYTES_PER_UNIT}, the
     * contender allocates at most {@code limit} bytes per unit.
     */
    record Target(Kind kind, String group, String contender, String baseline, double limit) {
        enum Kind { MIN_SPEEDUP, MAX_BYTES_PER_UNIT, MAX_MEDIAN_MS }

        static Target speedup(String group, String contender, String baseline, double minRatio) {
            return new Target(Kind.MIN_SPEEDUP, group, contender, baseline, minRatio);
        }

        static Target maxBytesPerUnit(String group, String contender, double bytes) {
            return new Target(Kind.MAX_BYTES_PER_UNIT, group, contender, "", bytes);
        }

        static Target maxMedianMs(String group, String contender, double ms) {
            return new Target(Kind.MAX_MEDIAN_MS, group, contender, "", ms);
        }
    }
}
