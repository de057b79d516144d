package dev.remotepath.webdav;

import dev.remotepath.RemotePath;
import java.io.IOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * A WebDAV status as the {@code java.nio.file} exception it means, by code (RFC 4918 §11,
 * RFC 9110), never by the server's text. Codes that mean different things for different methods
 * (409: a missing parent for PUT, MKCOL, MOVE and COPY) are mapped by the caller first.
 */
final class WebDavErrors {

    private WebDavErrors() {
    }

    static IOException of(String method, URI uri, int status, RemotePath path) {
        String p = path.toString();
        return switch (status) {
            case 404, 410 -> new NoSuchFileException(p);
            case 401 -> new AccessDeniedException(p, null, "HTTP 401: authentication required or refused");
            case 403 -> new AccessDeniedException(p, null, "HTTP 403: forbidden (" + method + ")");
            case 412 -> new FileAlreadyExistsException(p);
            case 423 -> new FileSystemException(p, null, "HTTP 423: locked by another client (" + method + ")");
            case 507 -> new FileSystemException(p, null, "HTTP 507: the server has no room to store it (" + method + ")");
            case 413 -> new FileSystemException(p, null, "HTTP 413: the server refuses a body this large (" + method + ")");
            default -> new FileSystemException(p, null, method + " " + uri + " answered HTTP " + status);
        };
    }

    /**
     * A listing's member that the server names but cannot describe ({@code status} 3xx or more
     * in its response): the listing fails rather than leave it out, since a member missing from a
     * sync's source listing would be deleted from its target.
     */
    static FileSystemException undescribedMember(RemotePath directory, String href, int status) {
        return new FileSystemException(directory.toString(), null, "the server lists " + href
                + " but cannot describe it (HTTP " + status + "): refusing the listing");
    }
}
