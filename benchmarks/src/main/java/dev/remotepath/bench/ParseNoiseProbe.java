package dev.remotepath.bench;

import dev.remotepath.http.index.IndexPageParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Tells the parser's speed apart from the machine's: alternates 50 ms windows of parsing the
 * three 1000-entry pages with 50 ms windows of a fixed integer kernel that allocates nothing
 * (independent SWAR-like operations, as the parser's scans are), and prints both per window
 * and how often they were slow together. On a shared host both slow down by up to ~2x in the
 * same windows: the swings are the core's, not a compiled state of the parser.
 * <p>
 * {@code java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp benchmarks/target/benchmarks.jar
 * dev.remotepath.bench.ParseNoiseProbe [windows]} from the repository root.
 */
public final class ParseNoiseProbe {

    private static final long WINDOW_NANOS = 50_000_000L;

    private ParseNoiseProbe() {
    }

    public static void main(String[] args) throws IOException {
        int windows = args.length > 0 ? Integer.parseInt(args[0]) : 120;
        Path dir = Path.of("http", "src", "test", "resources", "http-bench");
        List<byte[]> pages = new ArrayList<>();
        for (String name : List.of("bench8_apache_pre_1000.html", "bench9_table_1000.html", "nginx_autoindex_pre_1000.html")) {
            pages.add(Files.readAllBytes(dir.resolve(name)));
        }
        long[] words = new SplittableRandom(1).longs(4096).toArray();
        double[] parseMs = new double[windows];
        double[] kernelUs = new double[windows];
        long sink = 0;
        int warm = 20;
        for (int w = -warm; w < windows; w++) {
            long s = System.nanoTime();
            int n = 0;
            while (System.nanoTime() - s < WINDOW_NANOS) {
                for (byte[] p : pages) {
                    sink += IndexPageParser.parse(p, p.length, "text/html", "/files/", "http", "127.0.0.1:8080", "probe")
                            .entries().size();
                    n++;
                }
            }
            long m = System.nanoTime();
            int k = 0;
            while (System.nanoTime() - m < WINDOW_NANOS) {
                sink += kernel(words);
                k++;
            }
            long e = System.nanoTime();
            if (w >= 0) {
                parseMs[w] = (m - s) / 1e6 / n;
                kernelUs[w] = (e - m) / 1e3 / k;
                System.out.printf(Locale.ROOT, "window %3d  parse %.3f ms/page  kernel %.2f us%n", w, parseMs[w], kernelUs[w]);
            }
        }
        double parseMin = min(parseMs);
        double kernelMin = min(kernelUs);
        int slowParse = 0;
        int slowKernel = 0;
        int slowBoth = 0;
        for (int w = 0; w < windows; w++) {
            boolean p = parseMs[w] > 1.4 * parseMin;
            boolean q = kernelUs[w] > 1.4 * kernelMin;
            slowParse += p ? 1 : 0;
            slowKernel += q ? 1 : 0;
            slowBoth += p && q ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "windows slower than 1.4x their fastest: parse %d, kernel %d, both %d of %d; "
                + "correlation %.2f (checksum %d)%n", slowParse, slowKernel, slowBoth, windows,
                correlation(parseMs, kernelUs), sink & 0xff);
    }

    /** Four independent chains of zero-byte tests, shifts and multiplies over an L1-resident array. */
    private static long kernel(long[] words) {
        long h0 = 0;
        long h1 = 0;
        long h2 = 0;
        long h3 = 0;
        for (int i = 0; i + 3 < words.length; i += 4) {
            long x0 = words[i];
            long x1 = words[i + 1];
            h0 += ((x0 - 0x0101010101010101L) & ~x0 & 0x8080808080808080L) == 0 ? x0 >>> 3 : Long.numberOfTrailingZeros(x0);
            h1 += ((x1 - 0x0101010101010101L) & ~x1 & 0x8080808080808080L) == 0 ? x1 >>> 5 : Long.numberOfTrailingZeros(x1);
            h2 ^= words[i + 2] * 0x9E3779B97F4A7C15L;
            h3 += (words[i + 3] ^ (words[i + 3] >>> 7)) & 0xff;
        }
        return h0 + h1 + h2 + h3;
    }

    private static double min(double[] xs) {
        double m = Double.MAX_VALUE;
        for (double x : xs) {
            m = Math.min(m, x);
        }
        return m;
    }

    private static double correlation(double[] xs, double[] ys) {
        double mx = 0;
        double my = 0;
        for (int i = 0; i < xs.length; i++) {
            mx += xs[i] / xs.length;
            my += ys[i] / ys.length;
        }
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < xs.length; i++) {
            sxy += (xs[i] - mx) * (ys[i] - my);
            sxx += (xs[i] - mx) * (xs[i] - mx);
            syy += (ys[i] - my) * (ys[i] - my);
        }
        return sxx == 0 || syy == 0 ? 0 : sxy / Math.sqrt(sxx * syy);
    }
}
