package dev.remotepath.bench;

import dev.remotepath.http.index.IndexPageParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH view of the {@code http} suite's parse cases: each 1000-entry page parsed in a JVM of
 * its own (the harness measures the three one after the other in one JVM, 41 single parses
 * each, which on this VM swings between runs). Run from the repository root with
 * {@code java -jar benchmarks/target/benchmarks.jar IndexPageParse -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class IndexPageParseBenchmark {

    @Param({"bench8_apache_pre_1000.html", "bench9_table_1000.html", "nginx_autoindex_pre_1000.html"})
    public String page;

    private byte[] body;

    @Setup
    public void load() throws IOException {
        body = Files.readAllBytes(Path.of("http", "src", "test", "resources", "http-bench", page));
    }

    @Benchmark
    public Object parse() throws IOException {
        return IndexPageParser.parse(body, body.length, "text/html", "/files/", "http", "127.0.0.1:8080", "jmh");
    }
}
