package dev.remotepath.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A real HTTP server on 127.0.0.1 whose answers a test scripts per path: for the behaviour
 * no file server shows on demand (dropped connections, refused HEAD, ignored ranges,
 * redirects, hostile pages). It records every request's method, path and headers.
 */
final class ScriptedServer implements AutoCloseable {

    /** One scripted answer. */
    interface Answer {
        /** Writes the response; return normally when done, throw to drop the connection. */
        void answer(Request request, Response response, Callback callback) throws Exception;
    }

    record Seen(String method, String path, HttpFields headers) {
    }

    private final Server server = new Server();
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    final List<Seen> requests = new CopyOnWriteArrayList<>();
    private final int port;
    private volatile Answer fallback;

    ScriptedServer() throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = request.getHttpURI().getPath();
                requests.add(new Seen(request.getMethod(), path, request.getHeaders().asImmutable()));
                Answer a = answers.get(request.getMethod() + " " + path);
                if (a == null) {
                    a = answers.get("* " + path);
                }
                if (a == null) {
                    a = fallback;
                }
                if (a == null) {
                    Response.writeError(request, response, callback, 404);
                    return true;
                }
                a.answer(request, response, callback);
                return true;
            }
        });
        server.start();
        port = connector.getLocalPort();
    }

    /** Answers every request no scripted path matches (else 404). */
    ScriptedServer fallback(Answer a) {
        fallback = a;
        return this;
    }

    ScriptedServer on(String methodAndPath, Answer a) {
        answers.put(methodAndPath, a);
        return this;
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    List<Seen> seen(String method, String path) {
        return requests.stream().filter(r -> r.method().equals(method) && r.path().equals(path)).toList();
    }

    static void send(Response response, Callback callback, int status, String contentType, byte[] body,
            Map<String, String> headers) {
        response.setStatus(status);
        if (contentType != null) {
            response.getHeaders().put("Content-Type", contentType);
        }
        headers.forEach((k, v) -> response.getHeaders().put(k, v));
        response.getHeaders().put("Content-Length", String.valueOf(body.length));
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** An index page of the request's directory: titled as servers title them, then {@code body}. */
    static void index(org.eclipse.jetty.server.Request request, Response response, Callback callback, String body) {
        html(response, callback, "<html><head><title>Index of " + request.getHttpURI().getDecodedPath()
                + "</title></head><body>\n" + body + "\n</body></html>");
    }

    /** A plain-text file body. */
    static void text(Response response, Callback callback, String body) {
        send(response, callback, 200, "text/plain", body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    static void html(Response response, Callback callback, String page) {
        send(response, callback, 200, "text/html", page.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
