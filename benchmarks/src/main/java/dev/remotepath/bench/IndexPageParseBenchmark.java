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
 * its own (the harness interleaves the three in one JVM). The heap is fixed and touched up
 * front, as in the harness: a parse allocates ~240 KB, and in a heap still growing every
 * fresh page of it costs a page fault, which is the kernel's time, not the parser's. Run from
 * the repository root with {@code java -jar benchmarks/target/benchmarks.jar IndexPageParse -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
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
