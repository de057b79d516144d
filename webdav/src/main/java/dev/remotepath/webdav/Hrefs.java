package dev.remotepath.webdav;

import dev.remotepath.RemotePath;
import dev.remotepath.UriPaths;
import java.net.URI;
import java.nio.file.FileSystemException;

/**
 * The {@code href}s of a PROPFIND answer as paths. Servers send absolute paths, relative
 * references or whole URLs (of another host behind a proxy), percent-encoded in either case or
 * not at all: only the path counts, decoded as UTF-8. What cannot be read is an error naming the
 * href, never a guess.
 */
final class Hrefs {

    private Hrefs() {
    }

    /** The decoded path an href names, without a final '/' (except the root). */
    static String path(String href, URI requested, RemotePath context) throws FileSystemException {
        String raw;
        try {
            URI u = href.contains("://") ? new URI(lenient(href)) : requested.resolve(new URI(lenient(href)));
            raw = u.getRawPath();
        } catch (IllegalArgumentException | java.net.URISyntaxException e) {
            throw new FileSystemException(context.toString(), null, "the server listed a malformed href: " + href);
        }
        if (raw == null || raw.isEmpty()) {
            throw new FileSystemException(context.toString(), null, "the server listed an href without a path: " + href);
        }
        String path;
        try {
            path = UriPaths.decode(raw);
        } catch (IllegalArgumentException e) {
            throw new FileSystemException(context.toString(), null, "the server listed an undecodable href: " + href);
        }
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** An href with what servers leave unescaped (spaces, non-ASCII) escaped as UTF-8. */
    private static String lenient(String href) {
        StringBuilder b = new StringBuilder(href.length() + 8);
        for (byte x : href.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if (c <= ' ' || c >= 0x7f || "\"<>\\^`{|}".indexOf(c) >= 0) {
                b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            } else {
                b.append((char) c);
            }
        }
        return b.toString();
    }
}
