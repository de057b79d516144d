package dev.remotepath.http;

import java.nio.file.Path;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ResourceHandler;
import org.eclipse.jetty.util.resource.ResourceFactory;

/** An in-process Jetty serving a directory with listings, ranges and ETags, on 127.0.0.1. */
final class TestWebServer implements AutoCloseable {

    private final Server server;
    private final int port;

    TestWebServer(Path root) throws Exception {
        server = new Server();
        // Real servers (nginx, Apache) accept %25 and %2F-free encodings that Jetty 12 calls
        // ambiguous by default; the test server should be no stricter than they are.
        HttpConfiguration config = new HttpConfiguration();
        config.setUriCompliance(UriCompliance.LEGACY);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(config));
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ResourceHandler files = new ResourceHandler();
        files.setBaseResource(ResourceFactory.of(files).newResource(root));
        files.setDirAllowed(true);
        files.setAcceptRanges(true);
        files.setEtags(true);
        files.setUseFileMapping(false);
        server.setHandler(new Handler.Wrapper(files) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                requests.merge(request.getMethod(), 1L, Long::sum);
                return super.handle(request, response, callback);
            }
        });
        server.start();
        port = connector.getLocalPort();
    }

    /** Requests received, by method, since the last {@link #resetRequests}: the wire's own count. */
    final java.util.concurrent.ConcurrentHashMap<String, Long> requests = new java.util.concurrent.ConcurrentHashMap<>();

    long requests(String method) {
        return requests.getOrDefault(method, 0L);
    }

    void resetRequests() {
        requests.clear();
    }

    int port() {
        return port;
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
