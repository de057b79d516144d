package dev.remotepath.azure;

import com.azure.core.exception.HttpResponseException;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * Translates the Azure SDK's exceptions into the {@code java.nio.file} ones RemotePath
 * promises, by status and error code (never by message text), each naming the blob's URI and
 * what the service said.
 */
final class AzureErrors {

    private AzureErrors() {
    }

    static boolean isNotFound(RuntimeException e) {
        return e instanceof HttpResponseException h && h.getResponse() != null && h.getResponse().getStatusCode() == 404;
    }

    static BlobErrorCode code(RuntimeException e) {
        return e instanceof BlobStorageException b && b.getErrorCode() != null ? b.getErrorCode() : null;
    }

    /** Whether a create-only request (If-None-Match: *) was refused because the blob exists. */
    static boolean isCreateOnlyRefusal(RuntimeException e) {
        if (!(e instanceof HttpResponseException h) || h.getResponse() == null) {
            return false;
        }
        int status = h.getResponse().getStatusCode();
        return status == 412 || (status == 409 && BlobErrorCode.BLOB_ALREADY_EXISTS.equals(code(e)));
    }

    /** The error for a create-only request: FileAlreadyExists when refused for that, else as usual. */
    static IOException createOnly(RuntimeException e, String uri) {
        if (!isCreateOnlyRefusal(e)) {
            return translate(e, uri);
        }
        FileAlreadyExistsException x = new FileAlreadyExistsException(uri);
        x.initCause(e);
        return x;
    }

    static IOException translate(RuntimeException e, String uri) {
        if (e instanceof com.azure.core.exception.ClientAuthenticationException) {
            // the credential chain found no identity, or its token was refused
            AccessDeniedException out = new AccessDeniedException(uri, null, "no credentials accepted (" + firstLine(e)
                    + "; AzureOptions.credentials)");
            out.initCause(e);
            return out;
        }
        if (e instanceof HttpResponseException h && h.getResponse() != null) {
            return fromResponse(h, uri);
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException
                    || t.getClass().getName().endsWith("ReadTimeoutException")
                    || t.getClass().getName().endsWith("WriteTimeoutException")) {
                SocketTimeoutException out = new SocketTimeoutException(uri
                        + ": the service did not answer in time (AzureOptions.requestTimeout)");
                out.initCause(e);
                return out;
            }
            if (t instanceof InterruptedException || t instanceof InterruptedIOException) {
                InterruptedIOException out = new InterruptedIOException(uri + ": interrupted");
                out.initCause(e);
                return out;
            }
            if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException) {
                return new IOException(uri + ": cannot reach the blob endpoint (" + firstLine(t) + ")", e);
            }
        }
        if (e instanceof UncheckedIOException u) {
            return new IOException(uri + ": " + firstLine(u.getCause()), e);
        }
        return new IOException(uri + ": " + firstLine(e), e);
    }

    private static IOException fromResponse(HttpResponseException e, String uri) {
        int status = e.getResponse().getStatusCode();
        BlobErrorCode code = code(e);
        String said = code == null ? "HTTP " + status : "HTTP " + status + " " + code;
        IOException out = switch (status) {
            case 404 -> BlobErrorCode.CONTAINER_NOT_FOUND.equals(code)
                    ? new NoSuchFileException(uri, null, "no such container (" + said + ")")
                    : new NoSuchFileException(uri);
            case 401, 403 -> new AccessDeniedException(uri, null,
                    BlobErrorCode.AUTHENTICATION_FAILED.equals(code) || status == 401
                            ? "credentials refused (" + said + ")" : "access denied (" + said + ")");
            case 409 -> BlobErrorCode.BLOB_ALREADY_EXISTS.equals(code) || BlobErrorCode.CONTAINER_ALREADY_EXISTS.equals(code)
                    ? new FileAlreadyExistsException(uri, null, said)
                    : new FileSystemException(uri, null, "conflict (" + said + ")");
            case 412 -> new FileSystemException(uri, null,
                    "changed on the server while being read or written: its ETag no longer matches (" + said + ")");
            case 429, 503 -> new FileSystemException(uri, null, "throttled by the service after retries (" + said + ")");
            case 500, 501, 502, 504 -> new FileSystemException(uri, null, "the service failed the request (" + said + ")");
            default -> new FileSystemException(uri, null, said);
        };
        out.initCause(e);
        return out;
    }

    private static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
