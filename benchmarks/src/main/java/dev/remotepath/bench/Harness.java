package dev.remotepath.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs benchmark suites side by side, in the spirit of pathlib_next's {@code bench.py}: every
 * case of a group is sampled in turn within one process, so ratios between a baseline and a
 * contender are measured under the same machine noise. Reports min/median/max per case,
 * bytes allocated per unit, and whether each target ratio holds; {@code --save} writes JSON.
 *
 * <pre>
 * benchmarks/run --list
 * benchmarks/run --suite local [--samples 15] [--warmup 5] [--save results.json] [--fixtures DIR]
 * </pre>
 */
public final class Harness {

    private static final Map<String, Suite> SUITES = new LinkedHashMap<>();

    static {
        register(new LocalSuite());
        register(new SyncerSuite());
        register(new HttpSuite());
        register(new SftpSuite());
        register(new S3Suite());
    }

    private static void register(Suite s) {
        SUITES.put(s.name(), s);
    }

    record Result(Suite.Case c, long[] nanos, long[] allocated, long units) {
        double medianMs() {
            return median(nanos) / 1e6;
        }

        double bytesPerUnit() {
            return units == 0 ? 0 : median(allocated) / (double) units;
        }
    }

    public static void main(String[] args) throws Exception {
        List<String> suites = new ArrayList<>();
        int samples = 15;
        int warmup = 5;
        Path save = null;
        Path fixtures = Path.of(System.getProperty("java.io.tmpdir"), "remotepath-bench-fixtures");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--suite" -> suites.add(args[++i]);
                case "--samples" -> samples = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--save" -> save = Path.of(args[++i]);
                case "--fixtures" -> fixtures = Path.of(args[++i]);
                case "--list" -> {
                    SUITES.values().forEach(s -> System.out.printf("%-10s %s%n", s.name(), s.description()));
                    return;
                }
                default -> {
                    System.err.println("unknown argument " + args[i] + "; usage: --suite NAME [--samples N] "
                            + "[--warmup N] [--save FILE] [--fixtures DIR] | --list");
                    System.exit(2);
                }
            }
        }
        if (suites.isEmpty()) {
            suites.addAll(SUITES.keySet());
        }
        StringBuilder json = new StringBuilder();
        json.append("{\"environment\":").append(environment(samples, warmup)).append(",\"suites\":[");
        boolean allMet = true;
        for (int si = 0; si < suites.size(); si++) {
            Suite suite = SUITES.get(suites.get(si));
            if (suite == null) {
                System.err.println("no suite '" + suites.get(si) + "'; --list shows them");
                System.exit(2);
            }
            System.out.printf("== suite %s: %s%n", suite.name(), suite.description());
            suite.prepare(fixtures.resolve(suite.name()));
            suite.notes().forEach(n -> System.out.println("   " + n));
            List<Result> results = run(suite, samples, warmup);
            allMet &= report(suite, results);
            suite.cleanup();
            if (si > 0) {
                json.append(',');
            }
            json.append(toJson(suite, results));
        }
        json.append("]}\n");
        if (save != null) {
            if (save.getParent() != null) {
                Files.createDirectories(save.getParent());
            }
            Files.writeString(save, json);
            System.out.println("saved " + save);
        }
        System.out.println(allMet ? "all targets met" : "SOME TARGETS MISSED");
        // Exit rather than return: in-process servers (s3proxy's Jetty) keep non-daemon threads,
        // and the suites stop them in shutdown hooks, which a JVM waiting for those threads never
        // runs (the s3 suite used to sit there after its report until killed).
        System.exit(0);
    }

    private static List<Result> run(Suite suite, int samples, int warmup) throws Exception {
        Map<String, List<Suite.Case>> groups = new LinkedHashMap<>();
        for (Suite.Case c : suite.cases()) {
            groups.computeIfAbsent(c.group(), g -> new ArrayList<>()).add(c);
        }
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<Result> out = new ArrayList<>();
        for (var group : groups.entrySet()) {
            List<Suite.Case> cases = group.getValue();
            long[][] nanos = new long[cases.size()][samples];
            long[][] alloc = new long[cases.size()][samples];
            long[] units = new long[cases.size()];
            // Warm up until every case has run `warmup` times and for at least a second: the JIT
            // must have compiled the code under test before any sample counts.
            long warmStart = System.nanoTime();
            int warmRounds = 0;
            while (warmRounds < warmup || (warmup > 0 && System.nanoTime() - warmStart < 1_000_000_000L)) {
                runUntimed(cases);
                if (++warmRounds >= 100_000 || System.nanoTime() - warmStart > 10_000_000_000L) {
                    break;
                }
            }
            long spreadNanos = suite.sampleSpread().toNanos();
            long sampleStart = System.nanoTime();
            for (int round = 0; round < samples; round++) {
                // Untimed rounds until this round's share of the spread has passed (keeps the
                // code and the caches as warm as back-to-back samples would).
                long due = sampleStart + spreadNanos * round / Math.max(1, samples);
                while (System.nanoTime() < due) {
                    runUntimed(cases);
                }
                for (int ci = 0; ci < cases.size(); ci++) {
                    cases.get(ci).before().run();
                    long a0 = threads.getCurrentThreadAllocatedBytes();
                    long t0 = System.nanoTime();
                    long u = cases.get(ci).run().run();
                    long t1 = System.nanoTime();
                    long a1 = threads.getCurrentThreadAllocatedBytes();
                    nanos[ci][round] = t1 - t0;
                    alloc[ci][round] = a1 - a0;
                    units[ci] = u;
                }
            }
            for (int ci = 0; ci < cases.size(); ci++) {
                out.add(new Result(cases.get(ci), nanos[ci], alloc[ci], units[ci]));
            }
            System.out.printf("   %s%n", group.getKey());
            for (int ci = 0; ci < cases.size(); ci++) {
                Result r = out.get(out.size() - cases.size() + ci);
                System.out.printf(Locale.ROOT, "     %-26s median %9.3f ms  (min %9.3f, max %9.3f)  %8.1f B/unit  units=%d%s%n",
                        r.c.name(), r.medianMs(), min(r.nanos) / 1e6, max(r.nanos) / 1e6, r.bytesPerUnit(), r.units,
                        r.c.baseline() ? "  [baseline]" : "");
            }
        }
        return out;
    }

    /** One round of every case of a group, untimed (warm-up, and the gaps of a spread). */
    private static void runUntimed(List<Suite.Case> cases) throws Exception {
        for (Suite.Case c : cases) {
            c.before().run();
            c.run().run();
        }
    }

    private static Result find(List<Result> results, String group, String name) {
        return results.stream().filter(r -> r.c.group().equals(group) && r.c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no case " + group + "/" + name));
    }

    private static boolean report(Suite suite, List<Result> results) {
        boolean ok = true;
        System.out.println("   targets:");
        for (Suite.Target t : suite.targets()) {
            Result c = find(results, t.group(), t.contender());
            boolean met;
            String text;
            if (t.kind() == Suite.Target.Kind.MIN_SPEEDUP) {
                Result b = find(results, t.group(), t.baseline());
                double ratio = b.medianMs() / c.medianMs();
                met = ratio >= t.limit();
                text = String.format(Locale.ROOT, "%s: %s is %.2fx %s (target >= %.2fx; round by round: median %.2fx)",
                        t.group(), t.contender(), ratio, t.baseline(), t.limit(), pairedRatio(b, c));
            } else if (t.kind() == Suite.Target.Kind.MAX_MEDIAN_MS) {
                met = c.medianMs() <= t.limit();
                text = String.format(Locale.ROOT, "%s: %s median %.4f ms (target <= %.3f ms)", t.group(), t.contender(),
                        c.medianMs(), t.limit());
            } else {
                met = c.bytesPerUnit() <= t.limit();
                text = String.format(Locale.ROOT, "%s: %s allocates %.1f B/unit (target <= %.0f)", t.group(), t.contender(),
                        c.bytesPerUnit(), t.limit());
            }
            System.out.println("     [" + (met ? "met" : "MISSED") + "] " + text);
            ok &= met;
        }
        return ok;
    }

    private static String toJson(Suite suite, List<Result> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"suite\":").append(q(suite.name())).append(",\"notes\":[");
        List<String> notes = suite.notes();
        for (int i = 0; i < notes.size(); i++) {
            sb.append(i > 0 ? "," : "").append(q(notes.get(i)));
        }
        sb.append("],\"cases\":[");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            sb.append(i > 0 ? "," : "").append(String.format(Locale.ROOT,
                    "{\"group\":%s,\"name\":%s,\"baseline\":%s,\"units\":%d,\"ms\":{\"min\":%.4f,\"median\":%.4f,\"max\":%.4f},"
                            + "\"bytesPerUnit\":%.1f,\"samplesMs\":%s}",
                    q(r.c.group()), q(r.c.name()), r.c.baseline(), r.units, min(r.nanos) / 1e6, r.medianMs(),
                    max(r.nanos) / 1e6, r.bytesPerUnit(), Arrays.toString(Arrays.stream(r.nanos)
                            .mapToObj(n -> String.format(Locale.ROOT, "%.4f", n / 1e6)).toArray())));
        }
        sb.append("],\"targets\":[");
        List<Suite.Target> targets = suite.targets();
        for (int i = 0; i < targets.size(); i++) {
            Suite.Target t = targets.get(i);
            Result c = find(results, t.group(), t.contender());
            double value = switch (t.kind()) {
                case MIN_SPEEDUP -> find(results, t.group(), t.baseline()).medianMs() / c.medianMs();
                case MAX_MEDIAN_MS -> c.medianMs();
                case MAX_BYTES_PER_UNIT -> c.bytesPerUnit();
            };
            boolean met = t.kind() == Suite.Target.Kind.MIN_SPEEDUP ? value >= t.limit() : value <= t.limit();
            String paired = t.kind() == Suite.Target.Kind.MIN_SPEEDUP ? String.format(Locale.ROOT,
                    ",\"roundByRoundMedian\":%.3f", pairedRatio(find(results, t.group(), t.baseline()), c)) : "";
            sb.append(i > 0 ? "," : "").append(String.format(Locale.ROOT,
                    "{\"kind\":%s,\"group\":%s,\"contender\":%s,\"baseline\":%s,\"limit\":%.2f,\"value\":%.3f%s,\"met\":%s}",
                    q(t.kind().name()), q(t.group()), q(t.contender()), q(t.baseline()), t.limit(), value, paired, met));
        }
        return sb.append("]}").toString();
    }

    private static String environment(int samples, int warmup) {
        return String.format(Locale.ROOT,
                "{\"time\":%s,\"jvm\":%s,\"os\":%s,\"cpus\":%d,\"maxHeapMiB\":%d,\"gitCommit\":%s,\"samples\":%d,\"warmup\":%d}",
                q(Instant.now().toString()),
                q(System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version")),
                q(System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch")),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20, q(gitCommit()),
                samples, warmup);
    }

    static String gitCommit() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? out : "unknown";
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    static String q(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /**
     * The median over rounds of baseline / contender, each round's two samples taken back to
     * back: less moved than the ratio of medians by a slow phase of the machine that spans a
     * few rounds (shown beside the verdict, which stays the ratio of medians).
     */
    static double pairedRatio(Result baseline, Result contender) {
        int n = Math.min(baseline.nanos.length, contender.nanos.length);
        double[] ratios = new double[n];
        for (int i = 0; i < n; i++) {
            ratios[i] = baseline.nanos[i] / (double) Math.max(1, contender.nanos[i]);
        }
        Arrays.sort(ratios);
        return n == 0 ? 0 : n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
    }

    static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    private static long min(long[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    private static long max(long[] v) {
        return Arrays.stream(v).max().orElse(0);
    }
}
