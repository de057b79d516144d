package dev.remotepath.webdav;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The few pull events a PROPFIND answer is read with: elements by namespace and local name, and
 * the text of an element that holds only text. Comments, processing instructions and whitespace
 * between elements are passed over; a DOCTYPE or an entity other than XML's five and character
 * references fails the document, so an answer can neither read files nor expand entities.
 *
 * <p>{@link #open} reads UTF-8 (what every server met sends) with {@link XmlScanner}, a scanner
 * written for this: the JDK's StAX parser cost a fresh JVM ~1.6 ms of CPU for a 100-member answer
 * and ~0.1 s of class loading and set-up before the first (docs/benchmarks.md). A document that
 * declares another encoding, or starts with a UTF-16 byte order mark, is read by the JDK's parser
 * through the same events.
 */
interface XmlPull extends AutoCloseable {

    /** An element started: {@link #namespace()} and {@link #localName()} name it. */
    int START = 1;
    /** The element last started and not ended has ended. */
    int END = 2;
    /** The root element has ended and nothing but whitespace, comments or PIs followed it. */
    int DOCUMENT_END = 3;

    /** The next event; text between elements is passed over (and checked). */
    int next() throws Multistatus.MalformedException, IOException;

    /** The namespace URI of the element just started ({@code ""} for none). */
    String namespace();

    /** The local name of the element just started. */
    String localName();

    /**
     * The text of the element just started, up to and including its end (so the next event is
     * whatever follows that end); an element inside it fails the document.
     */
    String elementText() throws Multistatus.MalformedException, IOException;

    @Override
    void close();

    /** A reader of {@code in}, which must start the document; the caller closes the stream. */
    static XmlPull open(InputStream in) throws Multistatus.MalformedException, IOException {
        XmlScanner scanner = new XmlScanner(in);
        if (scanner.isUtf8()) {
            return scanner;
        }
        return new Stax(new SequenceInputStream(new ByteArrayInputStream(scanner.unread()), in));
    }

    /** The JDK's StAX parser behind the same events, for documents in encodings other than UTF-8. */
    final class Stax implements XmlPull {
        private static final XMLInputFactory FACTORY = factory();
        private final XMLStreamReader r;

        Stax(InputStream in) throws Multistatus.MalformedException, IOException {
            try {
                r = FACTORY.createXMLStreamReader(in);
            } catch (XMLStreamException | RuntimeException e) {
                throw failure(e);
            }
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

        @Override
        public int next() throws Multistatus.MalformedException, IOException {
            try {
                while (true) {
                    if (!r.hasNext()) {
                        return DOCUMENT_END;
                    }
                    switch (r.next()) {
                        case XMLStreamConstants.START_ELEMENT:
                            return START;
                        case XMLStreamConstants.END_ELEMENT:
                            return END;
                        case XMLStreamConstants.END_DOCUMENT:
                            return DOCUMENT_END;
                        case XMLStreamConstants.DTD:
                            throw new Multistatus.MalformedException("a DOCTYPE in a PROPFIND answer");
                        case XMLStreamConstants.ENTITY_REFERENCE:
                            throw new Multistatus.MalformedException("an entity reference in a PROPFIND answer");
                        default:
                            break;
                    }
                }
            } catch (XMLStreamException | RuntimeException e) {
                throw failure(e);
            }
        }

        @Override
        public String namespace() {
            String ns = r.getNamespaceURI();
            return ns == null ? "" : ns;
        }

        @Override
        public String localName() {
            return r.getLocalName();
        }

        @Override
        public String elementText() throws Multistatus.MalformedException, IOException {
            try {
                return r.getElementText();
            } catch (XMLStreamException | RuntimeException e) {
                throw failure(e);
            }
        }

        /** The stream's own failure where there is one in the chain (thrown), else malformed XML. */
        private static Multistatus.MalformedException failure(Exception e) throws IOException {
            Throwable c = e;
            for (int i = 0; c != null && i < 16; i++) {
                if (c instanceof IOException io) {
                    throw io;
                }
                c = c.getCause() != null ? c.getCause() : c instanceof XMLStreamException x ? x.getNestedException() : null;
            }
            return new Multistatus.MalformedException("not well-formed XML: " + e.getMessage());
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
}
