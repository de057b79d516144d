package dev.remotepath.webdav;

import dev.remotepath.wire.WireTimes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A PROPFIND answer ({@code 207 Multi-Status}, RFC 4918 §14.16) read into one {@link Response}
 * per {@code <D:response>}: its raw href, its status where the response has one, and the
 * properties of its {@code 200} propstats (a property the server does not have comes in a
 * {@code 404} propstat and is absent here). Elements are told by namespace and local name, never
 * by prefix: servers bind {@code DAV:} to {@code D}, {@code lp1}, a default namespace, or rebind
 * it inside an element. DTDs and external entities are refused ({@link XmlPull}), so a hostile
 * answer cannot make the parser read files or expand entities; unknown elements are skipped,
 * whatever their depth.
 */
final class Multistatus {

    static final String DAV = "DAV:";
    /** This library's namespace for the dead property that keeps a file's mtime. */
    static final String RP = "https://remotepath.dev/ns/";

    /** One {@code <D:response>}: a resource and what the server says of it. */
    record Response(String href, int status, boolean collection, OptionalLong contentLength,
            Optional<Instant> lastModified, Optional<String> etag, Optional<String> mtime, boolean anyPropertyRefused) {
    }

    private Multistatus() {
    }

    /**
     * The responses of a multistatus body.
     *
     * @throws MalformedException if the body is not a well-formed multistatus
     */
    static List<Response> parse(byte[] body, int length) throws MalformedException {
        List<Response> out = new ArrayList<>();
        try (Reader reader = new Reader(new ByteArrayInputStream(body, 0, length))) {
            for (Response r = reader.next(); r != null; r = reader.next()) {
                out.add(r);
            }
        } catch (IOException e) {
            throw new MalformedException("not well-formed XML: " + e.getMessage()); // a byte array does not fail
        }
        return out;
    }

    /**
     * A multistatus read one response at a time from a stream, so an answer of any length (a
     * {@code Depth: infinity} listing) is never held whole. What the stream itself throws (a
     * timeout, a bound on its bytes) comes out as that {@code IOException}, not as malformed XML.
     */
    static final class Reader implements AutoCloseable {
        private final XmlPull r;
        private boolean root;
        private boolean ended;

        Reader(InputStream in) throws MalformedException, IOException {
            this(XmlPull.open(in));
        }

        Reader(XmlPull events) {
            r = events;
        }

        /** The next response, or null once the multistatus has ended. */
        Response next() throws MalformedException, IOException {
            if (ended) {
                return null;
            }
            for (int ev = r.next(); ev != XmlPull.DOCUMENT_END; ev = r.next()) {
                if (ev != XmlPull.START) {
                    continue;
                }
                if (!root) {
                    if (!isDav(r, "multistatus")) {
                        throw new MalformedException("the answer is <" + r.localName() + ">, not a DAV: multistatus");
                    }
                    root = true;
                    continue;
                }
                if (isDav(r, "response")) {
                    return response(r);
                }
                skip(r);
            }
            ended = true;
            if (!root) {
                throw new MalformedException("an empty answer, not a multistatus");
            }
            return null;
        }

        @Override
        public void close() {
            r.close();
        }
    }

    /** The body could not be read as a multistatus; the message says why. */
    static final class MalformedException extends Exception {
        MalformedException(String message) {
            super(message);
        }
    }

    private static Response response(XmlPull r) throws MalformedException, IOException {
        String href = null;
        int status = -1;
        Props props = new Props();
        while (true) {
            if (r.next() == XmlPull.END) {
                break;
            }
            if (isDav(r, "href")) {
                if (href != null) {
                    throw new MalformedException("a response with two hrefs (" + href + ")");
                }
                href = r.elementText().strip();
            } else if (isDav(r, "status")) {
                status = statusCode(r.elementText());
            } else if (isDav(r, "propstat")) {
                propstat(r, props);
            } else {
                skip(r);
            }
        }
        if (href == null || href.isEmpty()) {
            throw new MalformedException("a response without an href");
        }
        return new Response(href, status, props.collection, props.contentLength, props.lastModified, props.etag,
                props.mtime, props.refused);
    }

    /** What the 200 propstats of one response say. */
    private static final class Props {
        boolean collection;
        OptionalLong contentLength = OptionalLong.empty();
        Optional<Instant> lastModified = Optional.empty();
        Optional<String> etag = Optional.empty();
        Optional<String> mtime = Optional.empty();
        /** A propstat whose status is not 2xx (for a PROPPATCH: a property not set or removed). */
        boolean refused;
    }

    private static void propstat(XmlPull r, Props into) throws MalformedException, IOException {
        Props seen = new Props();
        int status = -1;
        while (true) {
            if (r.next() == XmlPull.END) {
                break;
            }
            if (isDav(r, "status")) {
                status = statusCode(r.elementText());
            } else if (isDav(r, "prop")) {
                prop(r, seen);
            } else {
                skip(r);
            }
        }
        into.refused |= status / 100 != 2;
        if (status / 100 == 2) { // a 404 propstat names properties the resource lacks
            into.collection |= seen.collection;
            if (seen.contentLength.isPresent()) {
                into.contentLength = seen.contentLength;
            }
            if (seen.lastModified.isPresent()) {
                into.lastModified = seen.lastModified;
            }
            if (seen.etag.isPresent()) {
                into.etag = seen.etag;
            }
            if (seen.mtime.isPresent()) {
                into.mtime = seen.mtime;
            }
        }
    }

    private static void prop(XmlPull r, Props into) throws MalformedException, IOException {
        while (true) {
            if (r.next() == XmlPull.END) {
                return;
            }
            String ns = r.namespace();
            String name = r.localName();
            if (DAV.equals(ns) && name.equals("resourcetype")) {
                into.collection = resourceIsCollection(r);
            } else if (DAV.equals(ns) && name.equals("getcontentlength")) {
                String text = r.elementText().strip();
                if (!text.isEmpty()) {
                    try {
                        long n = Long.parseLong(text);
                        if (n < 0) {
                            throw new MalformedException("a negative getcontentlength " + text);
                        }
                        into.contentLength = OptionalLong.of(n);
                    } catch (NumberFormatException e) {
                        throw new MalformedException("a getcontentlength that is not a number: " + text);
                    }
                }
            } else if (DAV.equals(ns) && name.equals("getlastmodified")) {
                into.lastModified = httpDate(r.elementText());
            } else if (DAV.equals(ns) && name.equals("getetag")) {
                String text = r.elementText().strip();
                into.etag = text.isEmpty() ? Optional.empty() : Optional.of(text);
            } else if (RP.equals(ns) && name.equals("mtime")) {
                String text = r.elementText().strip();
                into.mtime = text.isEmpty() ? Optional.empty() : Optional.of(text);
            } else {
                skip(r);
            }
        }
    }

    /** Whether a resourcetype holds {@code <D:collection/>} (other types, e.g. calendars, may stand beside it). */
    private static boolean resourceIsCollection(XmlPull r) throws MalformedException, IOException {
        boolean collection = false;
        while (true) {
            if (r.next() == XmlPull.END) {
                return collection;
            }
            collection |= isDav(r, "collection");
            skip(r);
        }
    }

    /** RFC 1123 (what RFC 4918 requires); an answer in another form gives no time rather than a wrong one. */
    static Optional<Instant> httpDate(String text) {
        String t = text.strip();
        if (t.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(WireTimes.rfc1123(t));
        } catch (DateTimeParseException e) {
            try {
                return Optional.of(WireTimes.isoInstant(t)); // some servers answer ISO 8601
            } catch (DateTimeParseException e2) {
                return Optional.empty();
            }
        }
    }

    /**
     * {@code text.strip().split("\\s+")} without a regex (a status line per member of a listing,
     * and a property value in each): the fields between runs of ASCII whitespace.
     */
    static String[] fields(String text) {
        String t = text.strip();
        java.util.ArrayList<String> out = new java.util.ArrayList<>(3);
        int start = 0;
        for (int i = 0; i <= t.length(); i++) {
            if (i == t.length() || isAsciiSpace(t.charAt(i))) {
                if (i > start || out.isEmpty() && i == t.length()) {
                    out.add(t.substring(start, i));
                }
                start = i + 1;
            }
        }
        return out.toArray(String[]::new);
    }

    /** What the regex {@code \\s} matches. */
    private static boolean isAsciiSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /** The code of {@code HTTP/1.1 200 OK}. */
    private static int statusCode(String line) throws MalformedException {
        String[] parts = fields(line);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new MalformedException("a malformed status line: " + line.strip());
        }
        try {
            int code = Integer.parseInt(parts[1]);
            if (code < 100 || code > 599) {
                throw new NumberFormatException();
            }
            return code;
        } catch (NumberFormatException e) {
            throw new MalformedException("a malformed status line: " + line.strip());
        }
    }

    private static boolean isDav(XmlPull r, String local) {
        return DAV.equals(r.namespace()) && local.equals(r.localName());
    }

    /** Skips the element just started, with everything in it. */
    private static void skip(XmlPull r) throws MalformedException, IOException {
        int depth = 1;
        while (depth > 0) {
            depth += r.next() == XmlPull.START ? 1 : -1;
        }
    }
}
