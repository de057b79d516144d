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
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A PROPFIND answer ({@code 207 Multi-Status}, RFC 4918 §14.16) read into one {@link Response}
 * per {@code <D:response>}: its raw href, its status where the response has one, and the
 * properties of its {@code 200} propstats (a property the server does not have comes in a
 * {@code 404} propstat and is absent here). Elements are told by namespace and local name, never
 * by prefix: servers bind {@code DAV:} to {@code D}, {@code lp1}, a default namespace, or rebind
 * it inside an element. DTDs and external entities are refused, so a hostile answer cannot make
 * the parser read files or expand entities; unknown elements are skipped, whatever their depth.
 */
final class Multistatus {

    static final String DAV = "DAV:";
    /** This library's namespace for the dead property that keeps a file's mtime. */
    static final String RP = "https://remotepath.dev/ns/";

    private static final XMLInputFactory FACTORY = factory();

    /** One {@code <D:response>}: a resource and what the server says of it. */
    record Response(String href, int status, boolean collection, OptionalLong contentLength,
            Optional<Instant> lastModified, Optional<String> etag, Optional<String> mtime, boolean anyPropertyRefused) {
    }

    private Multistatus() {
    }

    private static XMLInputFactory factory() {
        XMLInputFactory f = XMLInputFactory.newDefaultFactory(); // the JDK's own: no service lookup, known settings
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        try {
            f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        } catch (IllegalArgumentException notSupported) {
            // SUPPORT_DTD=false already keeps the parser from reading one
        }
        return f;
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
        private final XMLStreamReader r;
        private boolean root;
        private boolean ended;

        Reader(InputStream in) throws MalformedException, IOException {
            try {
                r = FACTORY.createXMLStreamReader(in);
            } catch (XMLStreamException | RuntimeException e) {
                throw failure(e);
            }
        }

        /** The next response, or null once the multistatus has ended. */
        Response next() throws MalformedException, IOException {
            if (ended) {
                return null;
            }
            try {
                while (r.hasNext()) {
                    int ev = r.next();
                    if (ev == XMLStreamConstants.DTD) {
                        throw new MalformedException("a DOCTYPE in a PROPFIND answer");
                    }
                    if (ev == XMLStreamConstants.ENTITY_REFERENCE) {
                        throw new MalformedException("an entity reference in a PROPFIND answer");
                    }
                    if (ev != XMLStreamConstants.START_ELEMENT) {
                        continue;
                    }
                    if (!root) {
                        if (!isDav(r, "multistatus")) {
                            throw new MalformedException("the answer is <" + r.getLocalName() + ">, not a DAV: multistatus");
                        }
                        root = true;
                        continue;
                    }
                    if (isDav(r, "response")) {
                        return response(r);
                    }
                    skip(r);
                }
            } catch (XMLStreamException | RuntimeException e) {
                throw failure(e);
            }
            ended = true;
            if (!root) {
                throw new MalformedException("an empty answer, not a multistatus");
            }
            return null;
        }

        /** The stream's own failure where there is one in the chain (thrown), else malformed XML. */
        private static MalformedException failure(Exception e) throws IOException {
            Throwable c = e;
            for (int i = 0; c != null && i < 16; i++) {
                if (c instanceof IOException io) {
                    throw io;
                }
                c = c.getCause() != null ? c.getCause() : c instanceof XMLStreamException x ? x.getNestedException() : null;
            }
            return new MalformedException("not well-formed XML: " + e.getMessage());
        }

        @Override
        public void close() {
            try {
                r.close();
            } catch (XMLStreamException ignored) {
                // the parser holds nothing of its own; the caller closes the stream
            }
        }
    }

    /** The body could not be read as a multistatus; the message says why. */
    static final class MalformedException extends Exception {
        MalformedException(String message) {
            super(message);
        }
    }

    private static Response response(XMLStreamReader r) throws XMLStreamException, MalformedException {
        String href = null;
        int status = -1;
        Props props = new Props();
        while (true) {
            int ev = r.next();
            if (ev == XMLStreamConstants.END_ELEMENT) {
                break;
            }
            if (ev != XMLStreamConstants.START_ELEMENT) {
                rejectEntities(ev);
                continue;
            }
            if (isDav(r, "href")) {
                if (href != null) {
                    throw new MalformedException("a response with two hrefs (" + href + ")");
                }
                href = r.getElementText().strip();
            } else if (isDav(r, "status")) {
                status = statusCode(r.getElementText());
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

    private static void propstat(XMLStreamReader r, Props into) throws XMLStreamException, MalformedException {
        Props seen = new Props();
        int status = -1;
        while (true) {
            int ev = r.next();
            if (ev == XMLStreamConstants.END_ELEMENT) {
                break;
            }
            if (ev != XMLStreamConstants.START_ELEMENT) {
                rejectEntities(ev);
                continue;
            }
            if (isDav(r, "status")) {
                status = statusCode(r.getElementText());
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

    private static void prop(XMLStreamReader r, Props into) throws XMLStreamException, MalformedException {
        while (true) {
            int ev = r.next();
            if (ev == XMLStreamConstants.END_ELEMENT) {
                return;
            }
            if (ev != XMLStreamConstants.START_ELEMENT) {
                rejectEntities(ev);
                continue;
            }
            String ns = r.getNamespaceURI();
            String name = r.getLocalName();
            if (DAV.equals(ns) && name.equals("resourcetype")) {
                into.collection = resourceIsCollection(r);
            } else if (DAV.equals(ns) && name.equals("getcontentlength")) {
                String text = r.getElementText().strip();
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
                into.lastModified = httpDate(r.getElementText());
            } else if (DAV.equals(ns) && name.equals("getetag")) {
                String text = r.getElementText().strip();
                into.etag = text.isEmpty() ? Optional.empty() : Optional.of(text);
            } else if (RP.equals(ns) && name.equals("mtime")) {
                String text = r.getElementText().strip();
                into.mtime = text.isEmpty() ? Optional.empty() : Optional.of(text);
            } else {
                skip(r);
            }
        }
    }

    /** Whether a resourcetype holds {@code <D:collection/>} (other types, e.g. calendars, may stand beside it). */
    private static boolean resourceIsCollection(XMLStreamReader r) throws XMLStreamException, MalformedException {
        boolean collection = false;
        while (true) {
            int ev = r.next();
            if (ev == XMLStreamConstants.END_ELEMENT) {
                return collection;
            }
            if (ev == XMLStreamConstants.START_ELEMENT) {
                collection |= isDav(r, "collection");
                skip(r);
            } else {
                rejectEntities(ev);
            }
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

    private static boolean isDav(XMLStreamReader r, String local) {
        return DAV.equals(r.getNamespaceURI()) && local.equals(r.getLocalName());
    }

    private static void rejectEntities(int ev) throws MalformedException {
        if (ev == XMLStreamConstants.ENTITY_REFERENCE || ev == XMLStreamConstants.DTD) {
            throw new MalformedException("an entity reference in a PROPFIND answer");
        }
    }

    /** Skips the element just started, with everything in it. */
    private static void skip(XMLStreamReader r) throws XMLStreamException, MalformedException {
        int depth = 1;
        while (depth > 0) {
            int ev = r.next();
            if (ev == XMLStreamConstants.START_ELEMENT) {
                depth++;
            } else if (ev == XMLStreamConstants.END_ELEMENT) {
                depth--;
            } else {
                rejectEntities(ev);
            }
        }
    }
}
