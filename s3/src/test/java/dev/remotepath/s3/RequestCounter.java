package dev.remotepath.s3;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Counts the S3 API calls a client makes, by operation name ({@code HeadObject}, {@code ListObjectsV2}, ...). */
public final class RequestCounter implements ExecutionInterceptor {

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        String op = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        calls.computeIfAbsent(op, k -> new AtomicInteger()).incrementAndGet();
    }

    public int count(String operation) {
        AtomicInteger n = calls.get(operation);
        return n == null ? 0 : n.get();
    }

    public int total() {
        return calls.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    public void reset() {
        calls.clear();
    }

    /** All counts, sorted by operation: for assertion messages. */
    public Map<String, Integer> snapshot() {
        Map<String, Integer> m = new TreeMap<>();
        calls.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }

    @Override
    public String toString() {
        return snapshot().toString();
    }
}
