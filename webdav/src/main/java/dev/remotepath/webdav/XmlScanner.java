package dev.remotepath.webdav;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A namespace-aware XML 1.0 pull scanner over UTF-8 bytes, as {@link XmlPull} promises: it
 * checks what makes a document well-formed for a reader of elements and text (one root, tags
 * that nest and match, attributes quoted and not repeated, prefixes bound, names and decoded
 * text in strict UTF-8, no control characters, only XML's five entities and character references
 * to legal characters, nothing but whitespace, comments and PIs outside the root) and refuses
 * any DOCTYPE. Text is normalised as XML says (CR LF and CR read as LF). Elements are tracked on
 * arrays, not by recursion, so depth costs memory in proportion to the (bounded) input only.
 */
final class XmlScanner extends XmlLexer implements XmlPull {

    private static final String XML_NS = "http://www.w3.org/XML/1998/namespace";

    /** The qualified names of the open elements, and the binding count before each. */
    private Name[] open = new Name[16];
    private int[] marks = new int[16];
    private String[] prefixes = new String[16];
    private String[] uris = new String[16];
    private int bindings;
    /** The attribute names of the element being read, for the repeat check. */
    private Name[] attributes = new Name[8];
    /** Names and attribute values made before: the same few repeat in every response. */
    private final ByteInterner names = new ByteInterner();
    private final ByteInterner values = new ByteInterner();
    private int attributeCount;

    private String namespace = "";
    private String localName = "";
    /** An empty-element tag was returned as START: its END is the next event. */
    private boolean emptyPending;
    private boolean rootSeen;

    XmlScanner(InputStream in) throws Multistatus.MalformedException, IOException {
        super(in);
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public String localName() {
        return localName;
    }

    @Override
    public void close() {
        // nothing of its own: the caller closes the stream
    }

    @Override
    public int next() throws Multistatus.MalformedException, IOException {
        if (emptyPending) {
            emptyPending = false;
            pop();
            return END;
        }
        while (true) {
            passText();
            int c = read();
            if (c < 0) {
                if (depth > 0) {
                    throw malformed("the document ends inside <" + open[depth - 1].qname + ">");
                }
                if (!rootSeen) {
                    throw malformed("no root element");
                }
                return DOCUMENT_END;
            }
            int d = read(); // c is '<'
            if (d == '/') {
                endTag();
                return END;
            } else if (d == '?') {
                processingInstruction();
            } else if (d == '!') {
                markup(false);
            } else if (d < 0) {
                throw malformed("the document ends in a tag");
            } else {
                pos--;
                startTag();
                return START;
            }
        }
    }

    @Override
    public String elementText() throws Multistatus.MalformedException, IOException {
        if (emptyPending) {
            emptyPending = false;
            pop();
            return "";
        }
        len = 0;
        brackets = 0;
        String element = open[depth - 1].qname;
        while (true) {
            copyPlainText();
            int c = read();
            if (c < 0) {
                throw malformed("the document ends inside <" + element + ">");
            } else if (c == '<') {
                int d = read();
                if (d == '/') {
                    String text = decode(scratch, len);
                    endTag();
                    return text;
                } else if (d == '!') {
                    markup(true);
                    brackets = 0;
                } else if (d == '?') {
                    processingInstruction();
                    brackets = 0;
                } else {
                    throw malformed("an element inside <" + element + ">, where only text belongs");
                }
            } else {
                textByte(c);
            }
        }
    }

    private void startTag() throws Multistatus.MalformedException, IOException {
        if (rootSeen && depth == 0) {
            throw malformed("a second root element");
        }
        Name element = name();
        String qname = element.qname;
        int mark = bindings;
        attributeCount = 0;
        boolean empty = false;
        while (true) {
            boolean spaced = skipSpaces();
            int c = read();
            if (c == '>') {
                break;
            }
            if (c == '/') {
                if (read() != '>') {
                    throw malformed("a malformed empty-element tag <" + qname + ">");
                }
                empty = true;
                break;
            }
            if (c < 0) {
                throw malformed("the document ends in the tag <" + qname + ">");
            }
            if (!spaced) {
                throw malformed("an attribute not preceded by whitespace in <" + qname + ">");
            }
            pos--;
            attribute(qname);
        }
        for (int i = 0; i < attributeCount; i++) {
            Name a = attributes[i];
            if (!a.prefix.isEmpty() && !a.prefix.equals("xmlns")) {
                uri(a.prefix, a.qname); // bound, or malformed
            }
        }
        namespace = uri(element.prefix, qname);
        localName = element.local;
        if (depth == open.length) {
            open = Arrays.copyOf(open, depth * 2);
            marks = Arrays.copyOf(marks, depth * 2);
        }
        open[depth] = element;
        marks[depth] = mark;
        depth++;
        rootSeen = true;
        emptyPending = empty;
    }

    private void attribute(String element) throws Multistatus.MalformedException, IOException {
        Name name = name();
        for (int i = 0; i < attributeCount; i++) {
            if (attributes[i].qname.equals(name.qname)) {
                throw malformed("the attribute " + name.qname + " twice in <" + element + ">");
            }
        }
        if (attributeCount == attributes.length) {
            attributes = Arrays.copyOf(attributes, attributeCount * 2);
        }
        attributes[attributeCount++] = name;
        skipSpaces();
        if (read() != '=') {
            throw malformed("an attribute without a value in <" + element + ">");
        }
        skipSpaces();
        int quote = read();
        if (quote != '"' && quote != '\'') {
            throw malformed("an unquoted attribute value in <" + element + ">");
        }
        len = 0;
        while (true) {
            int c = read();
            if (c == quote) {
                break;
            }
            if (c < 0 || c == '<') {
                throw malformed("an attribute value that does not end in <" + element + ">");
            }
            if (c == '\t' || c == '\n' || c == '\r') {
                append(' ');
            } else {
                textByte(c);
                brackets = 0; // "]]>" may stand in an attribute's value
            }
        }
        boolean declaration = name.prefix.equals("xmlns");
        if (declaration || name.qname.equals("xmlns")) {
            int h = ByteInterner.hash(scratch, 0, len);
            String value = (String) values.get(scratch, 0, len, h);
            if (value == null) {
                value = decode(scratch, len);
                if (values.put(scratch, 0, len, h, value)) {
                    value = value.intern(); // compared with DAV: and the library's namespace
                    values.put(scratch, 0, len, h, value);
                }
            }
            String prefix = declaration ? name.local : "";
            if (!prefix.isEmpty() && value.isEmpty()) {
                throw malformed("the prefix " + prefix + " bound to no namespace");
            }
            if (prefix.equals("xmlns") || prefix.equals("xml") != value.equals(XML_NS)) {
                throw malformed("the reserved prefix or namespace rebound: " + name.qname + "=\"" + value + "\"");
            }
            bind(prefix, value);
        }
    }

    private void bind(String prefix, String uri) {
        if (bindings == prefixes.length) {
            prefixes = Arrays.copyOf(prefixes, bindings * 2);
            uris = Arrays.copyOf(uris, bindings * 2);
        }
        prefixes[bindings] = prefix;
        uris[bindings] = uri;
        bindings++;
    }

    /** The namespace a prefix stands for here ({@code ""} for no prefix and no default). */
    private String uri(String prefix, String qname) throws Multistatus.MalformedException {
        for (int i = bindings - 1; i >= 0; i--) {
            if (prefixes[i].equals(prefix)) {
                return uris[i];
            }
        }
        if (prefix.isEmpty()) {
            return "";
        }
        if (prefix.equals("xml")) {
            return XML_NS;
        }
        throw malformed("the prefix of " + qname + " is bound to no namespace");
    }

    private void endTag() throws Multistatus.MalformedException, IOException {
        Name name = name();
        skipSpaces();
        if (read() != '>') {
            throw malformed("a malformed end tag </" + name.qname + ">");
        }
        if (depth == 0) {
            throw malformed("an end tag </" + name.qname + "> with no element open");
        }
        Name start = open[depth - 1];
        if (start != name && !start.qname.equals(name.qname)) { // the same object where both were interned
            throw malformed("</" + name.qname + "> ends <" + start.qname + ">");
        }
        pop();
    }

    private void pop() {
        depth--;
        bindings = marks[depth];
        open[depth] = null;
    }

    /** A qualified name, as its prefix (or {@code ""}) and local part. */
    private record Name(String qname, String prefix, String local) {
    }

    /** The name at the read position: straight from the buffer where it lies whole in it. */
    private Name name() throws Multistatus.MalformedException, IOException {
        int h = 0;
        int i = pos;
        while (i < lim && NAME_BYTES[buf[i] & 0xFF]) {
            h = 31 * h + buf[i];
            i++;
        }
        if (i < lim) {
            int start = pos;
            pos = i;
            return name(buf, start, i - start, h);
        }
        len = 0; // the name runs to the buffer's end: gathered across reads
        h = 0;
        while (true) {
            if (pos == lim && !fill()) {
                break;
            }
            int c = buf[pos] & 0xFF;
            if (!isNameByte(c)) {
                break;
            }
            h = 31 * h + (byte) c;
            append(c);
            pos++;
        }
        return name(scratch, 0, len, h);
    }

    private Name name(byte[] b, int off, int n, int h) throws Multistatus.MalformedException {
        Name name = (Name) names.get(b, off, n, h);
        if (name != null) {
            return name;
        }
        if (n == 0) {
            throw malformed("a tag or attribute without a name");
        }
        int colon = -1;
        for (int i = 0; i < n; i++) {
            int c = b[off + i] & 0xFF;
            if ((i == 0 || i == colon + 1) && (c == '-' || c == '.' || c >= '0' && c <= '9' || c == ':')) {
                throw malformed("a name with '" + (char) c + "' at the start of a part");
            }
            if (c == ':') {
                if (colon >= 0) {
                    throw malformed("a name with two colons");
                }
                colon = i;
            }
        }
        if (colon == n - 1) {
            throw malformed("a name that ends with ':'");
        }
        String qname = decode(b, off, n);
        name = colon < 0 ? new Name(qname, "", qname)
                : new Name(qname, qname.substring(0, colon), qname.substring(colon + 1));
        if (names.put(b, off, n, h, name)) {
            // kept: its parts interned, so the reader's comparisons with literals end at identity
            name = new Name(qname, name.prefix.intern(), name.local.intern());
            names.put(b, off, n, h, name);
        }
        return name;
    }
}
