package dev.remotepath.webdav;

import dev.remotepath.RemotePath;
import dev.remotepath.spi.AbortableOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.OutputStreamRequestContent;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpFields;

/**
 * One PUT. A body of up to {@link #BUFFERED} bytes is sent whole on close, with its length (one
 * request a small file, which every server takes, and which can be replayed to an
 * authentication challenge); a larger one is streamed as it is written (chunked), so memory stays
 * bounded whatever the size. Nothing counts as written until the server answered 2xx to the
 * whole body; {@link #abort()} cuts the request off.
 */
final class WebDavUploadStream extends AbortableOutputStream {

    static final int BUFFERED = 1 << 20;

    /** What the file system does once the server took the body: the response's headers. */
    interface Done {
        void written(HttpFields headers) throws IOException;
    }

    private final WebDavFileSystem fs;
    private final WebDavWire wire;
    private final RemotePath file;
    private final URI uri;
    private final HttpFields extra;
    private final Done done;
    private ByteArrayOutputStream buffer = new ByteArrayOutputStream(8192);
    private Request request;
    private InputStreamResponseListener listener;
    private OutputStream streaming;
    private boolean closed;
    private boolean released;

    WebDavUploadStream(WebDavFileSystem fs, WebDavWire wire, RemotePath file, URI uri, HttpFields extra, Done done) {
        this.fs = fs;
        this.wire = wire;
        this.file = file;
        this.uri = uri;
        this.extra = extra;
        this.done = done;
        fs.streamOpened();
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException(file + ": the write stream is closed");
        }
        if (streaming == null && buffer.size() + len <= BUFFERED) {
            buffer.write(b, off, len);
            return;
        }
        try {
            if (streaming == null) {
                startStreaming();
            }
            streaming.write(b, off, len);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private void startStreaming() throws IOException {
        OutputStreamRequestContent content = new OutputStreamRequestContent("application/octet-stream");
        request = wire.request("PUT", uri).body(content);
        if (extra != null) {
            request.headers(h -> extra.forEach(h::put));
        }
        listener = new InputStreamResponseListener();
        request.send(listener);
        streaming = content.getOutputStream();
        byte[] head = buffer.toByteArray();
        buffer = null;
        streaming.write(head);
    }

    /** A write that broke: the server may have answered already (a refusal), which says why. */
    private IOException failed(IOException e) {
        closed = true;
        release();
        try {
            WebDavWire.Exchange ex = wire.await(request, listener);
            try (ex) {
                if (ex.status() / 100 != 2) {
                    IOException refused = fs.writeFailure(file, uri, ex.status());
                    refused.addSuppressed(e);
                    return refused;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // no answer: the transport's own failure says it
        }
        if (request != null) {
            request.abort(e);
        }
        return WebDavWire.transportFailure("PUT", uri, e);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            WebDavWire.Exchange ex;
            if (streaming == null) {
                byte[] body = buffer.toByteArray();
                buffer = null;
                ex = wire.send("PUT", uri, extra, body, "application/octet-stream");
            } else {
                try {
                    streaming.close();
                } catch (IOException e) {
                    throw failed(e);
                }
                ex = wire.await(request, listener);
            }
            try (ex) {
                if (ex.status() / 100 != 2) {
                    throw fs.writeFailure(file, uri, ex.status());
                }
                done.written(ex.headers());
            }
        } finally {
            release();
        }
    }

    /** The file system's count of open streams, down once whichever way the stream ends. */
    private void release() {
        if (!released) {
            released = true;
            fs.streamClosed();
        }
    }

    @Override
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        buffer = null;
        if (request != null) {
            request.abort(new IOException("the write of " + file + " was aborted"));
        }
        release();
    }

    @Override
    public String toString() {
        return "WebDavUploadStream[" + file + (streaming == null && buffer != null ? ", " + buffer.size() + " bytes held"
                : "") + "]";
    }
}
