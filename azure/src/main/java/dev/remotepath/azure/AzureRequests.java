package dev.remotepath.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Mono;

/**
 * Counts the requests one file system sends, by kind ({@code GET list}, {@code PUT block},
 * {@code GET container}, {@code HEAD}; a plain {@code GET} is a blob's content), each retry included: what the request-count tests assert on, so that "a
 * no-op resync lists only" is checked at the wire.
 */
final class AzureRequests implements HttpPipelinePolicy {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        count(context);
        return next.process();
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
        count(context);
        return next.processSync();
    }

    private void count(HttpPipelineCallContext context) {
        var request = context.getHttpRequest();
        String query = request.getUrl().getQuery();
        String kind = request.getHttpMethod().name();
        if (query != null) {
            String comp = null;
            String restype = null;
            for (String part : query.split("&")) {
                if (part.startsWith("comp=")) {
                    comp = part.substring(5);
                } else if (part.startsWith("restype=")) {
                    restype = part.substring(8);
                }
            }
            // "GET list", "PUT block"; else "GET container" (container properties), never to be
            // taken for a "GET" of a blob's content
            kind += comp != null ? " " + comp : restype != null ? " " + restype : "";
        }
        counts.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** Requests of one kind so far ({@code "GET list"}, {@code "HEAD"}, {@code "PUT blocklist"}...). */
    long count(String kind) {
        LongAdder a = counts.get(kind);
        return a == null ? 0 : a.sum();
    }

    /** Every kind's count so far. */
    Map<String, Long> snapshot() {
        Map<String, Long> out = new java.util.TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    void reset() {
        counts.clear();
    }
}
