package dev.remotepath.s3;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Translates the SDK's exceptions into the {@code java.nio.file} ones RemotePath promises,
 * each naming the object's URI (so bucket and key) and what the store said.
 */
final class S3Errors {

    private S3Errors() {
    }

    static IOException translate(SdkException e, String uri) {
        if (e instanceof S3Exception s3) {
            return fromResponse(s3, uri);
        }
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException || timedOut(e)) {
            // A timeout is a SocketTimeoutException, as on every backend: callers (the syncer's
            // give-up rule) recognise it by type, never by message.
            java.net.SocketTimeoutException t = new java.net.SocketTimeoutException(uri
                    + ": the store did not answer in time (" + firstLine(e) + "; S3Options.requestTimeout)");
            t.initCause(e);
            return t;
        }
        if (e instanceof AbortedException) {
            return new java.io.InterruptedIOException(uri + ": interrupted");
        }
        if (e instanceof SdkClientException) {
            return new IOException(uri + ": cannot reach the S3 endpoint (" + firstLine(e) + ")", e);
        }
        return new IOException(uri + ": " + firstLine(e), e);
    }

    private static IOException fromResponse(S3Exception e, String uri) {
        String code = e.awsErrorDetails() != null && e.awsErrorDetails().errorCode() != null
                ? e.awsErrorDetails().errorCode() : "";
        String said = code.isEmpty() ? "HTTP " + e.statusCode() : "HTTP " + e.statusCode() + " " + code;
        String message = e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null
                ? e.awsErrorDetails().errorMessage() : "";
        if (message.isEmpty()) {
            // Not an S3 error document (a proxy's or load balancer's page, say): what it said.
            message = snippet(e);
        }
        String detail = message.isEmpty() ? said : said + ": " + message;
        if (e.statusCode() >= 500 && e.requestId() != null && !e.requestId().isBlank()) {
            detail += "; request id " + e.requestId(); // what the store's operators ask for
        }
        IOException out = switch (e.statusCode()) {
            case 404 -> code.equals("NoSuchBucket")
                    ? new NoSuchFileException(uri, null, "no such bucket (" + detail + ")")
                    : new NoSuchFileException(uri);
            case 403 -> new AccessDeniedException(uri, null, switch (code) {
                case "InvalidAccessKeyId", "SignatureDoesNotMatch" -> "credentials refused (" + detail + ")";
                default -> "access denied (" + detail + ")";
            });
            case 412 -> new FileSystemException(uri, null,
                    "changed on the server while being read: its ETag no longer matches (" + said + ")");
            case 429, 503 -> new FileSystemException(uri, null, "throttled by the store after retries (" + detail + ")");
            case 500, 501, 502, 504 -> new FileSystemException(uri, null, "the store failed the request (" + detail + ")");
            default -> new FileSystemException(uri, null, detail);
        };
        out.initCause(e);
        return out;
    }

    /**
     * What an answer that is no S3 error document said: its status text and its kind, which
     * points at a proxy or load balancer in between. The SDK keeps no such body to quote.
     */
    private static String snippet(S3Exception e) {
        if (e.awsErrorDetails() == null || e.awsErrorDetails().sdkHttpResponse() == null) {
            return "";
        }
        var response = e.awsErrorDetails().sdkHttpResponse();
        String status = response.statusText().map(t -> t.replaceAll("\\p{Cntrl}", "?").strip()).orElse("");
        String type = response.firstMatchingHeader("Content-Type").map(t -> t.replaceAll("\\p{Cntrl}", "?").strip())
                .orElse("");
        if (type.isEmpty() || type.contains("xml")) {
            return status;
        }
        String kind = "a " + (type.length() > 60 ? type.substring(0, 60) : type) + " answer, not an S3 error: "
                + "a proxy in between?";
        return status.isEmpty() ? kind : status + " (" + kind + ")";
    }

    /**
     * Whether a create-only request (If-None-Match: *) was refused because the key exists: 412,
     * or AWS's 409 ConditionalRequestConflict when another conditional write of the key won.
     */
    static boolean isCreateOnlyRefusal(S3Exception e) {
        return e.statusCode() == 412 || (e.statusCode() == 409 && e.awsErrorDetails() != null
                && "ConditionalRequestConflict".equals(e.awsErrorDetails().errorCode()));
    }

    /** The error for a create-only request: FileAlreadyExists when refused for that, else as usual. */
    static IOException createOnlyRefused(S3Exception e, String uri) {
        if (!isCreateOnlyRefusal(e)) {
            return translate(e, uri);
        }
        java.nio.file.FileAlreadyExistsException x = new java.nio.file.FileAlreadyExistsException(uri, null,
                e.statusCode() == 409 ? "another writer created it at the same time" : null);
        x.initCause(e);
        return x;
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    static boolean isNotFound(S3Exception e) {
        return e.statusCode() == 404;
    }

    private static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
